import type { Executor } from '@/server/db/client';
import { notifyChannel } from '@/server/db/notification-feed';
import { dropManifestEtags } from './manifest-etag-store';

/** The NOTIFY channel that carries news for connected devices between server instances. */
export const DEVICE_PUSH_CHANNEL = 'device_push';

/**
 * What a device may need to hear about (spec 4 §3 "WebSocket frames"): new commands, a manifest that may
 * have changed, its claim, or that it must go (deleted, customer restricted). The notification names devices
 * only; the instance holding a device's connection reads the rest (commands, ETag) from the database, so a
 * notification is small, and a missed one costs nothing but latency (the device's next heartbeat).
 */
export type DevicePushKind = 'commands' | 'manifest' | 'assigned' | 'revoked';
export type DevicePushNotice = { kind: DevicePushKind; deviceIds: string[] };

/** Whether a notice may mean a new manifest ETag for its devices (all but new commands). */
export const dropsManifestEtag = (kind: DevicePushKind): boolean => kind !== 'commands';

/** Device ids per notification: 36 characters and a separator each keeps a payload under PostgreSQL's 8000 bytes. */
const IDS_PER_NOTICE = 200;

/**
 * Announces news for `deviceIds` to every instance (this one included). Inside a transaction the notices
 * go out when it commits, and not at all if it rolls back. One statement for any number of devices.
 */
export async function notifyDevices(db: Executor, kind: DevicePushKind, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  if (dropsManifestEtag(kind)) dropManifestEtags(db, deviceIds);
  const payloads: string[] = [];
  for (let i = 0; i < deviceIds.length; i += IDS_PER_NOTICE) payloads.push(`${kind}:${deviceIds.slice(i, i + IDS_PER_NOTICE).join(',')}`);
  await notifyChannel(db, DEVICE_PUSH_CHANNEL, payloads);
}

const KINDS: readonly string[] = ['commands', 'manifest', 'assigned', 'revoked'] satisfies DevicePushKind[];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a notice; undefined for anything malformed (another writer on the channel). */
export function parseDevicePush(payload: string): DevicePushNotice | undefined {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon);
  if (colon < 0 || !KINDS.includes(kind)) return undefined;
  const deviceIds = payload
    .slice(colon + 1)
    .split(',')
    .filter((id) => UUID.test(id));

  return deviceIds.length > 0 ? { kind: kind as DevicePushKind, deviceIds } : undefined;
}
