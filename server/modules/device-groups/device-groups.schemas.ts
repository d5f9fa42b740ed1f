import { z } from '@hono/zod-openapi';
import { intId, resourceName } from '@/server/http/wire.schemas';
import { tagListOf } from '@/server/modules/tags/tags.schemas';
import { booleanQuery } from '@/server/http/query-params.schemas';
import { clearable, updateBody } from '@/server/http/update-body';
import { projected } from '@/server/query/projection.schemas';
import { selectTeamIdsParam } from '@/server/modules/teams/teams.schemas';

/*
 * Wire shapes of device folders (spec 3 "Device folder (deviceGroup)" and the deviceGroup endpoints,
 * DECISIONS §6 for the list and single reads). No server imports: the console reuses these for forms and types.
 */

export const deviceGroupTypes = ['NORMAL', 'VIDEO_WALL'] as const;

export const DeviceGroupNameSchema = resourceName;

/** Free-form JSON describing a video wall (layout, screen order, …); a JSON object. */
const VideoWallMetaDataSchema = z
  .record(z.string(), z.unknown())
  .openapi({ description: 'Free-form JSON object; only on VIDEO_WALL folders' });

const usageDetails = (what: string) =>
  z
    .array(z.unknown())
    .optional()
    .openapi({ description: `${what} using the folder (select-only; \`[]\` until ${what.toLowerCase()} exist)` });

export const DeviceGroupSchema = projected(
  z.object({
    id: z.string().uuid(),
    name: z.string().optional().openapi({ description: 'Absent on the root folder' }),
    customerId: intId.optional(),
    parentId: z.string().uuid().optional().openapi({ description: 'Absent (null) for the root' }),
    deviceGroupPath: z.string().optional().openapi({
      description:
        'Folder ids from the root down to this folder, joined by `/`; search `deviceGroupPath:{id}` finds the folder and every folder below it',
    }),
    type: z
      .enum(deviceGroupTypes)
      .optional()
      .openapi({ description: '`NORMAL`, or `VIDEO_WALL` (set at creation, immutable; holds devices only)' }),
    videoWallMetaData: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Free-form JSON of a video-wall folder' }),
    tags: z.array(z.string()).optional().openapi({ description: 'Device tags of the folder' }),
    createdDate: z.string().optional(),
    alertCount: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Active alerts of the devices in and below the folder (computed, select-only)' }),
    readOnly: z.boolean().optional().openapi({ description: 'With `includeReadOnlyInfo=true`' }),
    campaignUsageDetails: usageDetails('Channels'),
    topLevelCampaignUsageDetails: usageDetails('Schedules'),
    messageUsageDetails: usageDetails('Sub-channels'),
  }),
).openapi('DeviceGroup');

export const DeviceGroupListQueryExtension = {
  includeReadOnlyInfo: booleanQuery('Adds `readOnly` (the caller may only read the item through its teams) to each item'),
  includeResourcesWithoutTeam: booleanQuery('Also list folders assigned to no team'),
  selectTeamIds: selectTeamIdsParam,
};

/** POST /api/deviceGroup/{parentId}: `{name, type?}` (and the video wall's data). */
export const DeviceGroupCreateSchema = z
  .object({
    name: DeviceGroupNameSchema,
    type: z
      .enum(deviceGroupTypes)
      .optional()
      .default('NORMAL')
      .openapi({ description: '`VIDEO_WALL` only here: the type never changes afterwards' }),
    videoWallMetaData: VideoWallMetaDataSchema.optional(),
  })
  .openapi('DeviceGroupCreate');

/** PUT /api/deviceGroup/{id}: `{name}` or `{tags}` (spec 3), and a video wall's data. */
export const DeviceGroupUpdateSchema = updateBody(
  'DeviceGroupUpdate',
  {
    name: DeviceGroupNameSchema,
    tags: tagListOf(500).openapi({ description: "Replaces the folder's tags" }),
    videoWallMetaData: clearable(VideoWallMetaDataSchema),
    type: z
      .enum(deviceGroupTypes)
      .openapi({ description: 'Immutable: the current value is accepted, another one is 409 `deviceGroup.error.typeImmutable`' }),
  },
  'The root keeps its name (409 `deviceGroup.error.root`); `videoWallMetaData` only on a VIDEO_WALL folder (409 `deviceGroup.error.notVideoWall`).',
);

export const targetGroupIdParam = z.string().uuid().optional().openapi({
  format: 'uuid',
  description: 'Where the devices of the deleted folder and of every folder below it go; the parent when absent',
});

/** GET /api/deviceGroup/getDeviceOnlineOfflineRatio: folder id → device counts in and below the folder. */
export const DeviceOnlineOfflineCountsSchema = z
  .record(z.string(), z.object({ onlineCount: z.number().int(), offlineCount: z.number().int() }))
  .openapi('DeviceGroupOnlineOfflineRatio');

export type DeviceGroup = z.infer<typeof DeviceGroupSchema>;
export type DeviceGroupCreate = z.infer<typeof DeviceGroupCreateSchema>;
export type DeviceGroupUpdate = z.infer<typeof DeviceGroupUpdateSchema>;
export type DeviceOnlineOfflineCounts = z.infer<typeof DeviceOnlineOfflineCountsSchema>;
