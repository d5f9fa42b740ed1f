'use client';

import { useTranslations } from 'next-intl';
import { useCallback } from 'react';
import type { DeviceDragItems } from '@/components/devices/device-drag';
import { isVideoWall } from '@/components/devices/device-folder-tree';
import type { Notice } from '@/components/ui/notice';
import { useMoveDeviceGroup, type DeviceGroup } from '@/lib/api/device-groups';
import { useMoveDevices, type Device } from '@/lib/api/devices';
import { useErrorMessage } from '@/lib/i18n/errors';

/** Moving screens and folders of the screens library: from the move dialog, and dropped on a folder of the tree. */
export function useScreenMoves({
  devices,
  show,
  clearSelection,
}: {
  /** The screens on the page (those already in the target are left out). */
  devices: readonly Device[];
  show: (notice: Notice) => void;
  clearSelection: () => void;
}) {
  const t = useTranslations('devices');
  const errorMessage = useErrorMessage();
  const moveDevices = useMoveDevices();
  const moveFolder = useMoveDeviceGroup();

  /** Moves screens into a folder (those already there are left out); throws what refused the move. */
  const moveScreens = useCallback(
    async (targetId: string, ids: string[], targetName?: string) => {
      const known = new Map(devices.map((d) => [d.id, d]));
      const deviceIds = ids.filter((id) => known.get(id)?.deviceGroup?.id !== targetId);
      if (deviceIds.length === 0) {
        show({ tone: 'info', text: t('list.alreadyThere') });

        return;
      }
      await moveDevices.mutateAsync({ deviceIds, targetGroupId: targetId });
      clearSelection();
      show({
        tone: 'info',
        text: targetName
          ? t('list.movedTo', { count: deviceIds.length, target: targetName })
          : t('list.moved', { count: deviceIds.length }),
      });
    },
    [devices, moveDevices, clearSelection, show, t],
  );
  const dropOn = useCallback(
    (target: DeviceGroup, items: DeviceDragItems) => {
      const targetName = target.parentId ? (target.name ?? t('list.theFolder')) : t('allScreens');
      const run = async () => {
        const folders = items.deviceGroupIds.filter((id) => id !== target.id);
        if (folders.length > 0) {
          // A video wall holds screens only; the API would refuse the folder too (409 deviceGroup.error.videoWall).
          if (isVideoWall(target)) throw new Error(t('list.notIntoVideoWall', { name: targetName }));
          for (const id of folders) await moveFolder.mutateAsync({ id, targetId: target.id });
          show({ tone: 'info', text: t('list.movedFolder', { target: targetName }) });
        }
        if (items.deviceIds.length > 0) await moveScreens(target.id, items.deviceIds, targetName);
      };
      show({ tone: 'info', text: t('list.moving') });
      run().catch((e: unknown) => show({ tone: 'error', text: errorMessage(e) }));
    },
    [moveFolder, moveScreens, show, t, errorMessage],
  );

  return { moveScreens, dropOn };
}
