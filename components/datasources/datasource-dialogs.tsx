'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import { FixedKind, KindChoice, KindSettings, TestPanel } from '@/components/datasources/datasource-fields';
import {
  createBodyOf,
  formFieldOf,
  formIssues,
  formValuesOf,
  newFormValues,
  updateBodyOf,
  type DatasourceFormValues,
  type FormIssue,
} from '@/components/datasources/datasource-form';
import { TeamChoice } from '@/components/teams/team-choice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog, type SubmitFailure } from '@/components/ui/form-dialog';
import { TagInput } from '@/components/ui/tag-input';
import { ApiError } from '@/lib/api/client';
import { useCreateDatasource, useDeleteDatasource, useUpdateDatasource, type Datasource } from '@/lib/api/datasources';
import { useOwnTeams } from '@/lib/api/teams';
import type { Translate } from '@/lib/i18n/translate';
import { browserTimeZone } from '@/lib/time-zones';

type FormWords = Translate<'datasources.form'>;

function issueMessage(t: FormWords, issue: FormIssue): string {
  switch (issue.reason) {
    case 'range':
      return t('issues.range', { min: issue.min ?? 1, max: issue.max ?? 1 });
    case 'tooLong':
      return t('issues.tooLong', { max: issue.max ?? 1 });
    default:
      return t(`issues.${issue.reason}`);
  }
}

/** A row field's path as react-hook-form names it (`headers.0.name` → `['headers', 0, 'name']`). */
const pathOf = (field: string) => field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * The form's check: the module's create schema and `kindIssues` over the body the values make (formIssues), in the
 * console's words; a team-scoped user's new datasource names one of its teams.
 */
const datasourceFormSchema = (t: FormWords, needsTeam: boolean) =>
  z.custom<DatasourceFormValues>().superRefine((values, ctx) => {
    if (!values.name.trim()) ctx.addIssue({ code: 'custom', path: ['name'], message: t('enterName') });
    for (const issue of formIssues(values))
      if (issue.field !== 'name' || values.name.trim())
        ctx.addIssue({ code: 'custom', path: pathOf(issue.field), message: issueMessage(t, issue) });
    if (needsTeam && values.teamIds.length === 0) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('teamRequired') });
  });

/** The refusals of the datasource API a form field explains; the first 400 issue that names a shown field. */
function submitFailure(t: FormWords, error: unknown): SubmitFailure<DatasourceFormValues> {
  if (!(error instanceof ApiError)) return undefined;
  if (error.key === 'datasource.error.nameExists') return { field: 'name', message: t('nameExists') };
  if (error.key === 'resourceLimit.error.limitReached') return t('limitReached');
  if (error.key === 'fileFolder.error.notFound' || error.key === 'fileFolder.error.filtered')
    return { field: 'fileFolderId', message: t('fileFolderGone') };
  if (error.status !== 400 || !Array.isArray(error.details?.issues)) return undefined;
  for (const issue of error.details.issues as Array<{ path?: unknown; message?: unknown }>) {
    if (typeof issue?.path !== 'string' || typeof issue.message !== 'string') continue;
    const field = formFieldOf(issue.path.split('.'));
    if (field) return { field, message: issue.message };
  }

  return undefined;
}

/** Creates a datasource (no `datasource`): its kind, then only that kind's settings; or edits one (the kinds fixed). */
export function DatasourceFormDialog({
  open,
  datasource,
  tenantName,
  onOpenChange,
}: {
  open: boolean;
  datasource?: Datasource | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('datasources.form');
  const create = useCreateDatasource();
  const update = useUpdateDatasource();
  const own = useOwnTeams();
  const isNew = !datasource;
  const schema = useMemo(() => datasourceFormSchema(t, isNew && own.scoped), [t, isNew, own.scoped]);
  // A new datasource of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;
  const zone = browserTimeZone();
  const values = datasource
    ? formValuesOf(datasource, zone)
    : { ...newFormValues(zone), teamIds: own.scoped ? own.teams.map((team) => team.id) : [] };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={datasource ? t('edit') : t('new')}
      description={
        isNew && tenantName
          ? t.rich('belongsTo', { name: tenantName, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : undefined
      }
      // A variant wins over the dialog's own `max-w-lg` (`cn` joins, it does not merge).
      className="sm:top-[6vh] sm:max-w-2xl"
      bodyClassName="mt-3 max-h-[70vh] space-y-4 overflow-y-auto border-t border-zinc-100 px-5 py-4"
      schema={schema}
      values={values}
      submitLabel={datasource ? t('save') : t('create')}
      onSubmit={async (output) => {
        if (datasource) await update.mutateAsync({ id: datasource.id, body: updateBodyOf(output, datasource) });
        else await create.mutateAsync({ body: createBodyOf(output), teamIds: output.teamIds });
      }}
      fieldError={(error) => submitFailure(t, error)}
    >
      {(fields, form) => {
        const current = form.watch();

        return (
          <>
            {isNew ? <KindChoice form={form} /> : <FixedKind values={current} />}
            {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
            <KindSettings form={form} fields={fields} isNew={isNew} />
            {current.sourceType !== 'INTERNAL' ? <TestPanel form={form} /> : null}
            {fields.textarea('comment', { label: t('comment'), hint: t('optional'), rows: 2 })}
            <TagInput
              id="datasource-tags"
              value={current.tags}
              onChange={(tags) => form.setValue('tags', tags, { shouldDirty: true })}
              suggest="datasourceTags"
            />
            {/* Only refreshes stop: internal and system datasources have none. */}
            {!isNew && current.sourceType === 'EXTERNAL'
              ? fields.checkbox('deactivated', { label: t('deactivated'), description: t('deactivatedHint') })
              : null}
            {/* Teams are chosen when the datasource is made; later from the team pages. */}
            {isNew ? (
              <TeamChoice
                value={current.teamIds}
                onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                error={form.getFieldState('teamIds', form.formState).error?.message}
                hint={t('teamsHint')}
              />
            ) : null}
          </>
        );
      }}
    </FormDialog>
  );
}

/** Content that uses the datasource, as the 409 names it (at most ten). */
function contentNamesOf(error: ApiError): string[] {
  const content = error.details?.content;

  return Array.isArray(content)
    ? content.flatMap((c: unknown) => (c && typeof c === 'object' && 'name' in c && typeof c.name === 'string' ? [c.name] : []))
    : [];
}

export function DeleteDatasourceDialog({
  datasource,
  onOpenChange,
}: {
  datasource: Datasource | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('datasources.deleteDialog');
  const remove = useDeleteDatasource();

  return (
    <ConfirmDialog
      open={datasource !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        name: datasource?.name ?? '',
        strong: (chunks) => (
          <span className="font-medium text-zinc-700" translate="no">
            {chunks}
          </span>
        ),
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (!datasource) return;
        try {
          await remove.mutateAsync(datasource.id);
        } catch (error) {
          // Content still shows the datasource: its names, in the console's words.
          if (error instanceof ApiError && error.key === 'datasource.error.inUse') {
            const names = contentNamesOf(error);
            throw new Error(names.length ? t('inUseBy', { names: names.map((n) => `“${n}”`).join(', ') }) : t('inUse'), { cause: error });
          }
          throw error;
        }
      }}
    />
  );
}
