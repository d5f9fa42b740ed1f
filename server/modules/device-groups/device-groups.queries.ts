import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArray } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { defineFolderTree, inSubtrees } from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';

export type DeviceGroupRow = typeof deviceGroups.$inferSelect;

/** The device folder tree (server/modules/folders/folder-tree.ts): devices copy their folder's path (`group_path`). */
export const deviceGroupTree = defineFolderTree({
  type: 'deviceGroup',
  label: 'device folder',
  table: deviceGroups,
  items: [{ table: devices, customerId: devices.customerId, path: devices.groupPath }],
  rootCreationSetting: customers.deviceCreationInRootForTeamUsers,
});

export async function insertDeviceGroup(db: Executor, values: typeof deviceGroups.$inferInsert): Promise<DeviceGroupRow> {
  const [row] = await db.insert(deviceGroups).values(values).returning();

  return row!;
}

export async function updateDeviceGroupRow(
  db: Executor,
  customerId: number,
  id: string,
  values: Partial<Pick<DeviceGroupRow, 'name' | 'tags' | 'videoWallMetaData'>>,
): Promise<void> {
  await db
    .update(deviceGroups)
    .set(values)
    .where(and(eq(deviceGroups.id, id), eq(deviceGroups.customerId, customerId)));
}

export async function findDeviceGroupById(db: Executor, customerId: number, id: string): Promise<DeviceGroupRow | undefined> {
  const [row] = await db
    .select()
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, customerId), eq(deviceGroups.id, id)))
    .limit(1);

  return row;
}

/**
 * Locks folder `folderId` and every folder below it until the transaction ends: a device put into one of
 * them meanwhile (its foreign key takes a share lock on the folder) waits, so a delete never finds a device
 * it has not moved out.
 */
export async function lockDeviceGroupSubtree(db: Executor, customerId: number, folderId: string): Promise<void> {
  await db.execute(
    sql`select 1 from ${deviceGroups} where ${deviceGroups.customerId} = ${customerId} and ${inSubtrees(deviceGroups.path, [folderId])} for update`,
  );
}

/** Puts every device in or below folder `folderId` directly into `target`; answers how many moved. One statement. */
export async function moveDevicesOutOf(
  db: Executor,
  input: { customerId: number; folderId: string; target: { id: string; path: readonly string[] } },
): Promise<number> {
  const [row] = await execRows(
    db,
    sql`with m as (update ${devices} set ${sql.identifier('device_group_id')} = ${input.target.id}::uuid, ${sql.identifier('group_path')} = ${uuidArray(input.target.path)}
      where ${devices.customerId} = ${input.customerId} and ${inSubtrees(devices.groupPath, [input.folderId])} returning 1) select count(*)::int as n from m`,
  );

  return Number(row?.n ?? 0);
}

/**
 * For every folder matching `folders` (a condition over `device_group`): the online and offline devices in
 * or below it that satisfy `visibleDevice` (a condition over `device`). One statement: the devices under any
 * matching folder are found through the GIN index on `group_path`, each counted once for every folder on its
 * path, and the folders with no device answer zeros.
 */
export async function countDeviceStatusBelow(db: Executor, input: { folders: SQL; visibleDevice: SQL | undefined }) {
  const rows = await execRows(
    db,
    sql`with g as (select ${deviceGroups.id} as id, ${deviceGroups.customerId} as customer_id from ${deviceGroups} where ${input.folders}),
      c as (
        select u.gid,
          count(*) filter (where ${devices.deviceStatus} = 'ONLINE')::int as online,
          count(*) filter (where ${devices.deviceStatus} = 'OFFLINE')::int as offline
        from ${devices} cross join lateral unnest(${devices.groupPath}) as u(gid)
        where ${devices.customerId} in (select customer_id from g)
          and ${devices.groupPath} && (select coalesce(array_agg(id), array[]::uuid[]) from g)
          and ${input.visibleDevice ?? sql`true`}
        group by u.gid
      )
      select g.id, coalesce(c.online, 0) as online, coalesce(c.offline, 0) as offline from g left join c on c.gid = g.id`,
  );

  return rows.map((r) => ({ id: String(r.id), onlineCount: Number(r.online), offlineCount: Number(r.offline) }));
}
