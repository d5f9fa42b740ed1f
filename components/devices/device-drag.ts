import { dragChannel, idList } from '@/components/ui/drag';

/** The drag payload of screens (rows, cards) and device folders, dropped on a device folder to move them there. */
export type DeviceDragItems = { deviceIds: string[]; deviceGroupIds: string[] };

export const deviceDrag = dragChannel<DeviceDragItems>('application/x-signage-devices', (raw) => ({
  deviceIds: idList(raw.deviceIds),
  deviceGroupIds: idList(raw.deviceGroupIds),
}));
