import { sql } from 'drizzle-orm';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { teamAssignmentsField } from '@/server/modules/teams';
import { folderPathField } from '@/server/query/folder-path';
import { defineResource } from '@/server/query/resource';
import { deviceAlertCountBelow } from '@/server/modules/devices';
import { deviceGroupUsageSql, type DeviceGroupUsageField } from './device-group-plugs';
import { deviceGroupTypes } from './device-groups.schemas';

/**
 * Searchable and selectable fields of `deviceGroup` (spec 3 "Device folder").
 * - `deviceGroupPath` is the ids of the ancestors root first, the folder itself last (answered joined by
 *   `/`): `deviceGroupPath:{id}` finds the folder and every folder below it with one GIN-indexed predicate.
 * - `alertCount` (computed) sums the active alerts of the devices in and below the folder (the devices
 *   module's `deviceAlertSources`: 0 until alerts plug in); the usage fields come from device-group-plugs.ts
 *   (`[]` until channels plug in). All four are select-only (spec 1: computed fields only when named).
 */
export const deviceGroupResource = defineResource({
  name: 'deviceGroup',
  table: deviceGroups,
  tenant: (t) => t.customerId,
  fields: (t) => {
    const id = sql`${t.id}`;
    const usage = (field: DeviceGroupUsageField) =>
      ({
        kind: 'scalar',
        type: 'json',
        selectOnly: true,
        searchable: false,
        sortable: false,
        sql: deviceGroupUsageSql(field, id),
      }) as const;

    return {
      id: { kind: 'scalar', type: 'uuid', sql: t.id },
      // The root row stores a placeholder name; the spec answers none for it (as for file and content roots).
      name: { kind: 'scalar', type: 'string', sql: sql`case when ${t.parentId} is null then null else ${t.name} end` },
      customerId: { kind: 'scalar', type: 'integer', sql: t.customerId },
      parentId: { kind: 'scalar', type: 'uuid', sql: t.parentId },
      deviceGroupPath: folderPathField(t.path),
      type: { kind: 'scalar', type: 'enum', enumValues: deviceGroupTypes, sql: t.type },
      videoWallMetaData: { kind: 'scalar', type: 'json', sql: t.videoWallMetaData },
      tags: { kind: 'scalar', type: 'stringArray', sql: t.tags },
      createdDate: { kind: 'scalar', type: 'datetime', sql: t.createdDate },
      alertCount: { kind: 'scalar', type: 'integer', selectOnly: true, sql: deviceAlertCountBelow(id, sql`${t.customerId}`) },
      teamAssignments: teamAssignmentsField('deviceGroup', t.id),
      campaignUsageDetails: usage('campaignUsageDetails'),
      topLevelCampaignUsageDetails: usage('topLevelCampaignUsageDetails'),
      messageUsageDetails: usage('messageUsageDetails'),
    };
  },
});
