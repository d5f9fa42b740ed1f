'use client';

import { useTranslations } from 'next-intl';
import { useMemo } from 'react';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import {
  useCreateMessageGroup,
  useDeleteMessage,
  useDeleteMessageGroup,
  useUpdateMessageGroup,
  type Message,
  type MessageGroup,
} from '@/lib/api/messages';
import { useOwnTeams } from '@/lib/api/teams';
import type { Translate } from '@/lib/i18n/translate';

/* The sub-channel page's dialogs: a group (name, order), and deleting a group or a message (message-editor.tsx edits messages). */

/** A new group of a team-scoped user names at least one of the user's teams, as its channels must (`campaign.error.teamRequired`). */
const groupFormSchema = (t: Translate<'subChannels.groupForm'>, needsTeam: boolean) =>
  z
    .object({
      name: z.string().trim().min(1).max(255),
      weight: z
        .string()
        .trim()
        .refine((v) => v === '' || /^-?\d{1,7}$/.test(v), t('wholeNumber')),
      teamIds: z.array(z.string()),
    })
    .refine((v) => !needsTeam || v.teamIds.length > 0, { message: t('teamRequired'), path: ['teamIds'] })
    .transform(({ name, weight, teamIds }) => ({ name, ...(weight === '' ? {} : { weight: Number(weight) }), teamIds }));

export function MessageGroupFormDialog({
  open,
  group,
  onOpenChange,
}: {
  open: boolean;
  group?: MessageGroup | null;
  onOpenChange: (open: boolean) => void;
}) {
  const t = useTranslations('subChannels.groupForm');
  const create = useCreateMessageGroup();
  const update = useUpdateMessageGroup();
  const own = useOwnTeams();
  const isNew = !group;
  const schema = useMemo(() => groupFormSchema(t, isNew && own.scoped), [t, isNew, own.scoped]);
  // A new group of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={group ? t('rename') : t('new')}
      schema={schema}
      required={{ name: t('enterName') }}
      values={{
        name: group?.name ?? '',
        weight: group?.weight === undefined ? '' : String(group.weight),
        teamIds: isNew && own.scoped ? own.teams.map((t) => t.id) : [],
      }}
      submitLabel={group ? t('save') : t('create')}
      onSubmit={async ({ teamIds, ...input }) => {
        if (group) await update.mutateAsync({ id: group.id, input });
        else await create.mutateAsync({ ...input, teamIds });
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: t('name'), autoFocus: true })}
          {fields.text('weight', { label: t('order'), inputMode: 'numeric', hint: t('orderHint') })}
          {/* Teams are chosen when the group is made; later from the team pages. */}
          {isNew ? (
            <TeamChoice
              value={form.watch('teamIds')}
              onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
              error={(form.formState.errors.teamIds as { message?: string } | undefined)?.message}
              hint={t('teamsHint')}
            />
          ) : null}
        </>
      )}
    </FormDialog>
  );
}

export function DeleteMessageGroupDialog({ group, onOpenChange }: { group: MessageGroup | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('subChannels.deleteGroup');
  const remove = useDeleteMessageGroup();

  return (
    <ConfirmDialog
      open={group !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('body', {
        name: group?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (group) await remove.mutateAsync(group.id);
      }}
    />
  );
}

export function DeleteMessageDialog({ message, onOpenChange }: { message: Message | null; onOpenChange: (open: boolean) => void }) {
  const t = useTranslations('subChannels.deleteMessage');
  const remove = useDeleteMessage();

  return (
    <ConfirmDialog
      open={message !== null}
      onOpenChange={onOpenChange}
      title={t('title')}
      description={t.rich('body', {
        name: message?.name ?? '',
        strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
      })}
      confirmLabel={t('confirm')}
      destructive
      onConfirm={async () => {
        if (message) await remove.mutateAsync(message.id);
      }}
    />
  );
}
