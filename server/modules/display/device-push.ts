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
export type DevicePushKind = 'commands' | 'manifest' | 'assigned' | 'revoked' | 'datasource';
/** `datasourceId`: with kind `datasource`, the datasource whose document changed (spec 5 §2 `datasourceChanged`). */
export type DevicePushNotice = { kind: DevicePushKind; deviceIds: string[]; datasourceId?: string };

/** Whether a notice may mean a new manifest ETag for its devices (not new commands, not new data: a manifest names datasources, not their data). */
export const dropsManifestEtag = (kind: DevicePushKind): boolean => kind !== 'commands' && kind !== 'datasource';

/** Device ids per notification: 36 characters and a separator each keeps a payload under PostgreSQL's 8000 bytes. */
const IDS_PER_NOTICE = 200;

/**
 * Announces news for `deviceIds` to every instance (this one included). Inside a transaction the notices
 * go out when it commits, and not at all if it rolls back. One statement for any number of devices.
 */
export async function notifyDevices(
  db: Executor,
  kind: Exclude<DevicePushKind, 'datasource'>,
  deviceIds: readonly string[],
): Promise<void> {
  if (deviceIds.length === 0) return;
  if (dropsManifestEtag(kind)) dropManifestEtags(db, deviceIds);
  await notifyChannel(db, DEVICE_PUSH_CHANNEL, payloadsOf(kind, deviceIds));
}

/** Announces to `deviceIds` that the document of `datasourceId` changed (`datasource=<id>:<device ids>`). */
export async function notifyDatasourceChanged(db: Executor, datasourceId: string, deviceIds: readonly string[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await notifyChannel(db, DEVICE_PUSH_CHANNEL, payloadsOf(`datasource=${datasourceId}`, deviceIds));
}

function payloadsOf(head: string, deviceIds: readonly string[]): string[] {
  const payloads: string[] = [];
  for (let i = 0; i < deviceIds.length; i += IDS_PER_NOTICE) payloads.push(`${head}:${deviceIds.slice(i, i + IDS_PER_NOTICE).join(',')}`);

  return payloads;
}

const KINDS: readonly string[] = ['commands', 'manifest', 'assigned', 'revoked'] satisfies DevicePushKind[];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads a notice; undefined for anything malformed (another writer on the channel). */
export function parseDevicePush(payload: string): DevicePushNotice | undefined {
  const colon = payload.indexOf(':');
  const head = payload.slice(0, colon);
  const datasourceId = head.startsWith('datasource=') ? head.slice('datasource='.length) : undefined;
  if (colon < 0 || (datasourceId === undefined ? !KINDS.includes(head) : !UUID.test(datasourceId))) return undefined;
  const deviceIds = payload
    .slice(colon + 1)
    .split(',')
    .filter((id) => UUID.test(id));
  if (deviceIds.length === 0) return undefined;

  return datasourceId === undefined ? { kind: head as DevicePushKind, deviceIds } : { kind: 'datasource', deviceIds, datasourceId };
}
