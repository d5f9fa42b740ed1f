import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * The screens that show content: each module that assigns content to devices (devices themselves, device
 * folders, schedules) plugs in the devices it assigns, so `assignedDeviceCount` and
 * `getDeviceOnlineOfflineRatio` are computed in SQL without naming a module. Until screens exist nothing
 * is plugged in and both count zero.
 */
export type ContentAssignmentKind = {
  name: string;
  /**
   * A subquery of `(device_id uuid, online boolean)` rows: the devices this kind assigns the content whose
   * id is the SQL `contentId` (correlated with the outer row) to.
   */
  devices: (contentId: SQL) => SQL;
};

export const contentAssignments = definePlugPoint<ContentAssignmentKind>('contentAssignments', (k) => k.name);

/** Every `(device_id, online)` row that shows the content `contentId`, over every plugged kind (none: no rows). */
export function assignedDevicesSql(contentId: SQL): SQL {
  return lazySql(() => {
    const parts = contentAssignments.items().map((k) => sql`(${k.devices(contentId)})`);

    return parts.length === 0 ? sql`select null::uuid as device_id, false as online where false` : sql.join(parts, sql` union `);
  });
}
