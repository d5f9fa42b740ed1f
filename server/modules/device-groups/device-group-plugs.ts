import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/*
 * Where channels and sub-channels tell that they use a device folder (`campaignUsageDetails`,
 * `topLevelCampaignUsageDetails`, `messageUsageDetails`), without this module naming them. Until they exist
 * nothing is plugged in and the fields are `[]`. SQL over the folder row, so a page of folders is still one
 * statement. (`alertCount` comes from the devices module's `deviceAlertSources`: alerts are a device's.)
 */

/** The select-only usage fields of a device folder (spec 3 "Device folder"). */
export type DeviceGroupUsageField = 'campaignUsageDetails' | 'topLevelCampaignUsageDetails' | 'messageUsageDetails';

export type DeviceGroupUsageKind = {
  /** e.g. `campaign`: names the kind. */
  name: string;
  usageField: DeviceGroupUsageField;
  /** A jsonb array of usage entries (`[{id, name}]`) for the folder whose id is the SQL `folderId`; `'[]'::jsonb` when unused. */
  usage: (folderId: SQL) => SQL;
};

export const deviceGroupUsages = definePlugPoint<DeviceGroupUsageKind>('deviceGroupUsages', (k) => `${k.usageField}:${k.name}`);

/** The jsonb array of every plugged usage of `field` for the folder `folderId` (`[]` when none is). */
export function deviceGroupUsageSql(field: DeviceGroupUsageField, folderId: SQL): SQL {
  return lazySql(() => {
    const parts = deviceGroupUsages
      .items()
      .filter((k) => k.usageField === field)
      .map((k) => sql`coalesce(${k.usage(folderId)}, '[]'::jsonb)`);

    return parts.length === 0 ? sql`'[]'::jsonb` : sql.join(parts, sql` || `);
  });
}
