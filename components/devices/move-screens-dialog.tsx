'use client';

import { useTranslations } from 'next-intl';
import { DeviceFolderTree } from '@/components/devices/device-folder-tree';
import { MoveDialog } from '@/components/ui/move-dialog';
import { Spinner } from '@/components/ui/spinner';
import type { DeviceGroup } from '@/lib/api/device-groups';

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
  const t = useTranslations('devices.folders');
  const count = ids?.length ?? 0;

  return (
    <MoveDialog
      open={ids !== null}
      onOpenChange={onOpenChange}
      title={t('moveTitle', { count })}
      description={t('moveText', { count })}
      tree={(target, choose) =>
        root ? <DeviceFolderTree root={root} selectedId={target ?? ''} openPath={[]} onSelect={(f) => choose(f.id)} /> : <Spinner />
      }
      onMove={(target) => move(target, ids!)}
    />
  );
}
