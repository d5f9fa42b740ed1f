import type { Logger } from 'pino';
import type { DeviceCaller } from '@/server/context/actor';
import type { Database } from '@/server/db/client';
import { definePlugPoint } from '@/server/plug-point';
import { hashToken } from './opaque-token';

/** Who a live (unexpired) device access token stands for, as its stored rows say. */
export type DeviceCallerRecord = {
  deviceId: string;
  deviceName: string;
  customerId: number | null;
  customerName: string | null;
  /** The device's customer is restricted: every call of the device answers 401 (spec 4 §1). */
  customerRestricted: boolean;
  /** The device's last recorded activity is older than a minute (or absent). */
  activityDue: boolean;
};

/**
 * Where devices and their tokens live: the player-API module implements it (its manifest plugs it in), so
 * authentication names no module table.
 */
export type DeviceDirectory = {
  byTokenHash: (db: Database, tokenHash: string) => Promise<DeviceCallerRecord | undefined>;
  /** Records a call as the device's `lastActivity` (a no-op within the minute). */
  recordActivity: (db: Database, deviceId: string) => Promise<void>;
};

export const deviceDirectories = definePlugPoint<DeviceDirectory>('deviceDirectory', () => 'deviceDirectory');

/**
 * `activity`: the write of the device's `lastActivity` when due, already running beside the request (it never
 * rejects); the caller awaits it before the response leaves, so no write outlives the request.
 */
export type DeviceAuthentication = { caller: DeviceCaller; activity?: Promise<void> } | { refused: 'unknown' | 'customerRestricted' };

/**
 * Resolves a device access token (spec 4 §2) to the calling device. Only device tokens are looked up here,
 * so a user's token is as unknown to the player API as a device token is to every other route. No cache:
 * a device calls about once a minute, and deleting the device (its tokens go with it) or restricting its
 * customer must stop it at once, on every instance.
 */
export async function authenticateDeviceToken(db: Database, token: string, log: Pick<Logger, 'warn'>): Promise<DeviceAuthentication> {
  if (token.length < 20 || token.length > 200) return { refused: 'unknown' };
  const directory = deviceDirectories.items()[0];
  if (!directory) throw new Error('No device directory is installed (the display module plugs it in)');
  const row = await directory.byTokenHash(db, hashToken(token));
  if (!row) return { refused: 'unknown' };
  if (row.customerRestricted) return { refused: 'customerRestricted' };
  const caller = { deviceId: row.deviceId, deviceName: row.deviceName, customerId: row.customerId, customerName: row.customerName };
  if (!row.activityDue) return { caller };
  const activity = directory
    .recordActivity(db, row.deviceId)
    .catch((error: unknown) => log.warn({ err: error, deviceId: row.deviceId }, 'recording device activity failed'));

  return { caller, activity };
}
