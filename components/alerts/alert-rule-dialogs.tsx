'use client';

import { Link } from '@/components/ui/link';
import { useLocale, useTranslations } from 'next-intl';
import { useId, useMemo, type ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import {
  alertRuleBody,
  alertRuleFormSchema,
  alertRuleFormValues,
  formFieldOfIssuePath,
  newAlertRuleValues,
  TEMPLATE_FIELDS,
  TEMPLATE_PLACEHOLDERS,
  type AlertRuleFormValues,
} from '@/components/alerts/alert-rule-form';
import { Chips, FolderChooser } from '@/components/channels/channel-parts';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { TeamChoice } from '@/components/teams/team-choice';
import { ScreenPicker } from '@/components/webhooks/webhook-target-picker';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CheckboxField, Field, fieldAria, FilterSelect } from '@/components/ui/field';
import { FormDialog, type FormFields } from '@/components/ui/form-dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { TagInput } from '@/components/ui/tag-input';
import { TimeZoneOptions } from '@/components/ui/time-zone-options';
import {
  useCreateAlertRule,
  useDeleteAlertRule,
  useSimpleNotificationChannels,
  useUpdateAlertRule,
  type AlertRule,
} from '@/lib/api/alerts';
import { ApiError } from '@/lib/api/client';
import { useDeviceRoot } from '@/lib/api/device-groups';
import { useOwnTeams } from '@/lib/api/teams';
import { useTargetNames } from '@/lib/api/webhooks';
import { cn } from '@/lib/cn';
import { useLabel } from '@/lib/i18n/labels';
import { weekdayNames } from '@/lib/schedule/calendar';
import { browserTimeZone } from '@/lib/time-zones';
import { alertRuleTypes, type AlertRuleType } from '@/server/modules/alerts/alert-rules.schemas';
import { dayNames } from '@/server/playback/schedule-rules.schemas';

type Form = UseFormReturn<AlertRuleFormValues, unknown, AlertRuleFormValues>;

/** The message of a field the form sets by hand (not through `fields`). */
const errorOf = (form: Form, name: keyof AlertRuleFormValues) => form.getFieldState(name, form.formState).error?.message;

/** Sets a value a custom control holds, validating again once the form was submitted. */
const setter = (form: Form) => (name: keyof AlertRuleFormValues, value: AlertRuleFormValues[typeof name]) =>
  form.setValue(name, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 border-t border-zinc-100 pt-4 first:border-t-0 first:pt-0">
      <legend className="float-left mb-3 w-full text-sm font-semibold text-zinc-900">{title}</legend>
      <div className="clear-both space-y-4">{children}</div>
    </fieldset>
  );
}

/** A number field in a unit ("minutes"), registered with the form. */
function NumberField({
  form,
  name,
  label,
  unit,
  hint,
}: {
  form: Form;
  name: 'inactiveMinutes' | 'threshold' | 'evaluateMinutes' | 'delayMinutes';
  label: string;
  unit: string;
  hint?: string;
}) {
  const id = `${useId()}-${name}`;
  const error = errorOf(form, name);

  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <div className="flex items-center gap-2">
        {/* The input is as wide as its box (`w-full`): the box sets the width, so the unit stays beside it. */}
        <div className="w-28 shrink-0">
          <Input inputMode="numeric" {...fieldAria(id, error, Boolean(hint))} {...form.register(name)} />
        </div>
        <span className="text-sm whitespace-nowrap text-zinc-600">{unit}</span>
      </div>
    </Field>
  );
}

/** The watched folder (one, picked in the screens' tree), below it or not, and folders left out. */
function FolderScope({ form }: { form: Form }) {
  const t = useTranslations('alerts.ruleForm');
  const root = useDeviceRoot();
  const set = setter(form);
  const folderId = form.watch('deviceGroupId');
  const excluded = form.watch('excludeDeviceGroupIds');
  const names = useTargetNames('deviceGroup', [folderId, ...excluded].filter(Boolean), t('allScreens'));
  const nameOf = (id: string) => names.data?.get(id) ?? t('loadingName');
  const error = errorOf(form, 'deviceGroupId');
  const excludedScreens = form.watch('excludeDeviceIds');
  const screensError = errorOf(form, 'excludeDeviceIds');

  return (
    <>
      <div role="group" aria-label={t('folder')} className="space-y-1.5">
        <p className="text-sm font-medium text-zinc-800">{t('folder')}</p>
        <p className="text-sm text-zinc-600" data-testid="alert-rule-folder">
          {folderId ? t('watching', { name: nameOf(folderId) }) : t('noFolder')}
        </p>
        <div className={cn('max-h-56 overflow-y-auto rounded-md p-2 ring-1 ring-zinc-200 ring-inset', error && 'ring-red-300')}>
          {root.data ? (
            <DeviceFolderTree root={root.data} selectedId={folderId} openPath={[]} onSelect={(folder) => set('deviceGroupId', folder.id)} />
          ) : (
            <Spinner className="m-2 size-4" />
          )}
        </div>
        {error ? <p className="text-sm text-red-700">{error}</p> : null}
      </div>
      <CheckboxField id={`${useId()}-recursive`} label={t('recursive')} description={t('recursiveHint')} {...form.register('recursive')} />
      <details className="group rounded-md ring-1 ring-zinc-200" open={excluded.length > 0 || undefined}>
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-zinc-800">
          {t('excludeFolders')}
          {excluded.length ? <span className="ml-1 text-zinc-500">({excluded.length})</span> : null}
        </summary>
        <div className="border-t border-zinc-100 p-3">
          <FolderChooser
            hint={t('excludeFoldersHint')}
            tree={
              root.data ? (
                <DeviceFolderTree
                  root={root.data}
                  selectedId={excluded.at(-1) ?? ''}
                  openPath={[]}
                  onSelect={(folder) =>
                    set(
                      'excludeDeviceGroupIds',
                      excluded.includes(folder.id) ? excluded.filter((id) => id !== folder.id) : [...excluded, folder.id],
                    )
                  }
                />
              ) : null
            }
            chosen={excluded.map((id) => ({ id, name: nameOf(id) }))}
            label={t('excludedFolders')}
            onRemove={(id) =>
              set(
                'excludeDeviceGroupIds',
                excluded.filter((chosen) => chosen !== id),
              )
            }
            error={errorOf(form, 'excludeDeviceGroupIds')}
            disabled={false}
          />
        </div>
      </details>
      <details className="group rounded-md ring-1 ring-zinc-200" open={excludedScreens.length > 0 || Boolean(screensError) || undefined}>
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-zinc-800">
          {t('excludeScreens')}
          {excludedScreens.length ? <span className="ml-1 text-zinc-500">({excludedScreens.length})</span> : null}
        </summary>
        <div
          role="group"
          aria-label={t('excludedScreens')}
          className="space-y-2 border-t border-zinc-100 p-3"
          data-testid="alert-rule-excluded-screens"
        >
          <p className="text-sm text-zinc-500">{t('excludeScreensHint')}</p>
          <ScreenPicker
            label={t('excludedScreens')}
            value={excludedScreens}
            onChange={(ids) => set('excludeDeviceIds', ids)}
            single={false}
          />
          {screensError ? <p className="text-sm text-red-700">{screensError}</p> : null}
        </div>
      </details>
    </>
  );
}

/** The tag filter: which tags, all or any of them, and whether matching screens are watched or left out. */
function TagScope({ form }: { form: Form }) {
  const t = useTranslations('alerts.ruleForm');
  const id = useId();
  const set = setter(form);
  const tags = form.watch('tags');

  return (
    <div className="space-y-1.5">
      <p className="text-sm font-medium text-zinc-800">{t('tags')}</p>
      <TagInput id={`${id}-tags`} label={t('tags')} value={tags} onChange={(next) => set('tags', next)} suggest="deviceTags" />
      {/* Each select in its own flex item, as wide as its longest option (`cn` cannot override the select's `w-full`). */}
      <div className="flex flex-wrap items-center gap-2 text-sm text-zinc-600">
        <div className="shrink-0">
          <FilterSelect aria-label={t('tagFilterType')} disabled={!tags.length} {...form.register('tagFilterType')}>
            <option value="INCLUDE">{t('tagInclude')}</option>
            <option value="EXCLUDE">{t('tagExclude')}</option>
          </FilterSelect>
        </div>
        <div className="shrink-0">
          <FilterSelect aria-label={t('tagOperator')} disabled={!tags.length} {...form.register('tagOperator')}>
            <option value="OR">{t('tagAny')}</option>
            <option value="AND">{t('tagAll')}</option>
          </FilterSelect>
        </div>
      </div>
      <p className="text-sm text-zinc-500">{t('tagsHint')}</p>
    </div>
  );
}

/** Working days as seven boxes, and the hours (or the whole day) in a time zone. */
function WorkingTime({ form, fields }: { form: Form; fields: FormFields<AlertRuleFormValues> }) {
  const t = useTranslations('alerts.ruleForm');
  const locale = useLocale();
  const weekdays = useMemo(() => weekdayNames(locale), [locale]);
  const id = useId();
  const allDay = form.watch('allDay');
  const daysError = errorOf(form, 'workingDays');

  return (
    <>
      <div role="group" aria-label={t('workingDays')} className="space-y-1.5">
        <p className="text-sm font-medium text-zinc-800">{t('workingDays')}</p>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {dayNames.map((day, i) => (
            <label key={day} className="flex cursor-pointer items-center gap-1.5 text-sm text-zinc-700">
              <input
                type="checkbox"
                className="size-4 cursor-pointer rounded border-zinc-300 accent-brand-600"
                {...form.register(`workingDays.${day}`)}
              />
              {weekdays[i]}
            </label>
          ))}
        </div>
        {daysError ? <p className="text-sm text-red-700">{daysError}</p> : null}
      </div>
      {fields.checkbox('allDay', { label: t('allDay') })}
      {allDay ? null : (
        <div className="grid grid-cols-2 gap-4">
          <Field id={`${id}-from`} label={t('from')} error={errorOf(form, 'from')}>
            <Input type="time" {...fieldAria(`${id}-from`, errorOf(form, 'from'))} {...form.register('from')} />
          </Field>
          <Field id={`${id}-end`} label={t('end')} error={errorOf(form, 'end')}>
            <Input type="time" {...fieldAria(`${id}-end`, errorOf(form, 'end'))} {...form.register('end')} />
          </Field>
        </div>
      )}
      {fields.select('timeZone', {
        label: t('timeZone'),
        hint: t('timeZoneHint'),
        children: <TimeZoneOptions current={form.getValues('timeZone')} />,
      })}
    </>
  );
}

/** The channels told when an alert opens or closes: every channel of the tenant as a box. */
function Channels({ form, enabled }: { form: Form; enabled: boolean }) {
  const t = useTranslations('alerts.ruleForm');
  const channels = useSimpleNotificationChannels({ enabled });
  const chosen = form.watch('channelIds');
  const set = setter(form);
  const list = channels.data?.content ?? [];
  const error = errorOf(form, 'channelIds');

  return (
    <div role="group" aria-label={t('channels')} className="space-y-1.5">
      <p className="text-sm font-medium text-zinc-800">{t('channels')}</p>
      <Chips
        items={chosen.map((id) => ({ id, name: list.find((c) => c.id === id)?.name ?? t('loadingName') }))}
        label={t('chosenChannels')}
        disabled={false}
        onRemove={(id) =>
          set(
            'channelIds',
            chosen.filter((c) => c !== id),
          )
        }
      />
      <ul
        aria-label={t('channelList')}
        className="max-h-40 divide-y divide-zinc-100 overflow-y-auto rounded-md bg-white ring-1 ring-zinc-200 ring-inset"
      >
        {list.map((channel) => (
          <li key={channel.id}>
            <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-zinc-50">
              <input
                type="checkbox"
                className="accent-brand-600"
                checked={chosen.includes(channel.id)}
                onChange={(e) => set('channelIds', e.target.checked ? [...chosen, channel.id] : chosen.filter((c) => c !== channel.id))}
              />
              <span className="min-w-0 flex-1 truncate text-zinc-900">{channel.name}</span>
            </label>
          </li>
        ))}
        {channels.isPending ? (
          <li className="flex items-center gap-2 px-3 py-2 text-sm text-zinc-500">
            <Spinner /> {t('loading')}
          </li>
        ) : list.length === 0 ? (
          <li className="px-3 py-2 text-sm text-zinc-500">{t('noChannels')}</li>
        ) : null}
      </ul>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
      <p className="text-sm text-zinc-500">
        {t.rich('channelsHint', {
          link: (chunks) => (
            <Link href="/notification-channels" className="text-brand-700 underline hover:text-brand-800">
              {chunks}
            </Link>
          ),
        })}
      </p>
    </div>
  );
}

/** The message templates, folded away: most rules send the default texts. */
function Messages({ fields, form }: { fields: FormFields<AlertRuleFormValues>; form: Form }) {
  const t = useTranslations('alerts.ruleForm');
  const written = TEMPLATE_FIELDS.filter((field) => form.getValues(field).trim()).length;

  return (
    <details className="rounded-md ring-1 ring-zinc-200" open={written > 0 || undefined}>
      <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-zinc-900">
        {t('messages')}{' '}
        <span className="font-normal text-zinc-500">{written ? t('messagesWritten', { count: written }) : t('messagesDefault')}</span>
      </summary>
      <div className="space-y-4 border-t border-zinc-100 p-3">
        <p className="text-sm text-zinc-600">{t('messagesHint')}</p>
        <p className="text-xs leading-relaxed text-zinc-500" translate="no">
          {TEMPLATE_PLACEHOLDERS.map((name) => `{${name}}`).join(' ')}
        </p>
        {fields.text('emailSubject', { label: t('templates.emailSubject') })}
        {fields.textarea('emailBody', { label: t('templates.emailBody'), rows: 4 })}
        {fields.textarea('sms', { label: t('templates.sms'), rows: 2 })}
        {fields.textarea('fixedSms', { label: t('templates.fixedSms'), rows: 2 })}
      </div>
    </details>
  );
}

/** Creates a rule (no `rule`) or edits one; the type cannot change once the rule exists. */
export function AlertRuleFormDialog({
  open,
  rule,
  tenantName,
  onOpenChange,
}: {
  open: boolean;
  rule?: AlertRule | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('alerts.ruleForm');
  const label = useLabel();
  const formWords = useTranslations('common.form');
  const create = useCreateAlertRule();
  const update = useUpdateAlertRule();
  const own = useOwnTeams();
  const isNew = !rule;
  const schema = useMemo(() => alertRuleFormSchema(t, { needsTeam: isNew && own.scoped }), [t, isNew, own.scoped]);
  // A new rule of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;
  const zone = browserTimeZone();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={isNew ? t('new') : t('edit')}
      description={
        isNew && tenantName
          ? t.rich('belongsTo', { name: tenantName, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : undefined
      }
      // A variant wins over the dialog's own `max-w-lg` (`cn` joins, it does not merge).
      className="sm:top-[5vh] sm:max-w-2xl"
      bodyClassName="mt-3 max-h-[74vh] space-y-5 overflow-y-auto border-t border-zinc-100 px-5 py-4"
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={
        rule
          ? alertRuleFormValues(rule, { timeZone: zone })
          : newAlertRuleValues({ timeZone: zone, teamIds: own.scoped ? own.teams.map((team) => team.id) : [] })
      }
      submitLabel={isNew ? t('create') : t('save')}
      onSubmit={async (values) => {
        const body = alertRuleBody(values);
        if (rule) await update.mutateAsync({ id: rule.id, body });
        else await create.mutateAsync({ body, teamIds: values.teamIds });
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'alertRule.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'alertRule.error.typeImmutable') return { field: 'type', message: t('typeImmutable') };
        const issues = error.status === 400 && Array.isArray(error.details?.issues) ? error.details.issues : [];
        for (const issue of issues as Array<{ path?: unknown; message?: unknown }>) {
          const field = typeof issue?.path === 'string' ? formFieldOfIssuePath(issue.path) : undefined;
          if (field && typeof issue.message === 'string') return { field, message: issue.message };
        }

        return undefined;
      }}
    >
      {(fields, form) => {
        const type: AlertRuleType = form.watch('type');

        return (
          <>
            <Section title={t('general')}>
              {isNew ? (
                fields.select('type', {
                  label: t('type'),
                  hint: t(`typeHints.${type}`),
                  children: alertRuleTypes.map((value) => (
                    <option key={value} value={value}>
                      {label('alertRuleType', value)}
                    </option>
                  )),
                })
              ) : (
                <div className="space-y-1">
                  <p className="text-sm font-medium text-zinc-800">{t('type')}</p>
                  <p className="text-sm text-zinc-700" data-testid="alert-rule-type">
                    {label('alertRuleType', type)} <span className="text-zinc-500">· {t('typeFixed')}</span>
                  </p>
                  {errorOf(form, 'type') ? <p className="text-sm text-red-700">{errorOf(form, 'type')}</p> : null}
                </div>
              )}
              {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
              {fields.textarea('comment', { label: t('comment'), hint: t('optional'), rows: 2 })}
              {fields.checkbox('enabled', { label: t('enabled'), description: t('enabledHint') })}
            </Section>
            <Section title={t('condition')}>
              {type === 'DeviceOffline' ? (
                <>
                  <NumberField
                    form={form}
                    name="inactiveMinutes"
                    label={t('inactiveMinutes')}
                    unit={t('minutes')}
                    hint={t('inactiveHint')}
                  />
                  <FolderScope form={form} />
                  <TagScope form={form} />
                </>
              ) : (
                <NumberField form={form} name="threshold" label={t('threshold')} unit={t('failedRefreshes')} hint={t('thresholdHint')} />
              )}
            </Section>
            <Section title={t('when')}>
              <WorkingTime form={form} fields={fields} />
            </Section>
            <Section title={t('evaluation')}>
              <div className="grid gap-4 sm:grid-cols-2">
                <NumberField form={form} name="evaluateMinutes" label={t('evaluateEvery')} unit={t('minutes')} hint={t('evaluateHint')} />
                <NumberField form={form} name="delayMinutes" label={t('delay')} unit={t('minutes')} hint={t('delayHint')} />
              </div>
            </Section>
            <Section title={t('notify')}>
              <Channels form={form} enabled={open} />
              <Messages fields={fields} form={form} />
            </Section>
            {/* Teams are chosen when the rule is made; later from the team pages. */}
            {isNew ? (
              <TeamChoice
                value={form.watch('teamIds')}
                onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                error={errorOf(form, 'teamIds')}
                hint={t('teamsHint')}
              />
            ) : null}
          </>
        );
      }}
    </FormDialog>
  );
}

export function DeleteAlertRuleDialog({ rule, onOpenChange }: { rule: AlertRule | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('alerts.deleteRule');
  const remove = useDeleteAlertRule();

  return (
    <ConfirmDialog
      open={rule !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        name: rule?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (rule) await remove.mutateAsync(rule.id);
      }}
    />
  );
}
