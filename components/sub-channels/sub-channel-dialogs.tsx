'use client';

import { z } from 'zod';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { ApiError } from '@/lib/api/client';
import { contentResource } from '@/lib/api/content';
import { useFolderChildren, useRootFolder } from '@/lib/api/file-folders';
import {
  useCreateMessage,
  useCreateMessageGroup,
  useDeleteMessage,
  useDeleteMessageGroup,
  useUpdateMessage,
  useUpdateMessageGroup,
  type Message,
  type MessageBody,
  type MessageGroup,
} from '@/lib/api/messages';

/* The sub-channel page's dialogs: a group (name, order) and a message (what it plays, how much, when). */

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

/** The types the console edits; the API takes every message type. */
export const EDITABLE_TYPES = { CONTENT: 'Content', ASSETS_DYNAMIC: 'Media folder' } as const;
type EditableType = keyof typeof EDITABLE_TYPES;

const isDate = (v: string) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v);

const MessageFormSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    type: z.enum(['CONTENT', 'ASSETS_DYNAMIC']),
    contentId: z.string(),
    fileFolderId: z.string(),
    saturation: z.string().trim().refine((v) => /^\d{1,5}$/.test(v), 'A whole number: 1 one item, N items, 0 all'),
    weight: order,
    validFrom: z.string().refine(isDate, 'A date written yyyy-MM-dd'),
    validTo: z.string().refine(isDate, 'A date written yyyy-MM-dd'),
    enabled: z.boolean(),
  })
  .refine((v) => v.type !== 'CONTENT' || v.contentId !== '', { message: 'Choose the content it plays', path: ['contentId'] })
  .refine((v) => v.type !== 'ASSETS_DYNAMIC' || v.fileFolderId !== '', { message: 'Choose the media folder it plays', path: ['fileFolderId'] })
  .refine((v) => !v.validFrom || !v.validTo || v.validFrom <= v.validTo, { message: 'The last day must not be before the first day', path: ['validTo'] });

type MessageForm = z.output<typeof MessageFormSchema>;

/** The API body of the form: a create names the group and the type; an update only what may change. */
function bodyOf(form: MessageForm, message: Message | null | undefined, messageGroupId: number): MessageBody {
  const common: MessageBody = {
    name: form.name,
    enabled: form.enabled,
    saturation: Number(form.saturation),
    ...(form.weight === '' ? {} : { weight: Number(form.weight) }),
  };
  const previousFolders = (message?.fileFolderAssignments ?? []).map((a) => String(a.id)).filter((id) => id !== form.fileFolderId);
  const plays =
    form.type === 'CONTENT'
      ? { contentId: form.contentId }
      : { fileFolderAssignment: { assignments: [{ fileFolderId: form.fileFolderId }], ...(previousFolders.length > 0 ? { removeIds: previousFolders } : {}) } };
  if (!message) return { ...common, ...plays, messageGroupId, type: form.type, ...(form.validFrom ? { validFrom: form.validFrom } : {}), ...(form.validTo ? { validTo: form.validTo } : {}) };

  return {
    ...common,
    ...plays,
    ...(form.validFrom ? { validFrom: form.validFrom } : { resetValidFrom: true }),
    ...(form.validTo ? { validTo: form.validTo } : { resetValidTo: true }),
  };
}

const dayOf = (epochMs: number | null | undefined) => (typeof epochMs === 'number' ? new Date(epochMs).toISOString().slice(0, 10) : '');

/** Adds a message to `group` or edits `message`: name, what it plays, saturation, order, first and last day. */
export function MessageFormDialog({
  open,
  group,
  message,
  onOpenChange,
}: {
  open: boolean;
  group: MessageGroup;
  message?: Message | null;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateMessage();
  const update = useUpdateMessage();
  const content = contentResource.useList({ page: 0, size: 200, sort: 'name,asc', text: '', kind: 'all', folderId: '' }, { enabled: open });
  const root = useRootFolder();
  const folders = useFolderChildren(root.data?.id, { enabled: open && Boolean(root.data?.id) });
  const type: EditableType = message?.type === 'ASSETS_DYNAMIC' ? 'ASSETS_DYNAMIC' : 'CONTENT';
  const folderOptions = [...(root.data ? [{ id: root.data.id, name: 'All media' }] : []), ...(folders.data?.content ?? []).map((f) => ({ id: f.id, name: f.name ?? '' }))];

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={message ? 'Edit sub-channel' : 'New sub-channel'}
      description={
        <>
          In the group <span className="font-medium text-zinc-700">{group.name}</span>. It plays wherever a channel that plays the group plays.
        </>
      }
      schema={MessageFormSchema}
      required={{ name: 'Enter a name' }}
      values={{
        name: message?.name ?? '',
        type,
        contentId: message?.contentId ?? '',
        fileFolderId: message?.fileFolderAssignments?.[0] ? String(message.fileFolderAssignments[0].id) : '',
        saturation: String(message?.saturation ?? 1),
        weight: message?.weight === undefined || message.weight === null ? '' : String(message.weight),
        validFrom: dayOf(message?.validFrom),
        validTo: dayOf(message?.validTo),
        enabled: message?.enabled ?? true,
      }}
      submitLabel={message ? 'Save changes' : 'Create sub-channel'}
      onSubmit={async (form) => {
        const body = bodyOf(form, message, group.id);
        if (message) await update.mutateAsync({ id: message.id, body });
        else await create.mutateAsync(body);
      }}
      fieldError={(error) => {
        if (error instanceof ApiError && error.status === 404) return 'The content or folder is no longer there. Choose another.';

        return undefined;
      }}
    >
      {(fields, form) => {
        const plays = form.watch('type');
        const choice = (value: string, label: string) => (
          <option key={value} value={value}>
            {label}
          </option>
        );

        return (
          <>
            {fields.text('name', { label: 'Name', autoFocus: true })}
            {message ? (
              <p className="text-sm text-zinc-600">Plays: {EDITABLE_TYPES[type]} (the type of a sub-channel does not change).</p>
            ) : (
              fields.select('type', { label: 'Plays', children: Object.entries(EDITABLE_TYPES).map(([value, label]) => choice(value, label)) })
            )}
            {plays === 'CONTENT'
              ? fields.select('contentId', {
                  label: 'Content',
                  hint: 'The slide, interactive content or playlist it plays.',
                  children: [choice('', '—'), ...(content.data?.content ?? []).map((c) => choice(c.id, c.name ?? ''))],
                })
              : null}
            {plays === 'ASSETS_DYNAMIC'
              ? fields.select('fileFolderId', {
                  label: 'Media folder',
                  hint: 'The media of this folder and the folders below it.',
                  children: [choice('', '—'), ...folderOptions.map((f) => choice(f.id, f.name))],
                })
              : null}
            <div className="grid gap-3 sm:grid-cols-2">
              {fields.text('saturation', { label: 'Items per turn', inputMode: 'numeric', hint: '1 one item, N items, 0 all.' })}
              {fields.text('weight', { label: 'Order', inputMode: 'numeric', hint: 'Lower plays first.' })}
              {fields.text('validFrom', { label: 'First day', type: 'date' })}
              {fields.text('validTo', { label: 'Last day', type: 'date' })}
            </div>
            {fields.checkbox('enabled', { label: 'Enabled' })}
          </>
        );
      }}
    </FormDialog>
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
