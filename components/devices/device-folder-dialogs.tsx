'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { DeleteFolderDialog, NewFolderDialog, RenameFolderDialog, type FolderDialogWords } from '@/components/folders/folder-dialogs';
import type { FolderDialog } from '@/components/folders/use-folder-library';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import {
  useCreateDeviceGroup,
  useDeleteDeviceGroup,
  useRenameDeviceGroup,
  type DeviceGroup,
  type OnlineOffline,
} from '@/lib/api/device-groups';
import { DeviceGroupNameSchema, deviceGroupTypes } from '@/server/modules/device-groups/device-groups.schemas';

/** The API's refusal to put a folder into a video wall, said in the form's words. */
/*
 * The screens library's folder dialogs: new (a folder or a video wall), rename, delete (asking where the
 * screens go). Loaded when one first opens (next/dynamic in screens-page.tsx), as the folder library's dialogs are.
 */

const isVideoWallParent = (error: unknown) => error instanceof ApiError && error.key === 'deviceGroup.error.videoWall';

const NewFolderSchema = z.object({ name: DeviceGroupNameSchema, type: z.enum(deviceGroupTypes) });
const RenameFolderSchema = z.object({ name: DeviceGroupNameSchema });

/** The device folders' words for the folder dialogs. */
function useFolderWords(): FolderDialogWords {
  const t = useTranslations('devices');

  return {
    name: t('name'),
    enterName: t('enterName'),
    newTitle: t('folders.newTitle'),
    inside: (name) => t('folders.inside', { name }),
    create: t('folders.create'),
    renameTitle: t('folders.renameTitle'),
    rename: t('folders.rename'),
  };
}

/** A new folder inside `parent`: a normal folder, or a video wall (which holds screens only; its type never changes). */
function NewDeviceFolderDialog({
  parent,
  onOpenChange,
  onCreated,
}: {
  parent: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onCreated: (folder: DeviceGroup) => void;
}) {
  const t = useTranslations('devices');
  const create = useCreateDeviceGroup();

  return (
    <NewFolderDialog
      parent={parent}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={NewFolderSchema}
      values={{ name: '', type: 'NORMAL' as const }}
      create={async (values, parentId) => onCreated(await create.mutateAsync({ parentId, name: values.name, type: values.type }))}
      fieldError={(error) => (isVideoWallParent(error) ? t('folders.notInVideoWall') : undefined)}
      fields={(fields) =>
        fields.select('type', {
          label: t('folders.kind'),
          hint: t('folders.kindHint'),
          children: (
            <>
              <option value="NORMAL">{t('folders.normal')}</option>
              <option value="VIDEO_WALL">{t('videoWall')}</option>
            </>
          ),
        })
      }
    />
  );
}

function RenameDeviceFolderDialog({ folder, onOpenChange }: { folder: DeviceGroup | null; onOpenChange: (open: boolean) => void }) {
  const rename = useRenameDeviceGroup();

  return (
    <RenameFolderDialog
      folder={folder}
      onOpenChange={onOpenChange}
      words={useFolderWords()}
      schema={RenameFolderSchema}
      rename={rename.mutateAsync}
    />
  );
}

/** Deletes a folder with every folder below it, after asking where their screens go (default: its parent). */
function DeleteDeviceFolderDialog({
  folder,
  root,
  screenCount,
  onOpenChange,
  onDeleted,
}: {
  folder: DeviceGroup | null;
  root: DeviceGroup | undefined;
  /** The screens in and below the folder, when known. */
  screenCount: number | undefined;
  onOpenChange: (open: boolean) => void;
  onDeleted: (targetId: string) => void;
}) {
  const t = useTranslations('devices');
  const remove = useDeleteDeviceGroup();
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (folder)
      setTarget(
        folder.parentId ? { id: folder.parentId, name: folder.parentId === root?.id ? t('allScreens') : t('folders.parentFolder') } : null,
      );
  }, [folder, root?.id, t]);

  return (
    <DeleteFolderDialog
      folder={folder}
      onOpenChange={onOpenChange}
      title={t('folders.deleteTitle', { name: folder?.name ?? '' })}
      description={screenCount === undefined ? t('folders.deleteTextUnknown') : t('folders.deleteText', { count: screenCount })}
      confirmLabel={t('folders.deleteConfirm')}
      remove={async () => {
        if (!target) throw new Error(t('folders.chooseTarget'));
        await remove.mutateAsync({ id: folder!.id, targetGroupId: target.id });
        onDeleted(target.id);
      }}
    >
      <p className="text-sm text-zinc-700">
        {t.rich('folders.goTo', {
          name: target?.name ?? '—',
          target: (chunks) => (
            <span className="font-medium" data-testid="delete-folder-target">
              {chunks}
            </span>
          ),
        })}
      </p>
      <div className="max-h-60 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200">
        {root ? (
          <DeviceFolderTree
            root={root}
            selectedId={target?.id ?? ''}
            openPath={[]}
            onSelect={(f) => setTarget({ id: f.id, name: f.parentId ? (f.name ?? t('untitled')) : t('allScreens') })}
          />
        ) : (
          <Spinner />
        )}
      </div>
    </DeleteFolderDialog>
  );
}

/** The folder dialog the library has open (`dialog`); `onClose` when it closes. */
export default function DeviceFolderDialogs({
  dialog,
  onClose,
  root,
  counts,
  onCreated,
  onDeleted,
}: {
  dialog: FolderDialog<DeviceGroup> | null;
  onClose: () => void;
  root: DeviceGroup | undefined;
  /** Online and offline screens in and below each folder, when known. */
  counts: Record<string, OnlineOffline> | undefined;
  onCreated: (folder: DeviceGroup) => void;
  /** The folder deleted; its screens went to `targetId`. */
  onDeleted: (targetId: string) => void;
}) {
  const t = useTranslations('devices');
  const parent = dialog?.kind === 'new' ? dialog.folder : null;
  const deleting = dialog?.kind === 'delete' ? dialog.folder : null;
  const deletingCounts = deleting ? counts?.[deleting.id] : undefined;

  return (
    <>
      <NewDeviceFolderDialog
        parent={parent ? { id: parent.id, name: parent.parentId == null ? t('allScreens') : (parent.name ?? '') } : null}
        onOpenChange={onClose}
        onCreated={onCreated}
      />
      <RenameDeviceFolderDialog folder={dialog?.kind === 'rename' ? dialog.folder : null} onOpenChange={onClose} />
      <DeleteDeviceFolderDialog
        folder={deleting}
        root={root}
        screenCount={deletingCounts ? deletingCounts.onlineCount + deletingCounts.offlineCount : undefined}
        onOpenChange={onClose}
        onDeleted={onDeleted}
      />
    </>
  );
}
