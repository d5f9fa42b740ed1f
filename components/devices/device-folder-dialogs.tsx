'use client';

import { useEffect, useState } from 'react';
import { z } from 'zod';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormDialog } from '@/components/ui/form-dialog';
import { MoveDialog } from '@/components/ui/move-dialog';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api/client';
import { useCreateDeviceGroup, useDeleteDeviceGroup, useRenameDeviceGroup, type DeviceGroup } from '@/lib/api/device-groups';
import { countOf } from '@/lib/format';
import { DeviceGroupNameSchema, deviceGroupTypes } from '@/server/modules/device-groups/device-groups.schemas';

const SCREENS = { one: 'screen', other: 'screens' };

/** The API's refusal to put a folder into a video wall, said in the form's words. */
const videoWallParent = (error: unknown) =>
  error instanceof ApiError && error.key === 'deviceGroup.error.videoWall' ? 'A video wall holds screens only: create the folder elsewhere.' : undefined;

const NewFolderSchema = z.object({ name: DeviceGroupNameSchema, type: z.enum(deviceGroupTypes) });

/** A new folder inside `parent`: a normal folder, or a video wall (which holds screens only; its type never changes). */
export function NewDeviceFolderDialog({
  parent,
  onOpenChange,
  onCreated,
}: {
  parent: { id: string; name: string } | null;
  onOpenChange: (open: boolean) => void;
  onCreated: (folder: DeviceGroup) => void;
}) {
  const create = useCreateDeviceGroup();

  return (
    <FormDialog
      open={parent !== null}
      onOpenChange={onOpenChange}
      title="New folder"
      description={parent ? `Inside ${parent.name}.` : undefined}
      schema={NewFolderSchema}
      required={{ name: 'Enter a name' }}
      values={{ name: '', type: 'NORMAL' as const }}
      submitLabel="Create folder"
      onSubmit={async (values) => onCreated(await create.mutateAsync({ parentId: parent!.id, name: values.name, type: values.type }))}
      fieldError={videoWallParent}
    >
      {(fields) => (
        <>
          {fields.text('name', { label: 'Name', autoFocus: true })}
          {fields.select('type', {
            label: 'Kind',
            hint: 'A video wall holds screens that show one picture together; it takes no folders. The kind cannot change later.',
            children: (
              <>
                <option value="NORMAL">Folder</option>
                <option value="VIDEO_WALL">Video wall</option>
              </>
            ),
          })}
        </>
      )}
    </FormDialog>
  );
}

export function RenameDeviceFolderDialog({ folder, onOpenChange }: { folder: DeviceGroup | null; onOpenChange: (open: boolean) => void }) {
  const rename = useRenameDeviceGroup();

  return (
    <FormDialog
      open={folder !== null}
      onOpenChange={onOpenChange}
      title="Rename folder"
      schema={z.object({ name: DeviceGroupNameSchema })}
      required={{ name: 'Enter a name' }}
      values={{ name: folder?.name ?? '' }}
      submitLabel="Rename"
      onSubmit={(values) => rename.mutateAsync({ id: folder!.id, name: values.name })}
    >
      {(fields) => fields.text('name', { label: 'Name', autoFocus: true })}
    </FormDialog>
  );
}

/** Deletes a folder with every folder below it, after asking where their screens go (default: its parent). */
export function DeleteDeviceFolderDialog({
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
  const remove = useDeleteDeviceGroup();
  const [target, setTarget] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    if (folder) setTarget(folder.parentId ? { id: folder.parentId, name: folder.parentId === root?.id ? 'All screens' : 'its parent folder' } : null);
  }, [folder, root?.id]);
  const screens = screenCount === undefined ? 'Its screens' : screenCount === 0 ? 'It holds no screens; any that arrive meanwhile' : `Its ${countOf(screenCount, SCREENS)}`;

  return (
    <ConfirmDialog
      open={folder !== null}
      onOpenChange={onOpenChange}
      title={`Delete folder ${folder?.name ?? ''}?`}
      description={`The folder and every folder inside it are deleted. ${screens} ${screenCount === 1 ? 'moves' : 'move'} to the folder chosen below.`}
      confirmLabel="Delete folder"
      destructive
      onConfirm={async () => {
        if (!target) throw new Error('Choose where the screens go.');
        await remove.mutateAsync({ id: folder!.id, targetGroupId: target.id });
        onDeleted(target.id);
      }}
    >
      <p className="text-sm text-zinc-700">
        Screens go to: <span className="font-medium" data-testid="delete-folder-target">{target?.name ?? '—'}</span>
      </p>
      <div className="max-h-60 overflow-y-auto rounded-md p-1 ring-1 ring-zinc-200">
        {root ? (
          <DeviceFolderTree
            root={root}
            selectedId={target?.id ?? ''}
            openPath={[]}
            onSelect={(f) => setTarget({ id: f.id, name: f.parentId ? (f.name ?? 'Untitled') : 'All screens' })}
          />
        ) : (
          <Spinner />
        )}
      </div>
    </ConfirmDialog>
  );
}

/** Picks a device folder and moves the screens there. */
export function MoveScreensDialog({
  ids,
  root,
  onOpenChange,
  move,
}: {
  ids: string[] | null;
  root: DeviceGroup | undefined;
  onOpenChange: (open: boolean) => void;
  move: (targetId: string, ids: string[]) => Promise<unknown>;
}) {
  const count = ids?.length ?? 0;

  return (
    <MoveDialog
      open={ids !== null}
      onOpenChange={onOpenChange}
      title={`Move ${countOf(count, SCREENS)}`}
      description={`Choose the folder to move ${count === 1 ? 'it' : 'them'} into.`}
      tree={(target, choose) => (root ? <DeviceFolderTree root={root} selectedId={target ?? ''} openPath={[]} onSelect={(f) => choose(f.id)} /> : <Spinner />)}
      onMove={(target) => move(target, ids!)}
    />
  );
}
