import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { defineFolderItems, defineFolderTree } from '@/server/modules/folders';
import { deviceGroups } from '@/server/modules/folders/folders.table';

export type DeviceGroupRow = typeof deviceGroups.$inferSelect;

/** The devices in device folders: `device_group_id` names their folder, `group_path` copies the folder's path. */
export const deviceFolderItems = defineFolderItems({
  table: devices,
  type: 'device',
  id: devices.id,
  customerId: devices.customerId,
  folderId: devices.deviceGroupId,
  path: devices.groupPath,
});

/**
 * The device folder tree (server/modules/folders/folder-tree.ts). Its row queries (insert, update, by id, the
 * subtree lock, moving the devices out of a subtree) are the folders module's (folders.queries.ts), called with
 * `deviceGroups` and `deviceFolderItems`; the device folders' own query is below.
 */
export const deviceGroupTree = defineFolderTree({
  type: 'deviceGroup',
  label: 'device folder',
  table: deviceGroups,
  items: [deviceFolderItems],
  rootCreationSetting: customers.deviceCreationInRootForTeamUsers,
});

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
