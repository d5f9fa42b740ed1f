'use client';

import { useTranslations } from 'next-intl';
import { z } from 'zod';
import {
  DeleteFolderDialog as SharedDeleteFolderDialog,
  NewFolderDialog as SharedNewFolderDialog,
  RenameFolderDialog as SharedRenameFolderDialog,
  type FolderDialogWords,
} from '@/components/folders/folder-dialogs';
import type { FolderDialog } from '@/components/folders/use-folder-library';
import { Alert } from '@/components/ui/alert';
import { useCreateFolder, useDeleteFolder, useRenameFolder, type FileFolder } from '@/lib/api/file-folders';
import { useFilesBelowCount } from '@/lib/api/files';
import { FolderNameSchema } from '@/server/modules/file-folders/file-folders.schemas';

/*
 * The media library's folder dialogs: new, rename, delete. Loaded when one first opens (next/dynamic in
 * media-page.tsx): they are on FormDialog, whose form library the media page's first load does not need.
 */

/** The media folders' words for the folder dialogs. */
function useFolderWords(): FolderDialogWords {
  const t = useTranslations('media.dialogs');

  return {
    name: t('folderName'),
    enterName: t('enterName'),
    newTitle: t('newFolder'),
    create: t('createFolder'),
    renameTitle: t('renameFolder'),
    rename: t('rename'),
  };
}

const FolderNameForm = z.object({ name: FolderNameSchema });

function NewFolderDialog({
  parentId,
  open,
  onOpenChange,
  onCreated,
}: {
  parentId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated?: (folder: FileFolder) => void;
}) {
  const create = useCreateFolder();

  return (
    <SharedNewFolderDialog
      parent={open ? { id: parentId, name: '' } : null}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={FolderNameForm}
      values={{ name: '' }}
      create={async (values, parent) => onCreated?.(await create.mutateAsync({ parentId: parent, name: values.name }))}
    />
  );
}

function RenameFolderDialog({ folder, onOpenChange }: { folder: FileFolder | null; onOpenChange: (open: boolean) => void }) {
  const rename = useRenameFolder();

  return (
    <SharedRenameFolderDialog
      folder={folder}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={FolderNameForm}
      rename={rename.mutateAsync}
    />
  );
}

function DeleteFolderDialog({
  folder,
  onOpenChange,
  onDeleted,
}: {
  folder: FileFolder | null;
  onOpenChange: (open: boolean) => void;
  onDeleted: (folder: FileFolder) => void;
}) {
  const remove = useDeleteFolder();
  const below = useFilesBelowCount(folder?.id);
  const count = below.data ?? 0;
  const t = useTranslations('media.dialogs');

  return (
    <SharedDeleteFolderDialog
      folder={folder}
      onOpenChange={onOpenChange}
      title={t('deleteFolderTitle', { name: folder?.name ?? '' })}
      description={t('deleteFolderText')}
      confirmLabel={t('deleteFolder')}
      remove={async () => {
        await remove.mutateAsync({ id: folder!.id, removeFromPlaylists: true });
        onDeleted(folder!);
      }}
    >
      {count > 0 ? <Alert tone="info">{t('filesDeletedWith', { count })}</Alert> : null}
    </SharedDeleteFolderDialog>
  );
}

/** The folder dialog the library has open (`dialog`); `onClose` when it closes. */
export default function FileFolderDialogs({
  dialog,
  onClose,
  onCreated,
  onDeleted,
}: {
  dialog: FolderDialog<FileFolder> | null;
  onClose: () => void;
  onCreated: (folder: FileFolder) => void;
  onDeleted: (folder: FileFolder) => void;
}) {
  const onOpenChange = (open: boolean) => !open && onClose();

  return (
    <>
      <NewFolderDialog
        parentId={dialog?.kind === 'new' ? dialog.folder.id : ''}
        open={dialog?.kind === 'new'}
        onOpenChange={onOpenChange}
        onCreated={onCreated}
      />
      <RenameFolderDialog folder={dialog?.kind === 'rename' ? dialog.folder : null} onOpenChange={onOpenChange} />
      <DeleteFolderDialog folder={dialog?.kind === 'delete' ? dialog.folder : null} onOpenChange={onOpenChange} onDeleted={onDeleted} />
    </>
  );
}
