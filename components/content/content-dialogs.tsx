'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import type { ContentDragItems } from '@/components/content/content-drag';
import { ContentFolderTree } from '@/components/content/content-folder-tree';
import { planDeletion } from '@/components/content/deletion-plan';
import { Alert } from '@/components/ui/alert';
import { CheckboxField } from '@/components/ui/field';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { MoveDialog } from '@/components/ui/move-dialog';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { errorMessage } from '@/lib/api/protected';
import { countOf } from '@/lib/format';
import {
  contentResource,
  emptyPlaylist,
  fetchTemplates,
  kindLabel,
  useCreateFromTemplate,
  useCreatePlaylist,
  useCreateSlide,
  fetchForDeletion,
  useDeleteContents,
  useDuplicateContent,
  type DeviceContent,
} from '@/lib/api/content';
import { useCreateContentGroup, useDeleteContentGroup, useRenameContentGroup, type ContentGroup } from '@/lib/api/content-groups';
import { ContentGroupCreateSchema, ContentGroupRenameSchema } from '@/server/modules/content-groups/content-groups.schemas';
import { DuplicateSchema } from '@/server/modules/content/content.schemas';

const duplicateName = (error: unknown) =>
  error instanceof ApiError && error.key === 'contentGroup.error.duplicateName' ? { field: 'name' as const, message: 'A folder here already has this name.' } : undefined;

/** A new folder inside `parent`. */
export function NewContentFolderDialog({ parent, onOpenChange, onCreated }: { parent: { id: string; name: string } | null; onOpenChange: (open: boolean) => void; onCreated: (folder: ContentGroup) => void }) {
  const create = useCreateContentGroup();

  return (
    <FormDialog
      open={parent !== null}
      onOpenChange={onOpenChange}
      title="New folder"
      description={parent ? `Inside ${parent.name}.` : undefined}
      schema={ContentGroupCreateSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: '', deviceContentType: 'content' as const }}
      submitLabel="Create folder"
      onSubmit={async (values) => onCreated(await create.mutateAsync({ parentGroupId: parent!.id, name: values.name }))}
      fieldError={duplicateName}
    >
      {(fields) => fields.text('name', { label: 'Name', autoFocus: true })}
    </FormDialog>
  );
}

export function RenameContentFolderDialog({ folder, onOpenChange }: { folder: ContentGroup | null; onOpenChange: (open: boolean) => void }) {
  const rename = useRenameContentGroup();

  return (
    <FormDialog
      open={folder !== null}
      onOpenChange={onOpenChange}
      title="Rename folder"
      schema={ContentGroupRenameSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: folder?.name ?? '' }}
      submitLabel="Rename"
      onSubmit={(values) => rename.mutateAsync({ id: folder!.id, name: values.name })}
      fieldError={duplicateName}
    >
      {(fields) => fields.text('name', { label: 'Name', autoFocus: true })}
    </FormDialog>
  );
}

/** Deletes a folder; its content moves to the top folder unless the user asks to delete it too. */
export function DeleteContentFolderDialog({ folder, onOpenChange, onDeleted }: { folder: ContentGroup | null; onOpenChange: (open: boolean) => void; onDeleted: () => void }) {
  const remove = useDeleteContentGroup();
  const [removeContents, setRemoveContents] = useState(false);

  return (
    <ConfirmDialog
      open={folder !== null}
      onOpenChange={(open) => {
        if (!open) setRemoveContents(false);
        onOpenChange(open);
      }}
      title={`Delete folder ${folder?.name ?? ''}?`}
      description="The folder and every folder inside it are deleted."
      confirmLabel="Delete folder"
      destructive
      onConfirm={async () => {
        await remove.mutateAsync({ id: folder!.id, removeContents });
        onDeleted();
      }}
    >
      <CheckboxField
        id="delete-folder-contents"
        label="Also delete the playlists and slides inside"
        description={removeContents ? 'They are deleted with the folder.' : 'Unticked: they move to the top folder.'}
        checked={removeContents}
        onChange={(e) => setRemoveContents(e.target.checked)}
      />
    </ConfirmDialog>
  );
}

const RESOLUTIONS = [
  { value: '1920x1080', label: 'Landscape, Full HD (1920 × 1080)' },
  { value: '1080x1920', label: 'Portrait, Full HD (1080 × 1920)' },
  { value: '3840x2160', label: 'Landscape, 4K (3840 × 2160)' },
  { value: '2160x3840', label: 'Portrait, 4K (2160 × 3840)' },
  { value: '1280x720', label: 'Landscape, HD (1280 × 720)' },
] as const;

const NewPlaylistSchema = DuplicateSchema.extend({ resolution: z.enum(RESOLUTIONS.map((r) => r.value) as ['1920x1080']) });

export function NewPlaylistDialog({ open, folderId, onOpenChange, onCreated }: { open: boolean; folderId: string; onOpenChange: (open: boolean) => void; onCreated: (item: DeviceContent) => void }) {
  const create = useCreatePlaylist();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New playlist"
      description="Images, videos, slides and other playlists, one after another."
      schema={NewPlaylistSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: '', resolution: '1920x1080' as const }}
      submitLabel="Create playlist"
      onSubmit={async (values) => {
        const [width, height] = values.resolution.split('x').map(Number) as [number, number];
        onCreated(await create.mutateAsync({ contentGroupId: folderId, name: values.name, data: emptyPlaylist(width, height) }));
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.select('resolution', {
            label: 'Screen',
            hint: 'The shape of the screens it plays on.',
            children: RESOLUTIONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            )),
          })}
        </>
      )}
    </FormDialog>
  );
}

const BLANK = [
  { value: 'blank-landscape', label: 'Blank, landscape (1920 × 1080)', size: { width: 1920, height: 1080 }, structureType: 'SLIDE' },
  { value: 'blank-portrait', label: 'Blank, portrait (1080 × 1920)', size: { width: 1080, height: 1920 }, structureType: 'SLIDE' },
  { value: 'interactive-landscape', label: 'Interactive, landscape: pages viewers tap through', size: { width: 1920, height: 1080 }, structureType: 'COMPLEX' },
  { value: 'interactive-portrait', label: 'Interactive, portrait: pages viewers tap through', size: { width: 1080, height: 1920 }, structureType: 'COMPLEX' },
] as const;

const NewSlideSchema = DuplicateSchema.extend({ template: z.string().min(1) });

/** A new slide: blank, or from a starter template. */
export function NewSlideDialog({ open, folderId, onOpenChange, onCreated }: { open: boolean; folderId: string; onOpenChange: (open: boolean) => void; onCreated: (item: DeviceContent) => void }) {
  const templates = useQuery({ queryKey: ['content', 'templates'], queryFn: ({ signal }) => fetchTemplates(signal), enabled: open, staleTime: 5 * 60_000 });
  const createBlank = useCreateSlide();
  const fromTemplate = useCreateFromTemplate();

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New slide"
      description="Start blank or from a template."
      schema={NewSlideSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: '', template: 'blank-landscape' }}
      submitLabel="Create slide"
      onSubmit={async (values) => {
        const blank = BLANK.find((b) => b.value === values.template);
        const item = blank
          ? await createBlank.mutateAsync({
              contentGroupId: folderId,
              name: values.name,
              structureType: blank.structureType,
              data: { pages: [{ name: blank.structureType === 'COMPLEX' ? 'Home' : 'Default', tags: [], pageStyle: { backgroundColor: '#111827' }, pageData: { screenSize: blank.size }, widgets: [] }] },
            })
          : await fromTemplate.mutateAsync({ templateId: values.template, contentGroupId: folderId, name: values.name });
        onCreated(item);
      }}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.select('template', {
            label: 'Start from',
            hint: 'Templates come with example text and colours to make your own.',
            children: (
              <>
                {BLANK.map((b) => (
                  <option key={b.value} value={b.value}>
                    {b.label}
                  </option>
                ))}
                {(templates.data?.content ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    Template: {t.name}
                  </option>
                ))}
              </>
            ),
          })}
        </>
      )}
    </FormDialog>
  );
}

export function DuplicateContentDialog({ item, onOpenChange }: { item: DeviceContent | null; onOpenChange: (open: boolean) => void }) {
  const duplicate = useDuplicateContent();

  return (
    <FormDialog
      open={item !== null}
      onOpenChange={onOpenChange}
      title={`Copy ${item ? kindLabel(item).toLowerCase() : ''}`}
      description="The copy lands in the same folder."
      schema={DuplicateSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: item ? `${item.name} (copy)`.slice(0, 255) : '' }}
      submitLabel="Make a copy"
      onSubmit={(values) => duplicate.mutateAsync({ item: item!, name: values.name })}
    >
      {(fields) => fields.text('name', { label: 'Name of the copy', autoFocus: true })}
    </FormDialog>
  );
}

/**
 * Deletes the selected items after showing where each is embedded: items other content embeds (outside the
 * selection), locked and read-only ones are listed and kept; the rest are deleted, embedders first.
 */
export function DeleteContentDialog({ ids, onOpenChange, onDeleted }: { ids: string[] | null; onOpenChange: (open: boolean) => void; onDeleted?: (ids: string[]) => void }) {
  const customerId = contentResource.useScope();
  const remove = useDeleteContents();
  const [done, setDone] = useState<number | null>(null);
  const checks = useQuery({
    queryKey: [...contentResource.keys.lists(), 'for-deletion', { customerId, ids }],
    queryFn: ({ signal }) => fetchForDeletion(ids!, customerId, signal),
    enabled: ids !== null && ids.length > 0,
    staleTime: 0,
  });
  const plan = checks.data ? planDeletion(checks.data.content) : null;
  const single = ids?.length === 1;
  const first = checks.data?.content[0];
  const embeddedIn = single ? (first?.usageDetails ?? []) : [];
  const count = ids?.length ?? 0;

  return (
    <ConfirmDialog
      open={ids !== null}
      onOpenChange={(open) => {
        if (!open) setDone(null);
        onOpenChange(open);
      }}
      title={single ? `Delete ${first ? `${kindLabel(first).toLowerCase()} ${first.name ?? ''}` : 'item'}?` : `Delete ${countOf(count, ITEMS)}?`}
      description="Screens that show them stop showing them. This cannot be undone."
      confirmLabel={plan && plan.order.length > 0 && plan.order.length !== count ? `Delete ${plan.order.length} of ${count}` : 'Delete'}
      destructive
      onConfirm={async () => {
        if (!plan) throw new Error('Still checking where they are used.');
        if (plan.order.length === 0) throw new Error(single && plan.blocked[0] ? plan.blocked[0].reason : 'None of these items can be deleted.');
        setDone(0);
        try {
          await remove(plan.order, setDone);
        } finally {
          setDone(null);
        }
        onDeleted?.(plan.order.map((i) => i.id));
      }}
    >
      {checks.isError ? <Alert>{errorMessage(checks.error)}</Alert> : null}
      {checks.isPending && ids ? (
        <p className="flex items-center gap-2 text-sm text-zinc-500" role="status">
          <Spinner /> Checking where {single ? 'it is' : 'they are'} used…
        </p>
      ) : null}
      {embeddedIn.length > 0 ? (
        <div className="text-sm text-zinc-700" data-testid="content-usage">
          <p className="font-medium">It is embedded in:</p>
          <ul className="mt-1 list-disc pl-5">
            {embeddedIn.map((u) => (
              <li key={u.id}>{u.name}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan && plan.blocked.length > 0 ? (
        <Alert title={single ? 'It cannot be deleted.' : `${plan.blocked.length} of them cannot be deleted and are kept:`}>
          <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="content-delete-blocked">
            {plan.blocked.map((b) => (
              <li key={b.item.id}>
                {single ? null : <span className="font-medium">{b.item.name}: </span>}
                {b.reason}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {plan && plan.blocked.length === 0 ? <p className="text-sm text-zinc-600">{single ? 'No other content embeds it.' : 'No other content embeds them.'}</p> : null}
      {done !== null && plan ? (
        <p className="flex items-center gap-2 text-sm text-zinc-600" role="status">
          <Spinner /> Deleted {done} of {plan.order.length}…
        </p>
      ) : null}
    </ConfirmDialog>
  );
}

const ITEMS = { one: 'item', other: 'items' };

/** Picks a content folder and moves the selection there (locked items stay; `move` says what happened). */
export function MoveContentDialog({ items, root, onOpenChange, move }: { items: ContentDragItems | null; root: ContentGroup | undefined; onOpenChange: (open: boolean) => void; move: (targetId: string, items: ContentDragItems) => Promise<unknown> }) {
  const count = (items?.contentIds.length ?? 0) + (items?.contentGroupIds.length ?? 0);

  return (
    <MoveDialog
      open={items !== null}
      onOpenChange={onOpenChange}
      title={`Move ${countOf(count, ITEMS)}`}
      description={`Choose the folder to move ${count === 1 ? 'it' : 'them'} into.`}
      tree={(target, choose) => (root ? <ContentFolderTree root={root} selectedId={target ?? ''} openPath={[]} onSelect={(f) => choose(f.id)} /> : <Spinner />)}
      onMove={(target) => move(target, items!)}
    />
  );
}
