import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/**
 * Active alerts of a device (spec 3 `alerts`): the alerts module plugs in where they come from, so the
 * device list computes them in SQL without naming that module. Until it exists, every device has none.
 */
export type DeviceAlertSource = {
  name: string;
  /** A subquery answering one jsonb array of alert objects for the device whose id is the SQL `deviceId`. */
  alerts: (deviceId: SQL) => SQL;
  /**
   * A subquery answering the number of active alerts of the devices of `customerId` in or below the device folder
   * `folderId` (both SQL): counted from the alerts' side, so its cost follows the open alerts, not the devices.
   */
  countBelow: (folderId: SQL, customerId: SQL) => SQL;
};

export const deviceAlertSources = definePlugPoint<DeviceAlertSource>('deviceAlertSources', (s) => s.name);

/** The jsonb array of the device's active alerts over every plugged source (none: `[]`). */
export function deviceAlertsSql(deviceId: SQL): SQL {
  return lazySql(() => {
    const parts = deviceAlertSources.items().map((s) => sql`coalesce((${s.alerts(deviceId)}), '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}

/**
 * The number of active alerts of the devices of `customerId` in or below the device folder `folderId` (both
 * SQL, correlated with the caller's row): a device folder's `alertCount`, summed over every plugged source; the
 * constant 0 while none is plugged in.
 */
export function deviceAlertCountBelow(folderId: SQL, customerId: SQL): SQL {
  return lazySql(() => {
    const parts = deviceAlertSources.items().map((s) => sql`coalesce((${s.countBelow(folderId, customerId)}), 0)`);

    return parts.length === 0 ? sql`0` : sql`(${sql.join(parts, sql` + `)})::int`;
  });
}
