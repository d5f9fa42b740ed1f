import { DeviceSchema } from '@/server/modules/devices/devices.schemas';
import { z } from '@hono/zod-openapi';
import { ErrorSchema } from '@/server/http/errors';
import { customerIdParam, epochMsQuery, json } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import {
  AssignToCustomerSchema,
  CommandAckSchema,
  DEVICE_MESSAGE_MAX_BYTES,
  DisplayHeartbeatResultSchema,
  DisplayHeartbeatSchema,
  DisplayRegistrationResultSchema,
  DisplayRegistrationSchema,
  DisplayStatusSchema,
  DeviceScheduleSchema,
  FolderScheduleSchema,
  PlaybackExplanationSchema,
  NowPlayingListSchema,
  NowPlayingRequestSchema,
  ManifestSchema,
  MetricsBodySchema,
  MetricsResultSchema,
  RotatedSecretSchema,
  SocketTicketSchema,
} from './display.schemas';
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES } from './device-telemetry';

const tags = ['Player'];
const error = (description: string) => ({ description, ...json(ErrorSchema) });
/** Who a device route refuses (the other statuses are derived from each route's declaration). */
const deviceErrors = {
  401: error('Missing, unknown or expired device token, a user token, a deleted device, or a restricted customer'),
} as const;

export const registerRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/public-api/display/register',
    operationId: 'registerDisplay',
    tags,
    summary: 'Register a player: a device, its secret (shown once) and an activation code',
    description:
      'At most 30 registrations per client address and hour by default (`DEVICE_REGISTRATIONS_PER_HOUR`; 429 with Retry-After beyond). A `serial` that a tenant pre-registered ' +
      '(`assignToCustomer` with `createDeviceIfSerialNotFound`) and no player has taken over yet takes that device over: it is already ' +
      'assigned, so no activation code is answered. Then get a token: POST /oauth/token, grant_type=client_credentials, HTTP Basic deviceId:deviceSecret.',
    request: { body: { required: true, ...json(DisplayRegistrationSchema) } },
    responses: { 201: { description: 'The registered device', ...json(DisplayRegistrationResultSchema) } },
  },
  { rateLimited: 'registrations, per client address (30 an hour by default); also when no activation code is free' },
);

export const socketTicketRoute = defineRoute(
  { device: 'any' },
  {
    method: 'post',
    path: '/api/display/wsTicket',
    operationId: 'createDisplaySocketTicket',
    tags,
    summary: 'A single-use ticket (30 s) for the device WebSocket',
    description:
      'Open `GET /api/display/ws?ticket=` with it (a WebSocket upgrade; a bad, used or expired ticket answers 401 before the upgrade). ' +
      'Frames: `hello`, `command`, `manifestChanged` and `assigned` from the server; `heartbeat` and `ack` from the device.',
    responses: { 200: { description: 'The ticket', ...json(SocketTicketSchema) }, ...deviceErrors },
  },
);

export const statusRoute = defineRoute(
  { device: 'any' },
  {
    method: 'get',
    path: '/api/display/status',
    operationId: 'getDisplayStatus',
    tags,
    summary: 'Whether the device is assigned; its activation code while it is not',
    description: 'An expired activation code is replaced by a new one (15 minutes) on this call.',
    responses: { 200: { description: 'The device status', ...json(DisplayStatusSchema) }, ...deviceErrors },
  },
  { rateLimited: 'no activation code is free right now (try again in a minute)' },
);

export const heartbeatRoute = defineRoute(
  { device: 'any' },
  {
    method: 'post',
    path: '/api/display/heartbeat',
    operationId: 'displayHeartbeat',
    tags,
    summary: 'Sign of life: reported facts in, pending commands and the manifest ETag out',
    description:
      'Marks the device ONLINE (it turns OFFLINE 2.5 × heartbeatSeconds after its last sign of life). Reported `localIpAddress`, ' +
      '`version`, `firmwareVersion` and `deviceInfo` are stored when sent. `commands` are those not yet acknowledged and not expired.',
    request: { body: { required: true, ...json(DisplayHeartbeatSchema) } },
    responses: {
      200: { description: 'Server time, manifest ETag and pending commands', ...json(DisplayHeartbeatResultSchema) },
      ...deviceErrors,
    },
  },
  { bodyLimit: DEVICE_MESSAGE_MAX_BYTES },
);

export const ackCommandRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'post',
    path: '/api/display/commands/{commandId}/ack',
    operationId: 'acknowledgeDisplayCommand',
    tags,
    summary: 'Acknowledge a command (idempotent)',
    description: 'The first acknowledgement is kept. Another device’s command answers 404.',
    request: {
      params: z.object({
        commandId: z
          .string()
          .uuid()
          .openapi({ param: { name: 'commandId', in: 'path' } }),
      }),
      body: { required: true, ...json(CommandAckSchema) },
    },
    responses: { 204: { description: 'Acknowledged' }, ...deviceErrors },
  },
  { bodyLimit: DEVICE_MESSAGE_MAX_BYTES, resourceIds: { 'path.commandId': 'deviceCommand' } },
);

export const rotateCredentialsRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'post',
    path: '/api/display/credentials/rotate',
    operationId: 'rotateDisplayCredentials',
    tags,
    summary: 'A new device secret',
    description:
      'The old secret keeps working until the new one is first used at POST /oauth/token, or for 24 hours. Tokens already issued stay valid.',
    responses: { 200: { description: 'The new secret (shown once)', ...json(RotatedSecretSchema) }, ...deviceErrors },
  },
);

const image = { type: 'string' as const, format: 'binary' };

export const screenshotRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'put',
    path: '/api/display/screenshot',
    operationId: 'uploadDisplayScreenshot',
    tags,
    summary: "Upload a screenshot: it becomes the device's previewPath and the newest previewStore entry",
    description:
      `The body is the image, \`${SCREENSHOT_TYPES.join('`, `')}\`, at most 5 MB (413 beyond). A Content-Type outside these, or bytes that are not ` +
      'the declared type, is a 415. `highRes=true` marks the answer to a `takeHighResPreview` command. `takenAt` is when the ' +
      "player drew the image (epoch ms, server time): the screenshot's time in `previewStore` and `previewPath`; without it, the " +
      "upload's time. More than 5 minutes ahead of the server or more than an hour old is a 400. The device keeps its newest " +
      '20 screenshots; older ones are removed.',
    request: {
      query: z.object({
        highRes: z.enum(['true', 'false']).optional().openapi({ description: 'The screenshot answers `takeHighResPreview`' }),
        takenAt: epochMsQuery("When the image was drawn, epoch ms (default: the upload's time)"),
      }),
      body: { required: true, content: Object.fromEntries(SCREENSHOT_TYPES.map((type) => [type, { schema: image }])) },
    },
    responses: {
      204: { description: 'Stored' },
      ...deviceErrors,
      413: error('Larger than 5 MB'),
      415: error('Not image/jpeg, image/png or image/webp, or bytes that are not the declared type'),
    },
  },
  { bodyLimit: SCREENSHOT_MAX_BYTES },
);

export const metricsRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'post',
    path: '/api/display/metrics',
    operationId: 'uploadDisplayMetrics',
    tags,
    summary: "Report metric samples (the devices API's graphs show them)",
    description:
      'Each sample is checked on its own: a type of spec 3 "Device metric types", a finite value, a timestamp at most 5 minutes ahead of the ' +
      'server and at most a year back. Accepted samples are stored; `rejected` names the others by index. More than 1 000 samples is a 400.',
    request: { body: { required: true, ...json(MetricsBodySchema) } },
    responses: {
      202: { description: 'How many samples were stored, and which were refused', ...json(MetricsResultSchema) },
      ...deviceErrors,
    },
  },
);

export const assignToCustomerRoute = defineRoute(
  { minRole: 'TECHNICIAN', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/device/assignToCustomer',
    operationId: 'assignDeviceToCustomer',
    tags: ['Devices'],
    summary: 'Claim a device by its activation code or serial, or pre-register one by serial',
    description:
      'The device joins the selected customer’s root device folder with the name, licence and time zone sent. A wrong or expired code ' +
      '(or an unknown serial without `createDeviceIfSerialNotFound`) is a 404. After ten failed claims by one user or one tenant within ' +
      '15 minutes, every claim of that user or tenant answers 429 with Retry-After until the window passes. A serial already pre-registered ' +
      'and not yet taken over is a 409, as is a licence none is free of (`license.error.noFreeLicense`: LICENSED with an order that is not an ' +
      "approved order of the customer or has no free licence, FREE beyond the customer's `freeLicenses`).",
    request: { query: z.object({ customerId: customerIdParam }), body: { required: true, ...json(AssignToCustomerSchema) } },
    responses: {
      200: { description: 'The claimed (or pre-registered) device', ...json(DeviceSchema) },
      ...conflictError,
    },
  },
  {
    rateLimited: 'wrong activation codes or serials, per user and per tenant (10 in 15 minutes)',
    resourceIds: { 'body.licenseOrderId': 'licenseOrder' },
    answersLikeMissing: {
      'body.licenseOrderId':
        'any order without a free licence of this customer, another tenant’s too, answers 409 license.error.noFreeLicense',
    },
  },
);

export const manifestRoute = defineRoute(
  { device: 'assigned' },
  {
    method: 'get',
    path: '/api/display/manifest',
    operationId: 'getDisplayManifest',
    tags,
    summary: 'What the device plays until validUntil: segments, contents, files with signed URLs',
    description:
      'The playback layers (EMERGENCY, CONTENT, NONE today) as segments covering [generatedAt, validUntil), every content item they play or embed ' +
      '(transitively) and every file of those with a signed URL (no bearer token; Range and ETag) valid until validUntil + 24 h. `validUntil` is the ' +
      "second UTC midnight after generatedAt (24–48 h). The `ETag` header (the body's `etag` in quotes, also answered by the heartbeat) changes " +
      'when anything shown changes, and once a day with the signed URLs; `If-None-Match` with it answers 304 without a body.',
    request: { headers: z.object({ 'if-none-match': z.string().optional() }) },
    responses: {
      200: { description: 'The manifest', headers: { ETag: { schema: { type: 'string' } } }, ...json(ManifestSchema) },
      304: { description: "Not modified: the device's copy is current" },
      ...deviceErrors,
    },
  },
);

export const deviceScheduleRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}/schedule',
    operationId: 'getDeviceSchedule',
    tags: ['Devices'],
    summary: 'What a device plays over a window: the same resolution as its manifest',
    description:
      '`from` defaults to now (or `to` − 24 h), `to` to `from` + 24 h; `to` must be after `from` and at most 7 days later (400 otherwise).',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: z.object({
        customerId: customerIdParam,
        from: epochMsQuery('Start, epoch ms (inclusive)'),
        to: epochMsQuery('End, epoch ms (exclusive)'),
      }),
    },
    responses: { 200: { description: 'The segments', ...json(DeviceScheduleSchema) } },
  },
  { resourceIds: { 'path.id': 'device' } },
);

export const folderScheduleRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/deviceGroup/{id}/schedule',
    operationId: 'getDeviceGroupSchedule',
    tags: ['Devices'],
    summary: "What the screens of a device folder play over a window: every screen's resolution, grouped",
    description:
      "The same resolution as each screen's manifest and `GET /api/v2/device/{id}/schedule`, for every claimed screen in the folder and below it that the caller sees. Screens that play the same (same zone, layers and targeted campaigns) share one plan. `from` and `to` as for a device.",
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: z.object({
        customerId: customerIdParam,
        from: epochMsQuery('Start, epoch ms (inclusive)'),
        to: epochMsQuery('End, epoch ms (exclusive)'),
      }),
    },
    responses: { 200: { description: "The plans of the folder's screens", ...json(FolderScheduleSchema) } },
  },
  { resourceIds: { 'path.id': 'deviceGroup' } },
);

export const devicesNowPlayingRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'post',
    path: '/api/v2/device/schedule/now',
    operationId: 'devicesNowPlaying',
    tags: ['Devices'],
    summary: 'What several devices play now: the layer and the names of what decides it',
    description:
      'For up to 100 devices at once (a page of the screens list): the layer now, its content, the schedule, the eligible channels with their ' +
      'sub-channels and the assigned content, from the same resolution as the manifest and `schedule`. A read (POST for the list of ids): a fixed ' +
      'number of statements per tenant named, whatever the number of devices. Every id must be a device the caller sees (404 names the first that is not).',
    request: { query: z.object({ customerId: customerIdParam }), body: { required: true, ...json(NowPlayingRequestSchema) } },
    responses: { 200: { description: 'What each device plays now', ...json(NowPlayingListSchema) } },
  },
  { resourceIds: { 'body.deviceIds[]': 'device' } },
);

export const deviceScheduleExplainRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/v2/device/{id}/schedule/explain',
    operationId: 'explainDeviceSchedule',
    tags: ['Devices'],
    summary: 'Why each campaign of the tenant plays or does not play on a device at an instant',
    description: '`at` defaults to now. Every campaign is listed with `eligible` and every failing reason code (spec 4 §4).',
    request: {
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' }, format: 'uuid' }) }),
      query: z.object({ customerId: customerIdParam, at: epochMsQuery('The instant, epoch ms (default: now)') }),
    },
    responses: { 200: { description: 'The layer at `at` and every campaign with its reasons', ...json(PlaybackExplanationSchema) } },
  },
  { resourceIds: { 'path.id': 'device' } },
);
