'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormDialog } from '@/components/ui/form-dialog';
import { TrashIcon } from '@/components/ui/icons';
import { ApiError } from '@/lib/api/client';
import { contentResource } from '@/lib/api/content';
import { useOwnTeams } from '@/lib/api/teams';
import type { Translate } from '@/lib/i18n/translate';
import { intervalOf, wallMinute, wallParts } from '@/lib/schedule/calendar';
import type { ScheduleInterval } from '@/server/playback/schedule-rules.schemas';

const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/;

/** A `datetime-local` value as a wall minute (screens' local time: no zone). */
const toWall = (value: string) => {
  const [, date, time] = LOCAL.exec(value) ?? [];

  return date && time ? wallMinute(date, time) : Number.NaN;
};
const toLocal = (wall: number) => {
  const { date, time } = wallParts(wall);

  return `${date}T${time}`;
};

/** The form's checks; a team-scoped user must keep at least one team (the API's `campaign.error.teamRequired`). */
const scheduleFormSchema = (t: Translate<'schedules.dialog'>, needsTeam: boolean) =>
  z
    .object({
      name: z.string().trim().min(1).max(255),
      contentId: z.string().uuid(t('pickContent')),
      start: z.string().regex(LOCAL, t('startNeeded')),
      end: z.string().regex(LOCAL, t('endNeeded')),
      enabled: z.boolean(),
      teamIds: z.array(z.string()),
    })
    .refine((v) => toWall(v.end) > toWall(v.start), { message: t('endAfterStart'), path: ['end'] })
    .refine((v) => !needsTeam || v.teamIds.length > 0, { message: t('teamRequired'), path: ['teamIds'] });

export type ScheduleFormValues = z.input<ReturnType<typeof scheduleFormSchema>>;
export type ScheduleFormResult = { name: string; contentId: string; enabled: boolean; interval: ScheduleInterval; teamIds: string[] };

/** The form's values for an interval `[start, end)` in wall minutes. */
export function scheduleFormValues(values: {
  name: string;
  contentId: string;
  enabled: boolean;
  start: number;
  end: number;
  teamIds: string[];
}): ScheduleFormValues {
  // An end at midnight is shown as 00:00 of the next day (what the block shows), saved as 23:59 of the day.
  return {
    name: values.name,
    contentId: values.contentId,
    enabled: values.enabled,
    start: toLocal(values.start),
    end: toLocal(values.end),
    teamIds: values.teamIds,
  };
}

/** Create or edit a schedule: name, content, one interval in screens' local time, enabled. */
export function ScheduleDialog({
  open,
  onOpenChange,
  mode,
  values,
  folderName,
  inheritedFrom,
  interval,
  onSave,
  onDelete,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mode: 'create' | 'edit';
  values: ScheduleFormValues;
  folderName: string;
  /** The ancestor folder the schedule is assigned to (editing changes it there). */
  inheritedFrom?: string;
  /** The edited interval as it was (its days and hours are kept). */
  interval?: ScheduleInterval;
  onSave: (result: ScheduleFormResult) => Promise<unknown>;
  onDelete?: () => void;
}) {
  const t = useTranslations('schedules.dialog');
  const contents = contentResource.useList(
    { page: 0, size: 200, sort: 'name,asc', text: '', kind: 'all', folderId: '' },
    { enabled: open },
  );
  const options = contents.data?.content ?? [];
  const own = useOwnTeams();
  const schema = useMemo(() => scheduleFormSchema(t, own.scoped), [t, own.scoped]);
  // A new schedule of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (mode === 'create' && !own.ready) return null;
  const initial =
    mode === 'create' && own.scoped && values.teamIds.length === 0 ? { ...values, teamIds: own.teams.map((t) => t.id) } : values;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={mode === 'create' ? t('new') : t('edit')}
      description={t('description', { folder: folderName })}
      schema={schema}
      values={initial}
      required={{ name: t('enterName') }}
      submitLabel={mode === 'create' ? t('create') : t('save')}
      onSubmit={(v) => {
        const start = toWall(v.start);
        const end = toWall(v.end);
        const base = interval ? { ...interval } : {};

        return onSave({
          name: v.name,
          contentId: v.contentId,
          enabled: v.enabled,
          interval: intervalOf(start, end, base),
          teamIds: v.teamIds,
        });
      }}
      fieldError={(error) =>
        error instanceof ApiError && error.key === 'campaign.error.teamRequired'
          ? { field: 'teamIds', message: t('teamRequired') }
          : undefined
      }
    >
      {(fields, form) => (
        <>
          {inheritedFrom ? <Alert tone="info">{t('inherited', { folder: inheritedFrom })}</Alert> : null}
          {fields.text('name', { label: t('name'), autoFocus: mode === 'create' })}
          {/* The select mounts once its options are there, so it shows the schedule's content (not the first option). */}
          {contents.isPending ? (
            <p className="text-sm text-zinc-500">{t('loadingContent')}</p>
          ) : (
            fields.select('contentId', {
              label: t('content'),
              hint: options.length === 0 ? t('noContent') : undefined,
              children: (
                <>
                  <option value="">{t('chooseContent')}</option>
                  {options.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </>
              ),
            })
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {fields.text('start', { label: t('starts'), type: 'datetime-local' })}
            {fields.text('end', { label: t('ends'), type: 'datetime-local' })}
          </div>
          <TeamChoice
            value={form.watch('teamIds')}
            onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
            error={(form.formState.errors.teamIds as { message?: string } | undefined)?.message}
            hint={t('teamsHint')}
          />
          {fields.checkbox('enabled', { label: t('enabled'), description: t('enabledHint') })}
          {onDelete ? (
            <div className="border-t border-zinc-100 pt-3">
              <Button type="button" variant="secondary" size="sm" className="text-red-700 hover:bg-red-50" onClick={onDelete}>
                <TrashIcon className="size-4" /> {t('delete')}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
