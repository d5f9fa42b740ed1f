'use client';

import { useTranslations } from 'next-intl';
import { useId, useMemo } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Select } from '@/components/ui/field';
import { FormDialog, type FormFields } from '@/components/ui/form-dialog';
import {
  actionBases,
  actionFamilies,
  actionFormValues,
  actionTargetings,
  basesOf,
  composeAction,
  createBody,
  firstChoiceOf,
  newActionValues,
  paramFieldsOf,
  paramIssues,
  targetingsOf,
  updateBody,
  type ActionFamilyName,
  type ActionFormValues,
  type ParamField,
  type ParamIssue,
} from '@/components/webhooks/webhook-action-form';
import { ContentPicker, TargetPicker } from '@/components/webhooks/webhook-target-picker';
import { ApiError } from '@/lib/api/client';
import { useOwnTeams } from '@/lib/api/teams';
import { useCreateWebhookAction, useDeleteWebhookAction, useUpdateWebhookAction, type WebhookAction } from '@/lib/api/webhooks';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import type { Translate } from '@/lib/i18n/translate';
import { resourceName } from '@/server/http/wire.schemas';
import { actionTargetOf, eventId as eventIdSchema } from '@/server/modules/webhooks/webhooks.schemas';

type Words = Translate<'webhooks.actionForm'>;
type Form = UseFormReturn<ActionFormValues, unknown, ActionFormValues>;

/** A parameter's problem in the console's words. */
function paramMessage(t: Words, issue: ParamIssue): string {
  switch (issue.problem) {
    case 'url':
      return t('problems.url');
    case 'json':
      return t('problems.json');
    case 'integer':
      return t('problems.integer');
    case 'number':
      return t('problems.number');
    case 'min':
      return t('problems.min', { min: issue.min ?? 0 });
    case 'max':
      return t('problems.max', { max: issue.max ?? 0 });
  }
}

/**
 * The module's rules in the console's words: the event id by the module's own schema (non-empty, no whitespace), a
 * target wherever the type needs one, parameters of the right kind, a team for a team-scoped user's new action.
 */
const actionFormSchema = (t: Words, needsTeam: boolean) =>
  z
    .object({
      name: resourceName,
      eventId: z.string(),
      family: z.enum(actionFamilies),
      base: z.enum(actionBases),
      targeting: z.enum([...actionTargetings, 'NONE']),
      enabled: z.boolean(),
      targetIds: z.array(z.string()),
      params: z.record(z.string(), z.string()),
      teamIds: z.array(z.string()),
    })
    .superRefine((v, ctx) => {
      const eventId = v.eventId.trim();
      if (!eventIdSchema.safeParse(eventId).success) {
        const message = eventId === '' ? t('eventIdRequired') : /\s/.test(eventId) ? t('eventIdWhitespace') : t('eventIdTooLong');
        ctx.addIssue({ code: 'custom', path: ['eventId'], message });
      }
      const action = composeAction(v);
      if (!action) {
        ctx.addIssue({ code: 'custom', path: ['base'], message: t('chooseAction') });

        return;
      }
      const target = actionTargetOf(action);
      if (target !== 'none' && v.targetIds.length === 0)
        ctx.addIssue({ code: 'custom', path: ['targetIds'], message: t(`targetRequired.${target}`) });
      for (const issue of paramIssues(action, v.params))
        ctx.addIssue({ code: 'custom', path: ['params', issue.key], message: paramMessage(t, issue) });
      if (needsTeam && v.teamIds.length === 0) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('teamRequired') });
    });

/** Family first, as cards: a change starts the family at its first action and forgets the targets. */
function FamilyChoice({ form }: { form: Form }) {
  const t = useTranslations('webhooks.actionForm');
  const label = useLabel();
  const family = form.watch('family');
  const choose = (next: ActionFamilyName) => {
    if (next === family) return;
    const first = firstChoiceOf(next);
    form.setValue('family', next, { shouldDirty: true });
    form.setValue('base', first.base, { shouldDirty: true });
    form.setValue('targeting', first.targeting, { shouldDirty: true });
    form.setValue('targetIds', [], { shouldDirty: true });
  };

  return (
    <fieldset className="space-y-1.5">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">{t('family')}</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {actionFamilies.map((f) => (
          <label
            key={f}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm font-medium ring-1 ring-inset',
              family === f ? 'bg-brand-50 text-brand-800 ring-brand-500' : 'text-zinc-800 ring-zinc-200 hover:bg-zinc-50',
            )}
          >
            <input type="radio" name="webhook-family" className="accent-brand-600" checked={family === f} onChange={() => choose(f)} />
            {label('webhookFamily', f)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** What the action does, and (screens, channels) how it finds its targets; targets of another kind are forgotten. */
function ActionChoice({ form }: { form: Form }) {
  const t = useTranslations('webhooks.actionForm');
  const label = useLabel();
  const id = useId();
  const [family, base, targeting] = [form.watch('family'), form.watch('base'), form.watch('targeting')];
  const targetings = targetingsOf(family);
  const change = (next: Partial<Pick<ActionFormValues, 'base' | 'targeting'>>) => {
    const before = composeAction({ family, base, targeting });
    const after = composeAction({ family, base, targeting, ...next });
    if (next.base) form.setValue('base', next.base, { shouldDirty: true });
    if (next.targeting) form.setValue('targeting', next.targeting, { shouldDirty: true });
    if (!before || !after || actionTargetOf(before) !== actionTargetOf(after)) form.setValue('targetIds', [], { shouldDirty: true });
  };
  const baseError = form.formState.errors.base?.message;

  return (
    <div className={cn('grid gap-4', targetings.length > 1 && 'sm:grid-cols-2')}>
      <div className="space-y-1.5">
        <label htmlFor={`${id}-base`} className="block text-sm font-medium text-zinc-800">
          {t('action')}
        </label>
        <Select
          id={`${id}-base`}
          value={base}
          aria-invalid={baseError ? true : undefined}
          onChange={(e) => change({ base: basesOf(family).find((b) => b === e.target.value) })}
        >
          {basesOf(family).map((b) => (
            <option key={b} value={b}>
              {label('webhookAction', b)}
            </option>
          ))}
        </Select>
        {baseError ? <p className="text-sm text-red-700">{baseError}</p> : null}
      </div>
      {targetings.length > 1 ? (
        <div className="space-y-1.5">
          <label htmlFor={`${id}-targeting`} className="block text-sm font-medium text-zinc-800">
            {t('targeting')}
          </label>
          <Select
            id={`${id}-targeting`}
            value={targeting}
            onChange={(e) => change({ targeting: targetings.find((x) => x === e.target.value) })}
          >
            {targetings.map((x) => (
              <option key={x} value={x}>
                {label('webhookTargeting', x)}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
    </div>
  );
}

/** The parameters of the chosen type; an empty one is filled by the trigger's payload. */
function ParamFields({ form, fields, action }: { form: Form; fields: FormFields<ActionFormValues>; action: string }) {
  const t = useTranslations('webhooks.actionForm');
  const id = useId();
  const params = paramFieldsOf(action);
  if (params.length === 0) return null;
  const control = (param: ParamField) => {
    const name = `params.${param.key}` as const;
    const words = { label: t(`params.${param.key}.label`), hint: t(`params.${param.key}.hint`) };
    switch (param.kind) {
      case 'content':
        return (
          <ContentPicker
            label={words.label}
            value={form.watch(name) ?? ''}
            onChange={(id) => form.setValue(name, id, { shouldDirty: true })}
          />
        );
      case 'json':
      case 'multiline':
        return fields.textarea(name, { ...words, rows: 3 });
      case 'integer':
      case 'number':
        return fields.text(name, { ...words, inputMode: param.kind === 'integer' ? 'numeric' : 'decimal' });
      default:
        return fields.text(name, { ...words, type: param.kind === 'url' ? 'url' : 'text' });
    }
  };
  // Numbers and short texts sit two to a row; a lone field, a JSON or text box and the content list take the row.
  const isWide = (param: ParamField) => params.length === 1 || ['json', 'multiline', 'content', 'url'].includes(param.kind);

  return (
    <div role="group" aria-labelledby={`${id}-params`} className="space-y-3 rounded-lg bg-zinc-50 p-3 ring-1 ring-zinc-200 ring-inset">
      <div>
        <p id={`${id}-params`} className="text-sm font-medium text-zinc-800">
          {t('parameters')}
        </p>
        <p className="text-sm text-zinc-500">{t('parametersHint')}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {params.map((param) => (
          <div key={param.key} className={isWide(param) ? 'sm:col-span-2' : undefined}>
            {control(param)}
          </div>
        ))}
      </div>
    </div>
  );
}

/** Creates an action (no `action`) or edits one: name, event id, family → action → targeting, targets, parameters. */
export function WebhookActionFormDialog({
  open,
  action,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  action?: WebhookAction | null;
  onOpenChange: (open: boolean) => void;
  onSaved?: (action: WebhookAction) => void;
}) {
  const t = useTranslations('webhooks.actionForm');
  const formWords = useTranslations('common.form');
  const create = useCreateWebhookAction();
  const update = useUpdateWebhookAction();
  const own = useOwnTeams();
  const isNew = !action;
  const schema = useMemo(() => actionFormSchema(t, isNew && own.scoped), [t, isNew, own.scoped]);
  // The form allows only choices that compose to an action type, so a body is always there.
  const save = async (values: ActionFormValues) => {
    if (action) {
      const body = updateBody(values);

      return body ? update.mutateAsync({ id: action.id, input: body }) : undefined;
    }
    const body = createBody(values);

    return body ? create.mutateAsync(body) : undefined;
  };
  // A new action of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={isNew ? t('new') : t('edit')}
      // A variant wins over the dialog's own `max-w-lg` (`cn` joins, it does not merge).
      className="sm:top-[6vh] sm:max-w-2xl"
      bodyClassName="mt-3 max-h-[72vh] space-y-5 overflow-y-auto border-t border-zinc-100 px-5 py-4"
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={action ? actionFormValues(action) : newActionValues(own.scoped ? own.teams.map((team) => team.id) : [])}
      submitLabel={isNew ? t('create') : t('save')}
      onSubmit={async (values) => {
        // Awaited apart: in `onSaved?.(await …)` an absent `onSaved` would skip the save itself.
        const saved = await save(values);
        if (saved) onSaved?.(saved);
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'webhookAction.error.eventIdExists') return { field: 'eventId', message: t('eventIdExists') };
        if (error.key === 'webhookAction.error.targetRequired') return { field: 'targetIds', message: t('targetMissing') };

        return undefined;
      }}
    >
      {(fields, form) => {
        const composed = composeAction({ family: form.watch('family'), base: form.watch('base'), targeting: form.watch('targeting') });
        const target = composed ? actionTargetOf(composed) : 'none';

        return (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
              {fields.text('eventId', { label: t('eventId'), hint: t('eventIdHint'), autoComplete: 'off' })}
            </div>
            <FamilyChoice form={form} />
            <ActionChoice form={form} />
            {composed ? (
              <TargetPicker
                target={target}
                action={composed}
                value={form.watch('targetIds')}
                onChange={(ids) => form.setValue('targetIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                error={form.getFieldState('targetIds', form.formState).error?.message}
              />
            ) : null}
            {composed ? <ParamFields form={form} fields={fields} action={composed} /> : null}
            {fields.checkbox('enabled', { label: t('enabled'), description: t('enabledHint') })}
            {/* Teams are chosen when the action is made; later from the team pages. */}
            {isNew ? (
              <TeamChoice
                value={form.watch('teamIds')}
                onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                error={(form.formState.errors.teamIds as { message?: string } | undefined)?.message}
                hint={t('teamsHint')}
              />
            ) : null}
          </>
        );
      }}
    </FormDialog>
  );
}

export function DeleteWebhookActionDialog({
  action,
  onOpenChange,
  onDeleted,
}: {
  action: WebhookAction | null;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}) {
  const t = useTranslations('webhooks.deleteAction');
  const remove = useDeleteWebhookAction();

  return (
    <ConfirmDialog
      open={action !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        name: action?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (!action) return;
        await remove.mutateAsync(action.id);
        onDeleted?.();
      }}
    />
  );
}
