'use client';

import { useTranslations } from 'next-intl';
import { EditScreenDialog } from '@/components/devices/edit-screen-dialog';
import type { ScreenAction } from '@/components/devices/screen-columns';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useDeleteDevice, useDeviceCommand } from '@/lib/api/devices';

/** What a screen's row menu opens: editing it, restarting it, deleting it (each confirmed). */
export function ScreenActionDialogs({ action, onClose }: { action: ScreenAction | null; onClose: () => void }) {
  const t = useTranslations('devices');
  const command = useDeviceCommand();
  const remove = useDeleteDevice();
  const onOpenChange = (open: boolean) => !open && onClose();

  return (
    <>
      <EditScreenDialog device={action?.kind === 'edit' ? action.device : null} onOpenChange={onOpenChange} />
      <ConfirmDialog
        open={action?.kind === 'restart'}
        onOpenChange={onOpenChange}
        title={t('list.restartTitle', { name: action?.device.name ?? '' })}
        description={t('list.restartText')}
        confirmLabel={t('restart')}
        onConfirm={async () => {
          await command.mutateAsync({ name: 'restart', ids: [action!.device.id] });
        }}
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        onOpenChange={onOpenChange}
        title={t('list.deleteTitle', { name: action?.device.name ?? '' })}
        description={t('list.deleteText')}
        confirmLabel={t('delete')}
        destructive
        onConfirm={async () => {
          await remove.mutateAsync(action!.device.id);
        }}
      />
    </>
  );
}
