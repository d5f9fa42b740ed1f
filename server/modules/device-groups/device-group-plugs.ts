import { sql, type SQL } from 'drizzle-orm';
import { definePlugPoint, lazySql } from '@/server/plug-point';

/*
 * What other modules tell about a device folder, without this module naming them: the alerts module
 * plugs in where active alerts are counted (`alertCount`), channels and sub-channels where a folder is
 * used (`campaignUsageDetails`, `topLevelCampaignUsageDetails`, `messageUsageDetails`). Until they exist
 * nothing is plugged in: `alertCount` is 0 and the usage fields are `[]`. Both are SQL over the folder row,
 * so a page of folders is still one statement.
 */

export type DeviceGroupAlertSource = {
  name: string;
  /**
   * An integer subquery: the active alerts of the devices in or below the folder whose id is the SQL
   * `folderId` (correlated with the outer row; `device.group_path @> array[folderId]` finds those devices).
   */
  count: (folderId: SQL) => SQL;
};

export const deviceGroupAlertSources = definePlugPoint<DeviceGroupAlertSource>('deviceGroupAlertSources', (s) => s.name);

/** The folder's `alertCount`: the sum over every plugged source (0 when none is). */
export function alertCountSql(folderId: SQL): SQL {
  return lazySql(() => {
    const parts = deviceGroupAlertSources.items().map((s) => sql`coalesce((${s.count(folderId)}), 0)`);

    return parts.length === 0 ? sql`0` : sql`(${sql.join(parts, sql` + `)})::int`;
  });
}

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
