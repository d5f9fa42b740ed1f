import { z } from '@hono/zod-openapi';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { clearable, updateBody } from '@/server/http/update-body';
import { projected } from '@/server/query/projection.schemas';

/*
 * Wire shapes of devices (spec 3 "Device", "Devices and device folders"). No server imports: the console
 * imports these for forms and types.
 */

export const deviceTypes = ['TABLET', 'PHONE', 'SCREEN', 'DESKTOP', 'EINK', 'PWA'] as const;
export const devicePlatforms = ['PLATFORM_1', 'PLATFORM_2', 'PLATFORM_3', 'PLATFORM_4', 'PLATFORM_5', 'PLATFORM_6', 'UNKNOWN', 'BROWSER'] as const;
export const deviceStatuses = ['ONLINE', 'OFFLINE'] as const;
export const licenseStatuses = ['UN_LICENSED', 'FREE', 'LICENSED', 'TRIAL'] as const;
export const licenseTypes = ['BASIC', 'PROFESSIONAL', 'DBA', 'ENTERPRISE', 'VIDEO_WALL'] as const;

/** An IANA time zone this runtime knows (`Europe/Berlin`, `UTC`). */
export const ianaTimeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });

      return zone.length > 0;
    } catch {
      return false;
    }
  }, 'An IANA time zone such as Europe/Berlin')
  .openapi({ example: 'Europe/Berlin' });

const ref = z.object({ id: z.string().uuid().optional(), name: z.string().optional() });

export const DeviceSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional(),
    comment: z.string().optional(),
    customerId: z.number().int().optional().openapi({ description: 'Absent while the device is not claimed' }),
    deviceGroupId: z.string().uuid().optional(),
    deviceGroup: ref.optional(),
    deviceGroupPath: z.string().optional().openapi({ description: 'Device folder ids from the root down to the device\'s folder, joined by `/`' }),
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
    licenseOrderId: z.number().int().optional(),
    licenseType: z.enum(licenseTypes).optional(),
    timeZone: z.string().optional(),
    deviceInfo: z.unknown().optional().openapi({ description: 'Select-only (large): what the player reports about itself' }),
    content: ref.optional(),
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
  selectTeamIds: z.string().optional().openapi({ description: 'Comma-separated team ids; empty means all teams' }),
};

const deviceName = z.string().trim().min(1).max(255);

/** PUT /api/device/{id}: what a technician edits on a claimed device. */
export const DeviceUpdateSchema = updateBody('DeviceUpdate', {
  name: deviceName,
  comment: clearable(z.string().max(4_000)),
  timeZone: ianaTimeZone,
});

/** POST /api/v2/device/move. */
export const DeviceMoveSchema = z
  .object({ deviceIds: z.array(z.string().uuid()).min(1).max(1_000), targetGroupId: z.string().uuid() })
  .openapi('DeviceMove');

export const DeviceTagListSchema = z.array(z.string()).max(500).openapi('DeviceTagList');

/** One screenshot of `previewStore`, newest first. */
export const DevicePreviewSchema = z
  .object({ id: z.string().uuid(), takenAt: z.string(), contentType: z.string(), size: z.number().int(), highRes: z.boolean(), path: z.string() })
  .openapi('DevicePreview');

export type Device = z.infer<typeof DeviceSchema>;
export type DeviceUpdate = z.infer<typeof DeviceUpdateSchema>;
export type DevicePreview = z.infer<typeof DevicePreviewSchema>;
