'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import {
  useCreateNotificationChannel,
  useDeleteNotificationChannel,
  useUpdateNotificationChannel,
  type NotificationChannel,
  type NotificationChannelInput,
} from '@/lib/api/notification-channels';
import { useOwnTeams } from '@/lib/api/teams';
import type { Translate } from '@/lib/i18n/translate';
import { resourceName } from '@/server/http/wire.schemas';
import {
  channelComment,
  NOTIFY_MAX,
  notificationChannelTypes,
  notifyIssues,
} from '@/server/modules/notification-channels/notification-channels.schemas';

/** The recipients as the form writes them: one a line (commas and semicolons also separate). */
const splitRecipients = (text: string) =>
  text
    .split(/[\n,;]/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** The module's rules in the console's words: the recipients are a text of lines, checked against the chosen type. */
const channelFormSchema = (t: Translate<'notificationChannels.form'>, needsTeam: boolean) =>
  z
    .object({
      name: resourceName,
      comment: channelComment,
      channelType: z.enum(notificationChannelTypes),
      notify: z.string(),
      teamIds: z.array(z.string()),
    })
    .superRefine((v, ctx) => {
      const notify = splitRecipients(v.notify);
      if (notify.length === 0) ctx.addIssue({ code: 'custom', path: ['notify'], message: t('recipientsRequired') });
      else if (notify.length > NOTIFY_MAX) ctx.addIssue({ code: 'custom', path: ['notify'], message: t('tooMany', { max: NOTIFY_MAX }) });
      const [issue] = notifyIssues(v.channelType, notify);
      if (issue) {
        const value = notify[issue.path[1]]!;
        const message =
          issue.reason === 'twice' ? t('twice', { value }) : v.channelType === 'SMS' ? t('badPhone', { value }) : t('badEmail', { value });
        ctx.addIssue({ code: 'custom', path: ['notify'], message });
      }
      if (needsTeam && v.teamIds.length === 0) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('teamRequired') });
    })
    .transform(({ notify, teamIds, ...rest }): NotificationChannelInput & { teamIds: string[] } => ({
      ...rest,
      notify: splitRecipients(notify),
      teamIds,
    }));

/** Creates a channel (no `channel`) or edits one: name, comment, type and recipients; teams when it is made. */
export function NotificationChannelFormDialog({
  open,
  channel,
  tenantName,
  onOpenChange,
}: {
  open: boolean;
  channel?: NotificationChannel | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('notificationChannels.form');
  const formWords = useTranslations('common.form');
  const create = useCreateNotificationChannel();
  const update = useUpdateNotificationChannel();
  const own = useOwnTeams();
  const isNew = !channel;
  const schema = useMemo(() => channelFormSchema(t, isNew && own.scoped), [t, isNew, own.scoped]);
  // A new channel of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={channel ? t('edit') : t('new')}
      description={
        isNew && tenantName
          ? t.rich('belongsTo', { name: tenantName, strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span> })
          : undefined
      }
      schema={schema}
      required={{ name: formWords('enterName') }}
      values={{
        name: channel?.name ?? '',
        comment: channel?.comment ?? '',
        channelType: channel?.channelType ?? 'EMAIL',
        notify: (channel?.notify ?? []).join('\n'),
        teamIds: isNew && own.scoped ? own.teams.map((team) => team.id) : [],
      }}
      submitLabel={channel ? t('save') : t('create')}
      onSubmit={async ({ teamIds, ...input }) => {
        if (channel) await update.mutateAsync({ id: channel.id, input });
        else await create.mutateAsync({ ...input, teamIds });
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'notificationChannel.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'notificationChannel.error.smsNotConfigured') return { field: 'channelType', message: t('smsNotConfigured') };

        return undefined;
      }}
    >
      {(fields, form) => {
        const isSms = form.watch('channelType') === 'SMS';

        return (
          <>
            {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
            {fields.select('channelType', {
              label: t('type'),
              hint: t('typeHint'),
              children: notificationChannelTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`types.${type}`)}
                </option>
              )),
            })}
            {fields.textarea('notify', {
              label: isSms ? t('phoneNumbers') : t('emailAddresses'),
              hint: isSms ? t('phoneNumbersHint') : t('emailAddressesHint'),
              rows: 3,
            })}
            {fields.textarea('comment', { label: t('comment'), hint: t('optional'), rows: 2 })}
            {/* Teams are chosen when the channel is made; later from the team pages. */}
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

export function DeleteNotificationChannelDialog({
  channel,
  onOpenChange,
}: {
  channel: NotificationChannel | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('notificationChannels.deleteDialog');
  const remove = useDeleteNotificationChannel();

  return (
    <ConfirmDialog
      open={channel !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('text', {
        name: channel?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (!channel) return;
        try {
          await remove.mutateAsync(channel.id);
        } catch (error) {
          // The one refusal of this resource's own, in the console's words (a rule still sends to the channel).
          if (error instanceof ApiError && error.key === 'notificationChannel.error.inUse') throw new Error(t('inUse'), { cause: error });
          throw error;
        }
      }}
    />
  );
}
