'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { DeleteFolderDialog, NewFolderDialog, RenameFolderDialog, type FolderDialogWords } from '@/components/folders/folder-dialogs';
import type { FolderDialog } from '@/components/folders/use-folder-library';
import { CheckboxField } from '@/components/ui/field';
import { ApiError } from '@/lib/api/client';
import { useCreateContentGroup, useDeleteContentGroup, useRenameContentGroup, type ContentGroup } from '@/lib/api/content-groups';
import type { Translate } from '@/lib/i18n/translate';
import { ContentGroupCreateSchema, ContentGroupRenameSchema } from '@/server/modules/content-groups/content-groups.schemas';

/*
 * The content library's folder dialogs: new, rename, delete. Loaded when one first opens (next/dynamic in
 * content-page.tsx), as the folder library's dialogs are.
 */

const duplicateName = (t: Translate<'content.dialogs'>) => (error: unknown) =>
  error instanceof ApiError && error.key === 'contentGroup.error.duplicateName'
    ? { field: 'name' as const, message: t('duplicateFolderName') }
    : undefined;

/** The content folders' words for the folder dialogs. */
function useFolderWords(): FolderDialogWords {
  const t = useTranslations('content.dialogs');

  return {
    name: t('name'),
    enterName: t('enterName'),
    newTitle: t('newFolder.title'),
    inside: (name) => t('newFolder.inside', { name }),
    create: t('newFolder.submit'),
    renameTitle: t('renameFolder.title'),
    rename: t('renameFolder.submit'),
  };
}

/** A new folder inside `parent`. */
function NewContentFolderDialog({
  parent,
  onOpenChange,
  onCreated,
}: {
  parent: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onCreated: (folder: ContentGroup) => void;
}) {
  const create = useCreateContentGroup();
  const t = useTranslations('content.dialogs');

  return (
    <NewFolderDialog
      parent={parent}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={ContentGroupCreateSchema}
      values={{ name: '', deviceContentType: 'content' as const }}
      create={async (values, parentGroupId) => onCreated(await create.mutateAsync({ parentGroupId, name: values.name }))}
      fieldError={duplicateName(t)}
    />
  );
}

function RenameContentFolderDialog({ folder, onOpenChange }: { folder: ContentGroup | null; onOpenChange: (open: boolean) => void }) {
  const rename = useRenameContentGroup();
  const t = useTranslations('content.dialogs');

  return (
    <RenameFolderDialog
      folder={folder}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={ContentGroupRenameSchema}
      rename={rename.mutateAsync}
      fieldError={duplicateName(t)}
    />
  );
}

/** Deletes a folder; its content moves to the top folder unless the user asks to delete it too. */
function DeleteContentFolderDialog({
  folder,
  onOpenChange,
  onDeleted,
}: {
  folder: ContentGroup | null;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteContentGroup();
  const [removeContents, setRemoveContents] = useState(false);
  const t = useTranslations('content.dialogs.deleteFolder');

  return (
    <DeleteFolderDialog
      folder={folder}
      onOpenChange={(open) => {
        if (!open) setRemoveContents(false);
        onOpenChange(open);
      }}
      title={t('title', { name: folder?.name ?? '' })}
      description={t('description')}
      confirmLabel={t('submit')}
      remove={async () => {
        await remove.mutateAsync({ id: folder!.id, removeContents });
        onDeleted();
      }}
    >
      <CheckboxField
        id="delete-folder-contents"
        label={t('alsoContents')}
        description={removeContents ? t('contentsGo') : t('contentsStay')}
        checked={removeContents}
        onChange={(e) => setRemoveContents(e.target.checked)}
      />
    </DeleteFolderDialog>
  );
}

/** The folder dialog the library has open (`dialog`); `onClose` when it closes. */
export default function ContentFolderDialogs({
  dialog,
  onClose,
  onCreated,
  onDeleted,
}: {
  dialog: FolderDialog<ContentGroup> | null;
  onClose: () => void;
  onCreated: (folder: ContentGroup) => void;
  onDeleted: () => void;
}) {
  const t = useTranslations('content.folders');
  const parent = dialog?.kind === 'new' ? dialog.folder : null;

  return (
    <>
      <NewContentFolderDialog
        parent={parent ? { id: parent.id, name: parent.parentId == null ? t('root') : (parent.name ?? '') } : null}
        onOpenChange={onClose}
        onCreated={onCreated}
      />
      <RenameContentFolderDialog folder={dialog?.kind === 'rename' ? dialog.folder : null} onOpenChange={onClose} />
      <DeleteContentFolderDialog folder={dialog?.kind === 'delete' ? dialog.folder : null} onOpenChange={onClose} onDeleted={onDeleted} />
    </>
  );
}
