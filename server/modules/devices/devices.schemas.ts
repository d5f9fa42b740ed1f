import { z } from '@hono/zod-openapi';
import { epochMs, ianaTimeZone, intId, resourceName } from '@/server/http/wire.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { clearable, updateBody } from '@/server/http/update-body';
import { projected } from '@/server/query/projection.schemas';
import { selectTeamIdsParam } from '@/server/modules/teams/teams.schemas';
import { licenseStatuses, licenseTypes } from '@/server/modules/licences/licences.schemas';

/*
 * Wire shapes of devices (spec 3 "Device", "Devices and device folders"). No server imports: the console
 * imports these for forms and types.
 */

export const deviceTypes = ['TABLET', 'PHONE', 'SCREEN', 'DESKTOP', 'EINK', 'PWA'] as const;
export const devicePlatforms = [
  'PLATFORM_1',
  'PLATFORM_2',
  'PLATFORM_3',
  'PLATFORM_4',
  'PLATFORM_5',
  'PLATFORM_6',
  'UNKNOWN',
  'BROWSER',
] as const;
export const deviceStatuses = ['ONLINE', 'OFFLINE'] as const;
// The licence names are the licences module's (orders grant them, devices hold them).
export { licenseStatuses, licenseTypes };

const ref = z.object({ id: z.string().uuid().optional(), name: z.string().optional() });

export const DeviceSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional(),
    comment: z.string().optional(),
    customerId: intId.optional().openapi({ description: 'Absent while the device is not claimed' }),
    customer: z.object({ id: intId.optional(), name: z.string().optional() }).optional().openapi({
      description:
        "The device's tenant, on `select` (e.g. `select=name,customer`): the tenant column of a list across tenants; sortable as `customer.name`",
    }),
    deviceGroupId: z.string().uuid().optional(),
    deviceGroup: ref.optional(),
    deviceGroupPath: z
      .string()
      .optional()
      .openapi({ description: "Device folder ids from the root down to the device's folder, joined by `/`" }),
    deviceStatus: z.enum(deviceStatuses).optional(),
    lastDeviceStatusChange: z.string().optional(),
    emergencyStatus: z.boolean().optional(),
    tags: z.array(z.string()).optional(),
    type: z.enum(deviceTypes).optional(),
    platform: z.enum(devicePlatforms).optional(),
    serial: z.string().optional(),
    version: z.string().optional(),
    firmwareVersion: z.string().optional(),
    nativeResolutionWidth: z.number().int().optional(),
    nativeResolutionHeight: z.number().int().optional(),
    localIpAddress: z.string().optional(),
    nativeOrientation: z.string().optional(),
    webViewOrientation: z.string().optional(),
    previewPath: z.string().optional().openapi({ description: 'Computed: the newest screenshot, with cache-busting' }),
    lastActivity: z.string().optional(),
    licenseStatus: z.enum(licenseStatuses).optional(),
    licenseOrderId: intId.optional(),
    licenseType: z.enum(licenseTypes).optional(),
    timeZone: z.string().optional(),
    deviceInfo: z.unknown().optional().openapi({ description: 'Select-only (large): what the player reports about itself' }),
    contentId: z.string().uuid().optional().openapi({ description: 'The id of `content` (searchable, e.g. `contentId=…`)' }),
    content: ref.optional(),
    emergencyContentId: z.string().uuid().optional().openapi({ description: 'The id of `emergencyContent`' }),
    emergencyContent: ref.optional(),
    alerts: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'Select-only: active alerts' }),
    activationCode: z.string().optional().openapi({ description: 'The 4-digit code an unclaimed device shows' }),
    createdDate: z.string().optional(),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
  }),
).openapi('Device');

export const DeviceListQueryExtension = {
  quickFilterId: z.string().uuid().optional().openapi({ format: 'uuid', description: 'A DEVICE quick filter, ANDed with `search`' }),
  includeReadOnlyInfo: booleanQuery('Adds `readOnly` to each device'),
  includeResourcesWithoutTeam: booleanQuery('Also list devices assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

/** PUT /api/device/{id}: what a technician edits on a claimed device. */
export const DeviceUpdateSchema = updateBody('DeviceUpdate', {
  name: resourceName,
  comment: clearable(z.string().max(4_000)),
  timeZone: ianaTimeZone,
});

/** POST /api/v2/device/move. */
export const DeviceMoveSchema = z
  .object({ deviceIds: z.array(z.string().uuid()).min(1).max(1_000), targetGroupId: z.string().uuid() })
  .openapi('DeviceMove');

export const DeviceTagListSchema = tagListOf(500).openapi('DeviceTagList');

/** One screenshot of `previewStore`, newest first. */
export const DevicePreviewSchema = z
  .object({
    id: z.string().uuid(),
    takenAt: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    highRes: z.boolean(),
    path: z.string(),
  })
  .openapi('DevicePreview');

export type Device = z.infer<typeof DeviceSchema>;
export type DeviceUpdate = z.infer<typeof DeviceUpdateSchema>;
export type DevicePreview = z.infer<typeof DevicePreviewSchema>;

/** Device metric types (spec 3 "Device metric types"), in the spec's order. */
export const deviceMetricTypes = [
  'CPU',
  'CPU_LOAD_1',
  'CPU_LOAD_5',
  'CPU_TEMP',
  'GPU',
  'GPU_TEMP',
  'GPU_MEM',
  'FPS',
  'USED_SYS_MEM',
  'USED_VM_MEM',
  'USED_APP_MEM',
  'USED_STORAGE',
  'FILE_COUNT',
  'U_FILE_COUNT',
  'NET_APP_RX',
  'NET_APP_TX',
  'NET_SYS_RX',
  'NET_SYS_TX',
  'NET_APP_SERVER_RX',
  'NET_APP_SERVER_TX',
  'REQ_COUNT',
  'SERVER_AVG_REQ',
  'SERVER_PING',
  'WIFI_SIGNAL_DBM',
  'WIFI_SIGNAL_LEVEL',
  'NET_INTERNET_CONNECTION',
  'BATTERY',
  'NUMBER_OF_THREADS',
  'NUMBER_OF_PROCESSES',
  'GC_COUNT',
  'GC_RUN_AVG',
  'LOG_INFO',
  'LOG_WARN',
  'LOG_ERROR',
  'STARTUP_COUNT',
  'CRASH_COUNT',
  'WEB_VIEW_CRASH_COUNT',
  'ANR_COUNT',
  'SYSTEM_ERROR_COUNT',
  'FRONTEND_PROCESS_CRASH_COUNT',
  'SENSOR_EVENT_COUNT',
  'USER_INTERACTION_COUNT',
  'STATUS',
  'RECONNECT',
] as const;
export type DeviceMetricType = (typeof deviceMetricTypes)[number];

/** Buckets a metric graph has at most (spec 1 "Limits": graph data points, default 50). */
export const MAX_DATA_POINTS = 1000;

export const GraphRequestSchema = z
  .object({ metricTypes: z.array(z.enum(deviceMetricTypes)).min(1).max(deviceMetricTypes.length) })
  .openapi('DeviceGraphRequest', { description: 'An unknown metric type is a 400' });

const GraphSchema = z.object({
  values: z
    .record(z.string(), z.number())
    .openapi({ description: 'Bucket start (epoch ms) → the average of its samples; buckets without samples are left out' }),
  avg: z.number().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  sum: z.number(),
  count: z.number().int(),
  noDataIntervals: z.array(z.object({ from: epochMs, to: epochMs })),
});

export const GraphResponseSchema = z.object({ graphs: z.record(z.string(), GraphSchema) }).openapi('DeviceGraphs');
export type DeviceGraphs = z.infer<typeof GraphResponseSchema>;
