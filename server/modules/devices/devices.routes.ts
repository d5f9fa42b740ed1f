import { z } from '@hono/zod-openapi';
import { customerIdParam, epochMsQuery as epochMs, json, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { SEARCH_DESCRIPTION } from '@/server/query/search/description';
import { APPLY_ON } from './devices.batch';
import { TagRemovalListSchema } from '@/server/modules/tags/tags.schemas';
import { intIdParam, integerParam } from '@/server/http/wire.schemas';
import {
  DeviceListQueryExtension,
  MAX_DATA_POINTS,
  deviceMetricTypes,
  DeviceMoveSchema,
  DevicePreviewSchema,
  DeviceSchema,
  DeviceTagListSchema,
  DeviceUpdateSchema,
  GraphRequestSchema,
  GraphResponseSchema,
} from './devices.schemas';
import { SELECT_TEAM_IDS_EXEMPTION } from '@/server/modules/teams/teams.schemas';

/** The management API of devices (spec 3 "Devices and device folders"); the player's own API is the display module. */

const tags = ['Devices'];
const idPath = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }),
});
const deviceResponse = (description: string) => ({ description, ...json(DeviceSchema) });

export const listDevicesRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device',
    operationId: 'listDevices',
    tags,
    summary: 'Devices, paged',
    description:
      'Search `deviceGroupId={id}` for a folder, `deviceGroupPath:{id}` for a folder and below, `tags`, `deviceStatus`, … ' +
      'ADMIN: `customerId=null` lists the devices no customer has claimed yet. `deviceInfo` and `alerts` only when named in `select`.',
    request: { query: ScopedListQuerySchema.extend(DeviceListQueryExtension) },
    responses: { 200: { description: 'A page of devices', ...json(pageOf(DeviceSchema, 'DevicePage')) } },
  },
  { resourceIds: { 'query.quickFilterId': 'quickFilter' }, notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const getDeviceRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}',
    operationId: 'getDevice',
    tags,
    summary: 'One device, with what it reports about itself',
    request: {
      params: idPath,
      query: z.object({
        customerId: customerIdParam,
        select: z.string().optional().openapi({ description: 'Projection: `*`, `a,b`, `rel(a,b)`' }),
      }),
    },
    responses: { 200: deviceResponse('The device') },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const previewStoreRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}/previewStore',
    operationId: 'getDevicePreviewStore',
    tags,
    summary: 'The screenshots of a device, newest first',
    description:
      'The device keeps its newest 20 screenshots (PUT /api/display/screenshot); the first entry is its `previewPath`. Each `path` loads that ' +
      'screenshot (same credentials as the device read). A device without screenshots answers an empty array.',
    request: { params: idPath, query: z.object({ customerId: customerIdParam }) },
    responses: { 200: { description: 'The preview history', ...json(z.array(DevicePreviewSchema).openapi('DevicePreviewStore')) } },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const updateDeviceRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'none' },
  {
    method: 'put',
    path: '/api/device/{id}',
    operationId: 'updateDevice',
    tags,
    summary: 'Rename a device, change its comment or time zone',
    request: { params: idPath, body: { required: true, ...json(DeviceUpdateSchema) } },
    responses: { 200: deviceResponse('The device') },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const deleteDeviceRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'none' },
  {
    method: 'delete',
    path: '/api/device/{id}',
    operationId: 'deleteDevice',
    tags,
    summary: 'Delete a device',
    description: 'Its secret and every token it holds stop working at once; a player that registers again is a new, unclaimed device.',
    request: { params: idPath },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const moveDevicesRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/device/move',
    operationId: 'moveDevices',
    tags,
    summary: 'Move devices into a device folder',
    description:
      "All or nothing: every device must be one the caller may change in the folder's customer (404 names the first that is not).",
    request: { query: z.object({ customerId: customerIdParam }), body: { required: true, ...json(DeviceMoveSchema) } },
    responses: { 204: { description: 'Moved' } },
  },
  { resourceIds: { 'body.deviceIds[]': 'device', 'body.targetGroupId': 'deviceGroup' } },
);

/** The query of every batch over devices: the one tenant (required), which devices, and what the search targets. */
export const batchQuery = z.object({
  customerId: intIdParam.openapi({
    param: { name: 'customerId', in: 'query' },
    description: 'The tenant (required: a batch never spans tenants)',
  }),
  search: z
    .string()
    .optional()
    .openapi({ description: `Which devices (every device of the tenant when absent). ${SEARCH_DESCRIPTION}` }),
  applyOn: z.enum(APPLY_ON).optional().openapi({
    description:
      '`DEVICE` (default): the search is over devices; `DEVICEGROUP`: the search is over device folders, and a matching folder targets every device in it and in the folders below it; `ALL`: every device of the tenant (the search is ignored)',
  }),
});

const tagsRoute = (verb: 'add' | 'set' | 'remove', summary: string) =>
  defineRoute(
    { minRole: 'TECHNICIAN', tenant: 'scoped' },
    {
      method: 'post',
      path: `/api/v2/device/tags/${verb}`,
      operationId: `${verb}DeviceTags`,
      tags,
      summary,
      description: 'Applies to every matching device the caller may change; answers how many changed.',
      request: { query: batchQuery, body: { required: true, ...json(verb === 'remove' ? TagRemovalListSchema : DeviceTagListSchema) } },
      responses: {
        200: { description: 'How many devices changed', ...json(z.object({ updated: z.number().int() }).openapi('DeviceBulkResult')) },
      },
    },
  );

export const addDeviceTagsRoute = tagsRoute('add', 'Add tags to the matching devices');
export const setDeviceTagsRoute = tagsRoute('set', 'Replace the tags of the matching devices');
export const removeDeviceTagsRoute = tagsRoute('remove', 'Remove tags from the matching devices');

const deviceIdPath = z.object({
  deviceId: z
    .string()
    .uuid()
    .openapi({ param: { name: 'deviceId', in: 'path' }, format: 'uuid' }),
});

export const supportedMetricsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/deviceStat/{deviceId}/supportedMetrics',
    operationId: 'deviceSupportedMetrics',
    tags,
    summary: 'The metric types a device reports',
    request: { params: deviceIdPath, query: z.object({ customerId: customerIdParam }) },
    responses: {
      200: { description: 'Metric types with samples', ...json(z.array(z.enum(deviceMetricTypes)).openapi('DeviceMetricTypes')) },
    },
  },
  { resourceIds: { 'path.deviceId': 'device' } },
);

export const deviceGraphsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/deviceStat/{deviceId}/graphs',
    operationId: 'deviceGraphs',
    tags,
    summary: 'Metric graphs of a device over a time range',
    description:
      "`dataPoints` equal buckets over [`from`, `to`), each the average of its samples, with the range's totals and the intervals without data.",
    request: {
      params: deviceIdPath,
      query: z.object({
        customerId: customerIdParam,
        from: epochMs('Start, epoch ms (default 30 days before `to`)'),
        to: epochMs('End, epoch ms (default now); after `from`'),
        dataPoints: integerParam(1, MAX_DATA_POINTS).optional().openapi({ default: 50 }),
      }),
      body: { required: true, ...json(GraphRequestSchema) },
    },
    responses: { 200: { description: 'The graphs', ...json(GraphResponseSchema) } },
  },
  { resourceIds: { 'path.deviceId': 'device' } },
);
