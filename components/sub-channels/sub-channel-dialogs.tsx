'use client';

import { z } from 'zod';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { useCreateMessageGroup, useDeleteMessage, useDeleteMessageGroup, useUpdateMessageGroup, type Message, type MessageGroup } from '@/lib/api/messages';

/* The sub-channel page's dialogs: a group (name, order), and deleting a group or a message (message-editor.tsx edits messages). */

const order = z.string().trim().refine((v) => v === '' || /^-?\d{1,7}$/.test(v), 'A whole number');
const GroupFormSchema = z
  .object({ name: z.string().trim().min(1).max(255), weight: order })
  .transform(({ name, weight }) => ({ name, ...(weight === '' ? {} : { weight: Number(weight) }) }));

export function MessageGroupFormDialog({ open, group, onOpenChange }: { open: boolean; group?: MessageGroup | null; onOpenChange: (open: boolean) => void }) {
  const create = useCreateMessageGroup();
  const update = useUpdateMessageGroup();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={group ? 'Rename sub-channel group' : 'New sub-channel group'}
      schema={GroupFormSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: group?.name ?? '', weight: group?.weight === undefined ? '' : String(group.weight) }}
      submitLabel={group ? 'Save changes' : 'Create group'}
      onSubmit={async (input) => {
        if (group) await update.mutateAsync({ id: group.id, input });
        else await create.mutateAsync(input);
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.text('weight', { label: 'Order', inputMode: 'numeric', hint: 'Lower plays first. Optional.' })}
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
