import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray, uuidArrayParam, uuidEquals } from '@/server/db/sql';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { textArray } from '@/server/modules/tags';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { deviceContents } from '@/server/modules/content/content.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { deviceCommands, devicePreviews, devices, deviceStatusChanges, type DeviceRow } from './devices.table';

export async function insertDevice(db: Executor, values: typeof devices.$inferInsert): Promise<DeviceRow> {
  const [row] = await db.insert(devices).values(values).returning();

  return row!;
}

export type DeviceChanges = Partial<Pick<DeviceRow, 'name' | 'comment' | 'timeZone' | 'tags'>>;

export async function updateDevice(db: Executor, customerId: number, id: string, values: DeviceChanges): Promise<void> {
  await db
    .update(devices)
    .set(values)
    .where(and(eq(devices.id, id), eq(devices.customerId, customerId)));
}

/** One device of `where` with whether the caller sees it and reads it only; row-locked for the transaction. */
export async function findDeviceForWrite(db: Executor, input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL }) {
  const [found] = await db
    .select({ row: devices, visible: sql<boolean>`${input.visible ?? sql`true`}`, readOnly: sql<boolean>`${input.readOnly}` })
    .from(devices)
    .where(input.where)
    .limit(1)
    .for('update', { of: devices });

  return found;
}

/**
 * Deletes one device with its team assignments (tokens, commands, samples and previews go by cascade);
 * its screenshots' blobs are queued for the cleanup job in the same transaction.
 */
export async function deleteDevice(db: Executor, customerId: number, id: string): Promise<void> {
  await queuePreviewBlobs(db, sql`${devicePreviews.deviceId} = ${id}::uuid`, 'device deleted');
  await db
    .delete(teamAssignments)
    .where(and(eq(teamAssignments.customerId, customerId), eq(teamAssignments.resourceType, 'device'), eq(teamAssignments.resourceId, id)));
  await db.delete(devices).where(and(eq(devices.id, id), eq(devices.customerId, customerId)));
}

/**
 * A device folder of `where` with whether the caller sees it and reads it only, share-locked: a folder move
 * (which rewrites the path the devices copy) waits for the devices put into it, or they wait for it and read
 * its new path.
 */
export async function findDeviceGroupForWrite(db: Executor, input: { where: SQL | undefined; visible: SQL | undefined; readOnly: SQL }) {
  const [found] = await db
    .select({
      id: deviceGroups.id,
      customerId: deviceGroups.customerId,
      name: deviceGroups.name,
      path: deviceGroups.path,
      visible: sql<boolean>`${input.visible ?? sql`true`}`,
      readOnly: sql<boolean>`${input.readOnly}`,
    })
    .from(deviceGroups)
    .where(input.where)
    .limit(1)
    .for('share');

  return found;
}

/**
 * The devices among `ids` of `customerId` that `writable` (visibility and team writability) allows,
 * row-locked, with their current folder.
 */
export async function findDevicesForMove(db: Executor, customerId: number, ids: readonly string[], writable: SQL | undefined) {
  return execRows<{ id: string; name: string; device_group_id: string | null }>(
    db,
    sql`select ${devices.id} as id, ${devices.name} as name, ${devices.deviceGroupId} as device_group_id from ${devices}
      where ${devices.customerId} = ${customerId} and ${devices.id} = any(${uuidArray(ids)}) and ${writable ?? sql`true`}
      order by ${devices.id} for update of ${devices}`,
  );
}

/** The devices among `ids` (uuids) of `customerId`, each with whether the caller sees it and whether it may only read it. */
export async function findDevicesAccess(
  db: Executor,
  input: { customerId: number; ids: readonly string[]; visible: SQL | undefined; readOnly: SQL },
): Promise<{ id: string; visible: boolean; readOnly: boolean }[]> {
  return execRows<{ id: string; visible: boolean; readOnly: boolean }>(
    db,
    sql`select ${devices.id} as id, ${input.visible ?? sql`true`} as visible, ${input.readOnly} as "readOnly" from ${devices}
      where ${devices.customerId} = ${input.customerId} and ${devices.id} = any(${uuidArrayParam(input.ids)})`,
  );
}

/** The device folders among `ids` (uuids) of `customerId` that `visible` lets the caller see. */
export async function findVisibleDeviceGroups(
  db: Executor,
  input: { customerId: number; ids: readonly string[]; visible: SQL | undefined },
): Promise<string[]> {
  const rows = await execRows<{ id: string }>(
    db,
    sql`select ${deviceGroups.id} as id from ${deviceGroups}
      where ${deviceGroups.customerId} = ${input.customerId} and ${deviceGroups.id} = any(${uuidArrayParam(input.ids)}) and ${input.visible ?? sql`true`}`,
  );

  return rows.map((r) => r.id);
}

/** Puts the devices in the folder (its id and materialised path) in one statement. */
export async function moveDevicesTo(
  db: Executor,
  customerId: number,
  ids: readonly string[],
  folder: { id: string; path: string[] },
): Promise<void> {
  await db.execute(sql`update ${devices} set ${sql.identifier('device_group_id')} = ${folder.id}::uuid, ${sql.identifier('group_path')} = ${uuidArray(folder.path)}
    where ${devices.customerId} = ${customerId} and ${devices.id} = any(${uuidArray(ids)})`);
}

export async function anyDeviceMatches(db: Executor, where: SQL): Promise<boolean> {
  const rows = await execRows(db, sql`select 1 from ${devices} where ${where} limit 1`);

  return rows.length > 0;
}

/** The id of a content item (slide, interactive content or playlist) of `customerId`, if it is one. */
export async function contentOfCustomer(db: Executor, customerId: number, id: string): Promise<string | undefined> {
  const rows = await execRows<{ id: string }>(
    db,
    sql`select ${deviceContents.id} as id from ${deviceContents} where ${deviceContents.customerId} = ${customerId} and ${uuidEquals(deviceContents.id, id)}`,
  );

  return rows[0]?.id;
}

/** One UPDATE of the target devices; answers their ids. */
export async function updateTargetDevices(db: Executor, set: SQL, where: SQL): Promise<string[]> {
  const rows = await execRows<{ id: string }>(db, sql`update ${devices} set ${set} where ${where} returning ${devices.id} as id`);

  return rows.map((r) => r.id);
}

/** A command for each target device in one INSERT … SELECT; answers the devices' ids. */
export async function issueCommands(
  db: Executor,
  input: { where: SQL; name: string; params: Record<string, unknown>; expiresAt: Date },
): Promise<string[]> {
  const rows = await execRows<{ device_id: string }>(
    db,
    sql`insert into ${deviceCommands} (${sql.identifier('id')}, ${sql.identifier('device_id')}, ${sql.identifier('customer_id')}, ${sql.identifier('name')}, ${sql.identifier('params')}, ${sql.identifier('expires_at')})
      select gen_random_uuid(), ${devices.id}, ${devices.customerId}, ${input.name}, ${JSON.stringify(input.params)}::jsonb, ${input.expiresAt.toISOString()}::timestamptz
      from ${devices} where ${input.where}
      returning ${sql.identifier('device_id')}`,
  );

  return rows.map((r) => r.device_id);
}

/**
 * Marks OFFLINE every ONLINE device last seen more than 2.5 × its heartbeat interval before `now`, and
 * records each transition, in one statement. Answers the devices that went offline.
 */
export async function markSilentDevicesOffline(db: Executor, now: Date): Promise<Array<{ id: string; customerId: number | null }>> {
  const rows = await execRows<{ id: string; customer_id: string | number | null }>(
    db,
    sql`with silent as (
        update ${devices} set ${sql.identifier('device_status')} = 'OFFLINE', ${sql.identifier('last_device_status_change')} = ${now.toISOString()}::timestamptz
        where ${devices.deviceStatus} = 'ONLINE'
          and ${devices.lastSeen} < ${now.toISOString()}::timestamptz - make_interval(secs => ${devices.heartbeatSeconds} * 2.5)
        returning ${devices.id} as id, ${devices.customerId} as customer_id
      ), recorded as (
        insert into ${deviceStatusChanges} (${sql.identifier('device_id')}, ${sql.identifier('customer_id')}, ${sql.identifier('status')}, ${sql.identifier('changed_at')})
        select id, customer_id, 'OFFLINE', ${now.toISOString()}::timestamptz from silent
      )
      select id, customer_id from silent`,
  );

  return rows.map((r) => ({ id: r.id, customerId: r.customer_id === null ? null : Number(r.customer_id) }));
}

/** A command as the console reads it: the history and the settings. */
export type CommandHistoryRow = {
  id: string;
  name: string;
  params: Record<string, unknown>;
  issuedAt: Date;
  expiresAt: Date;
  deliveredAt: Date | null;
  acknowledgedAt: Date | null;
  ok: boolean | null;
  error: string | null;
};

type CommandHistoryWire = {
  id: string;
  name: string;
  params: Record<string, unknown>;
  issued_at: Date | string;
  expires_at: Date | string;
  delivered_at: Date | string | null;
  acknowledged_at: Date | string | null;
  ok: boolean | null;
  error: string | null;
};

const historyColumns = sql`${deviceCommands.id} as id, ${deviceCommands.name} as name, ${deviceCommands.params} as params,
  ${deviceCommands.issuedAt} as issued_at, ${deviceCommands.expiresAt} as expires_at, ${deviceCommands.deliveredAt} as delivered_at,
  ${deviceCommands.acknowledgedAt} as acknowledged_at, ${deviceCommands.ok} as ok, ${deviceCommands.error} as error`;

const at = (v: Date | string) => new Date(v);
const historyRow = (r: CommandHistoryWire): CommandHistoryRow => ({
  id: r.id,
  name: r.name,
  params: r.params,
  issuedAt: at(r.issued_at),
  expiresAt: at(r.expires_at),
  deliveredAt: r.delivered_at === null ? null : at(r.delivered_at),
  acknowledgedAt: r.acknowledged_at === null ? null : at(r.acknowledged_at),
  ok: r.ok,
  error: r.error,
});

/**
 * A device's newest `limit` commands, newest first, through device_command_device_name_idx (device, name, issued):
 * the names the device was sent, one index probe each (a skip scan), the newest `limit` of each name, and of those
 * the newest `limit`. It reads at most names × `limit` rows however long the history is. An index on (device,
 * issued) alone would serve it more directly, but every command a batch issues and every acknowledgement (a new row
 * version) paid for one more index entry (docs/decisions/performance.md).
 */
export async function findCommandHistory(db: Executor, deviceId: string, limit: number): Promise<CommandHistoryRow[]> {
  const c = deviceCommands;
  const rows = await execRows<CommandHistoryWire>(
    db,
    sql`with recursive names(name) as (
        (select ${c.name} from ${c} where ${c.deviceId} = ${deviceId}::uuid order by ${c.name} limit 1)
        union all
        select (select ${c.name} from ${c} where ${c.deviceId} = ${deviceId}::uuid and ${c.name} > names.name order by ${c.name} limit 1)
        from names where names.name is not null
      )
      select newest.* from names
      cross join lateral (
        select ${historyColumns} from ${c} where ${c.deviceId} = ${deviceId}::uuid and ${c.name} = names.name
        order by ${c.issuedAt} desc, ${c.id} desc limit ${limit}
      ) newest
      order by newest.issued_at desc, newest.id desc limit ${limit}`,
  );

  return rows.map(historyRow);
}

/** The state a device's commands set: its manifest settings and emergency status. */
export async function findDeviceState(
  db: Executor,
  deviceId: string,
): Promise<{ settings: Record<string, unknown>; emergencyStatus: boolean } | undefined> {
  const [row] = await db
    .select({ settings: devices.settings, emergencyStatus: devices.emergencyStatus })
    .from(devices)
    .where(eq(devices.id, deviceId))
    .limit(1);

  return row;
}

/** The newest command of each of `names` the device was sent (none for a name never sent): one index probe per name. */
export async function findNewestCommands(db: Executor, deviceId: string, names: readonly string[]): Promise<CommandHistoryRow[]> {
  const c = deviceCommands;
  const rows = await execRows<CommandHistoryWire>(
    db,
    sql`select newest.* from unnest(${textArray([...names])}) as wanted(name)
      cross join lateral (
        select ${historyColumns} from ${c} where ${c.deviceId} = ${deviceId}::uuid and ${c.name} = wanted.name
        order by ${c.issuedAt} desc, ${c.id} desc limit 1
      ) newest`,
  );

  return rows.map(historyRow);
}

// --- screenshots (device_preview) and metric samples -----------------------------------------------

export type DevicePreviewRow = typeof devicePreviews.$inferSelect;

/** Queues the blobs of the previews matching `where` for removal now (job `storage.cleanup`). */
async function queuePreviewBlobs(db: Executor, where: SQL, reason: string): Promise<void> {
  await db.execute(sql`insert into ${blobCleanup} (${sql.identifier('key')}, ${sql.identifier('not_before')}, ${sql.identifier('reason')})
    select ${devicePreviews.storageKey}, now(), ${reason} from ${devicePreviews} where ${where}
    on conflict (${sql.identifier('key')}) do update set ${sql.identifier('not_before')} = excluded.not_before, ${sql.identifier('reason')} = excluded.reason`);
}

/** A new newest screenshot: its row, and the device's preview time (previewPath) set to its time. */
export async function insertDevicePreview(db: Executor, values: typeof devicePreviews.$inferInsert & { takenAt: Date }): Promise<boolean> {
  const [device] = await db
    .update(devices)
    .set({ previewUpdatedAt: values.takenAt })
    .where(and(eq(devices.id, values.deviceId), eq(devices.customerId, values.customerId!)))
    .returning({ id: devices.id });
  if (!device) return false;
  await db.insert(devicePreviews).values(values);

  return true;
}

/**
 * Keeps the newest `keep` screenshots of a device: deletes the older rows and queues their blobs for
 * removal in the same transaction; answers the queued keys (the caller may remove them at once).
 */
export async function pruneDevicePreviews(db: Executor, deviceId: string, keep: number): Promise<string[]> {
  const older = sql`${devicePreviews.id} in (select ${devicePreviews.id} from ${devicePreviews} where ${devicePreviews.deviceId} = ${deviceId}::uuid
    order by ${devicePreviews.takenAt} desc, ${devicePreviews.id} desc offset ${keep})`;
  await queuePreviewBlobs(db, older, 'preview history');
  const rows = await execRows<{ key: string }>(
    db,
    sql`delete from ${devicePreviews} where ${older} returning ${devicePreviews.storageKey} as key`,
  );

  return rows.map((r) => r.key);
}

/** A device's screenshots, newest first. */
export async function findDevicePreviews(db: Executor, customerId: number, deviceId: string, limit: number): Promise<DevicePreviewRow[]> {
  return db
    .select()
    .from(devicePreviews)
    .where(and(eq(devicePreviews.customerId, customerId), eq(devicePreviews.deviceId, deviceId)))
    .orderBy(desc(devicePreviews.takenAt), desc(devicePreviews.id))
    .limit(limit);
}

/** One screenshot of a device (`previewId`), or its newest. */
export async function findDevicePreview(
  db: Executor,
  customerId: number,
  deviceId: string,
  previewId?: string,
): Promise<DevicePreviewRow | undefined> {
  const [row] = await db
    .select()
    .from(devicePreviews)
    .where(
      and(
        eq(devicePreviews.customerId, customerId),
        eq(devicePreviews.deviceId, deviceId),
        previewId === undefined ? undefined : uuidEquals(devicePreviews.id, previewId),
      ),
    )
    .orderBy(desc(devicePreviews.takenAt), desc(devicePreviews.id))
    .limit(1);

  return row;
}

/** The customer's devices using one of its free licences (FREE; index device_customer_free_licence_idx). */
export async function countFreeLicenceDevices(db: Executor, customerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(devices)
    .where(and(eq(devices.customerId, customerId), eq(devices.licenseStatus, 'FREE')));

  return row?.n ?? 0;
}

/**
 * Commands of every tenant not acknowledged and not expired (the metrics' `signage_device_commands_pending`): a scan
 * of the partial index of unacknowledged commands, whose rows are the pending ones and the expired leftovers.
 */
export async function countPendingCommands(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(deviceCommands)
    .where(and(sql`${deviceCommands.acknowledgedAt} is null`, sql`${deviceCommands.expiresAt} > now()`));

  return row?.n ?? 0;
}
