import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import type { DeviceRow } from './display.queries';
import * as q from './display.queries';

export type DeviceStatus = DeviceRow['deviceStatus'];

/**
 * The one place a device's `deviceStatus` changes (spec 4 §3 "Online and offline"): the heartbeat calls it
 * with ONLINE, and so will the WebSocket on open and the offline sweep with OFFLINE. A change sets
 * `lastDeviceStatusChange` and adds a `device_status_change` row (what alert rules read) in one
 * transaction; setting the status the device already has writes nothing. Answers whether it changed.
 */
export async function changeDeviceStatus(db: Executor, input: { deviceId: string; status: DeviceStatus }): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const changed = await q.setDeviceStatus(tx, input.deviceId, input.status);
    if (!changed) return false;
    await q.insertStatusChange(tx, { deviceId: input.deviceId, customerId: changed.customerId, status: input.status });

    return true;
  });
}
