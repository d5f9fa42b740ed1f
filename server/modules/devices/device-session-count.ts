import { sql, type SQL } from 'drizzle-orm';
import { deviceSessions } from './devices.table';

/**
 * The customer's devices connected right now: distinct devices with a running socket lease (`device_session`), but
 * `exceptDeviceId`. The one count of the session limit (display module) and the licence dashboard, so the two agree.
 */
export function connectedDeviceCountSql(customerId: SQL, exceptDeviceId?: SQL): SQL {
  const s = deviceSessions;
  const except = exceptDeviceId ? sql` and ${s.deviceId} <> ${exceptDeviceId}` : sql``;

  return sql`(select count(distinct ${s.deviceId})::int from ${s} where ${s.customerId} = ${customerId} and ${s.leaseUntil} > now()${except})`;
}
