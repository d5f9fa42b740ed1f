'use client';

import { useMemo } from 'react';
import { z } from 'zod';
import { TeamChoice } from '@/components/teams/team-choice';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { useCreateMessageGroup, useDeleteMessage, useDeleteMessageGroup, useUpdateMessageGroup, type Message, type MessageGroup } from '@/lib/api/messages';
import { useOwnTeams } from '@/lib/api/teams';

/* The sub-channel page's dialogs: a group (name, order), and deleting a group or a message (message-editor.tsx edits messages). */

const order = z.string().trim().refine((v) => v === '' || /^-?\d{1,7}$/.test(v), 'A whole number');
/** A new group of a team-scoped user names at least one of the user's teams, as its channels must (`campaign.error.teamRequired`). */
const groupFormSchema = (needsTeam: boolean) =>
  z
    .object({ name: z.string().trim().min(1).max(255), weight: order, teamIds: z.array(z.string()) })
    .refine((v) => !needsTeam || v.teamIds.length > 0, { message: 'Choose at least one of your teams', path: ['teamIds'] })
    .transform(({ name, weight, teamIds }) => ({ name, ...(weight === '' ? {} : { weight: Number(weight) }), teamIds }));

export function MessageGroupFormDialog({ open, group, onOpenChange }: { open: boolean; group?: MessageGroup | null; onOpenChange: (open: boolean) => void }) {
  const create = useCreateMessageGroup();
  const update = useUpdateMessageGroup();
  const own = useOwnTeams();
  const isNew = !group;
  const schema = useMemo(() => groupFormSchema(isNew && own.scoped), [isNew, own.scoped]);
  // A new group of a team-scoped user starts with the user's teams: the form opens once they are known.
  if (isNew && open && !own.ready) return null;

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={group ? 'Rename sub-channel group' : 'New sub-channel group'}
      schema={schema}
      required={{ name: 'Enter a name' }}
      values={{ name: group?.name ?? '', weight: group?.weight === undefined ? '' : String(group.weight), teamIds: isNew && own.scoped ? own.teams.map((t) => t.id) : [] }}
      submitLabel={group ? 'Save changes' : 'Create group'}
      onSubmit={async ({ teamIds, ...input }) => {
        if (group) await update.mutateAsync({ id: group.id, input });
        else await create.mutateAsync({ ...input, teamIds });
      }}
    >
      {(fields, form) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.text('weight', { label: 'Order', inputMode: 'numeric', hint: 'Lower plays first. Optional.' })}
          {/* Teams are chosen when the group is made; later from the team pages. */}
          {isNew ? (
            <TeamChoice
              value={form.watch('teamIds')}
              onChange={(ids) => form.setValue('teamIds', ids, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })}
              error={(form.formState.errors.teamIds as { message?: string } | undefined)?.message}
              hint="Who sees and changes this group."
            />
          ) : null}
        </>
      )}
    </FormDialog>
  );
}

export function DeleteMessageGroupDialog({ group, onOpenChange }: { group: MessageGroup | null; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteMessageGroup();

  return (
    <ConfirmDialog
      open={group !== null}
      onOpenChange={onOpenChange}
      title="Delete sub-channel group?"
      description={
        <>
          <span className="font-medium text-zinc-700">{group?.name}</span> and all its sub-channels will be removed. A group a channel plays cannot be deleted.
        </>
      }
      confirmLabel="Delete group"
      destructive
      onConfirm={async () => {
        if (group) await remove.mutateAsync(group.id);
      }}
    />
  );
}

export function DeleteMessageDialog({ message, onOpenChange }: { message: Message | null; onOpenChange: (open: boolean) => void }) {
  const remove = useDeleteMessage();

  return (
    <ConfirmDialog
      open={message !== null}
      onOpenChange={onOpenChange}
      title="Delete sub-channel?"
      description={
        <>
          <span className="font-medium text-zinc-700">{message?.name}</span> will be removed. This cannot be undone.
        </>
      }
      confirmLabel="Delete sub-channel"
      destructive
      onConfirm={async () => {
        if (message) await remove.mutateAsync(message.id);
      }}
    />
  );
}
