'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import type { ShownSecret } from '@/components/notification-channels/notification-channel-actions';
import { UserPicker } from '@/components/notification-channels/user-picker';
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
  type NotificationChannelType,
} from '@/server/modules/notification-channels/notification-channels.schemas';

/** The recipients as the form writes them: one a line (commas and semicolons also separate). */
const splitRecipients = (text: string) =>
  text
    .split(/[\n,;]/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** What the form sends as `notify`: the chosen users, the one URL, or the lines of addresses or numbers. */
function notifyOf(v: { channelType: NotificationChannelType; notify: string; userIds: string[] }): string[] {
  if (v.channelType === 'USER_NOTIFICATION') return v.userIds;
  if (v.channelType === 'WEBHOOK') return v.notify.trim() ? [v.notify.trim()] : [];

  return splitRecipients(v.notify);
}

/** The module's rules in the console's words: the recipients are a text of lines, checked against the chosen type. */
const channelFormSchema = (t: Translate<'notificationChannels.form'>, needsTeam: boolean) =>
  z
    .object({
      name: resourceName,
      comment: channelComment,
      channelType: z.enum(notificationChannelTypes),
      notify: z.string(),
      userIds: z.array(z.string()),
      teamIds: z.array(z.string()),
    })
    .superRefine((v, ctx) => {
      const notify = notifyOf(v);
      const field = v.channelType === 'USER_NOTIFICATION' ? 'userIds' : 'notify';
      if (notify.length === 0) {
        const message =
          v.channelType === 'USER_NOTIFICATION'
            ? t('usersRequired')
            : v.channelType === 'WEBHOOK'
              ? t('urlRequired')
              : t('recipientsRequired');
        ctx.addIssue({ code: 'custom', path: [field], message });
      } else if (notify.length > NOTIFY_MAX) ctx.addIssue({ code: 'custom', path: [field], message: t('tooMany', { max: NOTIFY_MAX }) });
      // The users come from the tenant's list: the API checks them (unknownUser).
      const [issue] = v.channelType === 'USER_NOTIFICATION' ? [] : notifyIssues(v.channelType, notify);
      if (issue) {
        const value = notify[issue.path[1]]!;
        const message =
          issue.reason === 'twice'
            ? t('twice', { value })
            : v.channelType === 'SMS'
              ? t('badPhone', { value })
              : v.channelType === 'WEBHOOK'
                ? t('badUrl', { value })
                : t('badEmail', { value });
        ctx.addIssue({ code: 'custom', path: ['notify'], message });
      }
      if (needsTeam && v.teamIds.length === 0) ctx.addIssue({ code: 'custom', path: ['teamIds'], message: t('teamRequired') });
    })
    .transform(({ notify, userIds, teamIds, ...rest }): NotificationChannelInput & { teamIds: string[] } => ({
      ...rest,
      notify: notifyOf({ channelType: rest.channelType, notify, userIds }),
      teamIds,
    }));

/** Creates a channel (no `channel`) or edits one: name, comment, type and recipients; teams when it is made. */
export function NotificationChannelFormDialog({
  open,
  channel,
  tenantName,
  onOpenChange,
  onSecret,
}: {
  open: boolean;
  channel?: NotificationChannel | null;
  tenantName?: string | null;
  onOpenChange: (open: boolean) => void;
  /** A channel that became a WEBHOOK: its signing secret, answered this once. */
  onSecret?: (shown: ShownSecret) => void;
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
        notify: channel?.channelType === 'USER_NOTIFICATION' ? '' : (channel?.notify ?? []).join('\n'),
        userIds: channel?.channelType === 'USER_NOTIFICATION' ? (channel.notify ?? []) : [],
        teamIds: isNew && own.scoped ? own.teams.map((team) => team.id) : [],
      }}
      submitLabel={channel ? t('save') : t('create')}
      onSubmit={async ({ teamIds, ...input }) => {
        const saved = channel ? await update.mutateAsync({ id: channel.id, input }) : await create.mutateAsync({ ...input, teamIds });
        if (saved.secret) onSecret?.({ name: saved.name, secret: saved.secret, kind: 'created' });
      }}
      fieldError={(error) => {
        if (!(error instanceof ApiError)) return undefined;
        if (error.key === 'notificationChannel.error.nameExists') return { field: 'name', message: t('nameExists') };
        if (error.key === 'notificationChannel.error.smsNotConfigured') return { field: 'channelType', message: t('smsNotConfigured') };
        if (error.key === 'notificationChannel.error.unknownUser') return { field: 'userIds', message: t('unknownUser') };

        return undefined;
      }}
    >
      {(fields, form) => {
        const type = form.watch('channelType');

        return (
          <>
            {fields.text('name', { label: t('name'), autoFocus: true, hint: t('nameHint') })}
            {fields.select('channelType', {
              label: t('type'),
              hint: t('typeHint'),
              children: notificationChannelTypes.map((option) => (
                <option key={option} value={option}>
                  {t(`types.${option}`)}
                </option>
              )),
            })}
            {type === 'USER_NOTIFICATION' ? (
              <UserPicker
                value={form.watch('userIds')}
                onChange={(ids) => form.setValue('userIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
                error={(form.formState.errors.userIds as { message?: string } | undefined)?.message}
              />
            ) : type === 'WEBHOOK' ? (
              fields.text('notify', { label: t('url'), hint: t('urlHint'), inputMode: 'url', placeholder: 'https://' })
            ) : (
              fields.textarea('notify', {
                label: type === 'SMS' ? t('phoneNumbers') : t('emailAddresses'),
                hint: type === 'SMS' ? t('phoneNumbersHint') : t('emailAddressesHint'),
                rows: 3,
              })
            )}
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
