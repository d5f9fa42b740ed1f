import { sql, type SQL } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { hashToken } from '@/server/auth/opaque-token';
import type { Database } from '@/server/db/client';
import { devicePreviewBlobKey } from '@/server/storage/keys';
import { contentAssignments } from '@/server/modules/content';
import { findRootDeviceGroup } from '@/server/modules/folders';
import { customerStatistics } from '@/server/tenant/customer-statistics';
import { licenseAssignments } from '@/server/modules/licences';
import { defineModule, plug } from '@/server/modules/module';
import { criteriaCompilers } from '@/server/modules/quick-filters';
import { tagSources } from '@/server/modules/tags';
import { teamResources } from '@/server/modules/teams';
import { deviceCriteriaCompiler } from './device-criteria';
import { connectedDeviceCountSql } from './device-session-count';
import { registerDeviceRoutes } from './devices.handlers';
import { deleteOldMetricSamples, METRIC_RETENTION_JOB, OFFLINE_SWEEP_JOB, runOfflineSweeps } from './devices.jobs';
import { insertDevice, insertDevicePreview } from './devices.queries';
import {
  deviceAccessTokens,
  deviceCommands,
  deviceMetricSamples,
  devicePreviews,
  devices,
  deviceSessions,
  deviceSocketTickets,
  deviceStatusChanges,
} from './devices.table';

/** The devices showing content `contentId` as their assigned or emergency content, with whether each is online. */
function devicesShowing(contentId: SQL): SQL {
  return sql`select ${devices.id} as device_id, ${devices.deviceStatus} = 'ONLINE' as online from ${devices}
    where ${devices.contentId} = ${contentId} or ${devices.emergencyContentId} = ${contentId}`;
}

async function sweepDevice(db: Database, customerId: number): Promise<string> {
  const root = await findRootDeviceGroup(db, customerId);
  if (!root) throw new Error(`customer ${customerId} has no root device folder`);

  return (
    await insertDevice(db, {
      id: uuidv7(),
      customerId,
      deviceGroupId: root.id,
      groupPath: root.path,
      name: 'sweep',
      secretHash: hashToken(uuidv7()),
    })
  ).id;
}

/**
 * Screens (spec 3 "Device", spec 4): the management API (list, read, update, move, delete, tags), DEVICE
 * quick filters, the content they show (content assignment counts), their tables. The player protocol is
 * the display module.
 */
export const devicesModule = defineModule({
  name: 'devices',
  routes: registerDeviceRoutes,
  jobs: ({ db, log }) => [
    { name: OFFLINE_SWEEP_JOB, cron: '* * * * *', run: (_data, stopping) => runOfflineSweeps(db, { log, stopping }) },
    { name: METRIC_RETENTION_JOB, cron: '23 3 * * *', run: async () => void (await deleteOldMetricSamples(db, new Date(), log)) },
  ],
  tables: [
    devices,
    deviceStatusChanges,
    deviceCommands,
    deviceMetricSamples,
    devicePreviews,
    deviceAccessTokens,
    deviceSocketTickets,
    deviceSessions,
  ],
  plugs: [
    plug(teamResources, { type: 'device', table: devices, idColumn: devices.id, customerIdColumn: devices.customerId }),
    plug(tagSources, { name: 'device', tagType: 'DEVICE', table: devices, tagsColumn: devices.tags, customerIdColumn: devices.customerId }),
    plug(criteriaCompilers, deviceCriteriaCompiler),
    plug(contentAssignments, { name: 'device', devices: devicesShowing }),
    // An order's `assignedDeviceCount` and its in-use check count the devices naming it; the licence dashboard counts them by customer and status.
    plug(licenseAssignments, {
      name: 'device',
      table: devices,
      orderIdColumn: devices.licenseOrderId,
      customerIdColumn: devices.customerId,
      licenseStatusColumn: devices.licenseStatus,
      // As the display module's session limit counts: distinct devices with a running socket lease.
      connectedCount: (customerId) => connectedDeviceCountSql(customerId),
    }),
    plug(
      customerStatistics,
      // Spec 3: `activeLicenses` are the customer's devices holding a licence of an order (licences in use); `lastDeviceActivity` its devices' newest call.
      {
        statistic: 'activeLicenses',
        sql: (customerId) =>
          sql`(select count(*) from ${devices} where ${devices.customerId} = ${customerId} and ${devices.licenseOrderId} is not null)`,
      },
      {
        statistic: 'lastDeviceActivity',
        sql: (customerId) => sql`(select max(${devices.lastActivity}) from ${devices} where ${devices.customerId} = ${customerId})`,
      },
    ),
  ],
  sweep: {
    device: sweepDevice,
    // A screenshot row of a device of the customer (no blob: the route must answer 404 before it looks).
    devicePreview: async (db, customerId) => {
      const deviceId = await sweepDevice(db, customerId);
      const id = uuidv7();
      await insertDevicePreview(db, {
        id,
        deviceId,
        customerId,
        storageKey: devicePreviewBlobKey(customerId, deviceId, id),
        contentType: 'image/png',
        size: 1,
        takenAt: new Date(),
      });

      return id;
    },
  },
});
