import { z } from '@hono/zod-openapi';
import { ContentData } from '@/server/modules/content/content-data.schemas';
import { combinationIssue, epochMs, ianaTimeZone, intId, nonBlankText } from '@/server/http/wire.schemas';
import { devicePlatforms, deviceTypes } from '@/server/modules/devices/devices.schemas';
import { namedRef, SEGMENT_LAYERS, SegmentContentSchema, SegmentSchema } from '@/server/playback/segments.schemas';

export { SEGMENT_LAYERS, SegmentSchema, type ChannelPlay, type Segment } from '@/server/playback/segments.schemas';

/*
 * Wire shapes of the player API (spec 4 §1–§3) and of the claim (`assignToCustomer`, spec 3). Times are
 * Unix epoch milliseconds (spec 4). The device enums and the time-zone rule are the devices module's.
 */

/**
 * The largest message a device sends as a heartbeat or an acknowledgement: a WebSocket frame (larger: closed
 * with 1009) or the HTTP body of the same call (larger: 413).
 */
export const DEVICE_MESSAGE_MAX_BYTES = 64 * 1024;

/** Strings a device sends are at most 256 characters (spec 4 §2). */
const deviceText = z.string().max(256);

export const DisplayRegistrationSchema = z
  .object({
    serial: nonBlankText(256)
      .optional()
      .openapi({ description: 'Hardware serial: a device pre-registered with it (and never connected) is taken over' }),
    hardwareKey: deviceText.optional(),
    type: z.enum(deviceTypes),
    platform: z.enum(devicePlatforms),
    version: deviceText.optional(),
    firmwareVersion: deviceText.optional(),
    nativeResolutionWidth: z.number().int().min(1).max(100_000).optional(),
    nativeResolutionHeight: z.number().int().min(1).max(100_000).optional(),
    timeZone: ianaTimeZone.optional(),
  })
  .openapi('DisplayRegistration');

export const DisplayRegistrationResultSchema = z
  .object({
    deviceId: z.string().uuid(),
    deviceSecret: z
      .string()
      .openapi({ description: 'Returned once; stored only as a hash. Authenticates POST /oauth/token (HTTP Basic deviceId:deviceSecret)' }),
    activationCode: z
      .string()
      .optional()
      .openapi({ description: 'Four digits to show on the screen; absent when a pre-registered device was taken over (already assigned)' }),
    activationCodeExpiresAt: epochMs.optional(),
    heartbeatSeconds: z.number().int(),
  })
  .openapi('DisplayRegistrationResult');

export const DisplayStatusSchema = z
  .object({
    deviceId: z.string().uuid(),
    assigned: z.boolean(),
    activationCode: z.string().optional(),
    activationCodeExpiresAt: epochMs.optional(),
    customerId: intId.optional(),
    name: z.string().optional(),
    timeZone: z.string().optional(),
    heartbeatSeconds: z.number().int(),
    serverTime: epochMs,
  })
  .openapi('DisplayStatus');

/** A fact's value in `deviceInfo`: a scalar, or a list or an object of scalars (one level). */
const deviceInfoScalar = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]);
const DEVICE_INFO_MAX_KEYS = 64;
const DEVICE_INFO_MAX_BYTES = 8 * 1024;

/** What a device reports about itself (`deviceInfo`): bounded in keys, nesting and size, since it is stored and shown. */
const DeviceInfoSchema = z
  .record(
    z.string().min(1).max(64),
    z.union([deviceInfoScalar, z.array(deviceInfoScalar).max(DEVICE_INFO_MAX_KEYS), z.record(z.string().max(64), deviceInfoScalar)]),
  )
  .refine((info) => Object.keys(info).length <= DEVICE_INFO_MAX_KEYS, `At most ${DEVICE_INFO_MAX_KEYS} keys`)
  .refine(
    (info) => new TextEncoder().encode(JSON.stringify(info)).length <= DEVICE_INFO_MAX_BYTES,
    `At most ${DEVICE_INFO_MAX_BYTES / 1024} KiB as JSON`,
  )
  .openapi({
    description:
      `Free-form device facts; replaces the stored document. At most ${DEVICE_INFO_MAX_KEYS} keys (1–64 characters) and ${DEVICE_INFO_MAX_BYTES / 1024} KiB as JSON; ` +
      'each value a string (≤ 1024 characters), number, boolean or null, or a list or an object of those',
    example: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', screen: '1920x1080', language: 'en-GB' },
  });

export const DisplayHeartbeatSchema = z
  .object({
    currentItem: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: 'What plays now (accepted; proof of play reports plays)' }),
    manifestEtag: deviceText.optional(),
    localIpAddress: deviceText.optional(),
    version: deviceText.optional(),
    firmwareVersion: deviceText.optional(),
    deviceInfo: DeviceInfoSchema.optional(),
  })
  .openapi('DisplayHeartbeat');

const DeviceCommandSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    params: z.record(z.string(), z.unknown()),
    issuedAt: epochMs,
    expiresAt: epochMs,
  })
  .openapi('DeviceCommand');

export const DisplayHeartbeatResultSchema = z
  .object({
    serverTime: epochMs,
    manifestEtag: z.string(),
    heartbeatSeconds: z.number().int(),
    commands: z.array(DeviceCommandSchema).openapi({ description: 'Commands not yet acknowledged and not expired, oldest first' }),
  })
  .openapi('DisplayHeartbeatResult');

export const CommandAckSchema = z
  .object({
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: z.string().max(4000).optional(),
  })
  .openapi('DeviceCommandAck');

export const SocketTicketSchema = z
  .object({
    ticket: z.string().openapi({ description: 'Opens GET /api/display/ws?ticket= once, within 30 seconds' }),
    expiresAt: epochMs,
  })
  .openapi('DisplaySocketTicket');

export const RotatedSecretSchema = z
  .object({ deviceSecret: z.string().openapi({ description: 'The new secret; the old one works until this one is first used, or 24 h' }) })
  .openapi('DisplayRotatedSecret');

const ASSIGN_LICENSE_STATUSES = ['FREE', 'LICENSED', 'UN_LICENSED'] as const;
const FREE_LICENSE_TYPES = ['BASIC', 'PROFESSIONAL', 'ENTERPRISE'] as const;

/**
 * Spec 3 `assignToCustomer`: exactly one of `activationCode` and `serial`; `licenseType` with FREE only,
 * `licenseOrderId` with LICENSED only; `createDeviceIfSerialNotFound` with a `serial` only.
 */
export const AssignToCustomerSchema = z
  .object({
    activationCode: z
      .string()
      .regex(/^\d{4}$/, 'Four digits')
      .optional(),
    serial: nonBlankText(256).optional(),
    deviceName: nonBlankText(256),
    licenseStatus: z.enum(ASSIGN_LICENSE_STATUSES),
    licenseType: z.enum(FREE_LICENSE_TYPES).optional(),
    licenseOrderId: intId.optional(),
    timeZone: ianaTimeZone,
    createDeviceIfSerialNotFound: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => combinationIssue(ctx, [path], message);
    if ((body.activationCode === undefined) === (body.serial === undefined))
      issue('activationCode', 'Send either activationCode or serial');
    if (body.createDeviceIfSerialNotFound && body.serial === undefined)
      issue('createDeviceIfSerialNotFound', 'Pre-registration needs a serial');
    if (body.licenseStatus === 'FREE' && body.licenseType === undefined) issue('licenseType', 'Required when licenseStatus is FREE');
    if (body.licenseStatus !== 'FREE' && body.licenseType !== undefined) issue('licenseType', 'Only with licenseStatus FREE');
    if (body.licenseStatus === 'LICENSED' && body.licenseOrderId === undefined)
      issue('licenseOrderId', 'Required when licenseStatus is LICENSED');
    if (body.licenseStatus !== 'LICENSED' && body.licenseOrderId !== undefined) issue('licenseOrderId', 'Only with licenseStatus LICENSED');
  })
  .openapi('DeviceAssignToCustomer', {
    description:
      'Exactly one of `activationCode` and `serial`; `createDeviceIfSerialNotFound` only with `serial`; `licenseType` with licenseStatus FREE only (and then required); `licenseOrderId` with LICENSED only (and then required)',
  });

/** Samples per metrics call: more is a 400. */
const MAX_METRIC_SAMPLES = 1000;

const MetricSampleSchema = z
  .object({
    type: z
      .string()
      .max(256)
      .openapi({ description: 'A device metric type (spec 3 "Device metric types"); an unknown one rejects the sample' }),
    timestamp: epochMs.openapi({
      description:
        'Epoch ms, an integer from 0 to the end of year 9999 (else a 400 for the call); a sample more than 5 minutes ahead of the server or more than a year back is rejected on its own',
    }),
    value: z.number().openapi({ description: 'A finite number (a value JSON parses to infinity is a 400)' }),
  })
  .openapi('DisplayMetricSample');

export const MetricsBodySchema = z
  .object({
    samples: z
      .array(MetricSampleSchema)
      .max(MAX_METRIC_SAMPLES)
      .openapi({ description: `At most ${MAX_METRIC_SAMPLES} samples per call (more is a 400)` }),
  })
  .openapi('DisplayMetrics');

export const MetricsResultSchema = z
  .object({
    accepted: z.number().int().openapi({ description: 'Samples stored' }),
    rejected: z
      .array(z.object({ index: z.number().int(), key: z.string(), message: z.string() }))
      .openapi({ description: 'Samples refused (the rest are stored): their index in `samples` and why' }),
  })
  .openapi('DisplayMetricsResult');

export type DisplayRegistration = z.infer<typeof DisplayRegistrationSchema>;
export type DisplayRegistrationResult = z.infer<typeof DisplayRegistrationResultSchema>;
export type DisplayStatus = z.infer<typeof DisplayStatusSchema>;
export type DisplayHeartbeat = z.infer<typeof DisplayHeartbeatSchema>;
export type DisplayHeartbeatResult = z.infer<typeof DisplayHeartbeatResultSchema>;
export type DeviceCommand = z.infer<typeof DeviceCommandSchema>;
export type CommandAck = z.infer<typeof CommandAckSchema>;
export type AssignToCustomer = z.infer<typeof AssignToCustomerSchema>;

// --- the manifest and the schedule (spec 4 §4) ----------------------------------------------------------

const ManifestContentSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    deviceContentType: z.enum(['content', 'simpleLoop']),
    structureType: z.enum(['SLIDE', 'COMPLEX']).optional(),
    data: ContentData.openapi({
      description: "The document: a slide's or interactive content's pages keyed by name (SlideDocument), or a playlist (PlaylistData)",
    }),
  })
  .openapi('ManifestContent');

const ManifestFileSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    crcCheckSum: z.string(),
    durationMs: z.number().int().optional(),
    width: z.number().int().optional(),
    height: z.number().int().optional(),
    validFrom: epochMs.optional().openapi({ description: 'Outside [validFrom, validTo] the file is skipped in playlists' }),
    validTo: epochMs.optional(),
    url: z.string().openapi({ description: 'Signed download URL (no bearer token needed; Range and ETag), valid until validUntil + 24 h' }),
  })
  .openapi('ManifestFile');

const ManifestDatasourceSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    structureType: z.string(),
    etag: z
      .string()
      .optional()
      .openapi({ description: 'The document’s ETag when the manifest was made (none for FILES and DEVICES, computed when read)' }),
  })
  .openapi('ManifestDatasource');

export const ManifestSchema = z
  .object({
    etag: z.string(),
    generatedAt: epochMs,
    validUntil: epochMs.openapi({ description: 'At least 24 h after generatedAt' }),
    timeZone: z.string(),
    settings: z.record(z.string(), z.unknown()).openapi({
      description: 'volume, brightness, rotation, display, workingHours, rebootTime, showName, … as set by the batch commands',
    }),
    segments: z.array(SegmentSchema).openapi({ description: 'Cover [generatedAt, validUntil) without gaps or overlaps' }),
    contents: z
      .record(z.string(), ManifestContentSchema)
      .openapi({ description: 'Every content item the segments play or embed, transitively' }),
    files: z
      .record(z.string(), ManifestFileSchema)
      .openapi({ description: 'Every file those contents reference, directly or through a file folder' }),
    folders: z
      .record(z.string(), z.array(z.string().uuid()))
      .openapi({ description: 'The file ids of each file folder a playlist plays, in play order (by name)' }),
    datasources: z.record(z.string(), ManifestDatasourceSchema).openapi({
      description:
        'Every datasource those contents show (spec 5 §2): read each with GET /api/display/datasource/{id} (ETag), again on `datasourceChanged`',
    }),
  })
  .openapi('Manifest');

export const DeviceScheduleSchema = z
  .object({ deviceId: z.string().uuid(), timeZone: z.string(), from: epochMs, to: epochMs, segments: z.array(SegmentSchema) })
  .openapi('DeviceSchedule');

export const FolderScheduleSchema = z
  .object({
    folderId: z.string().uuid(),
    from: epochMs,
    to: epochMs,
    screens: z.number().int().min(0).openapi({ description: 'The claimed screens in the folder and below it that the caller sees' }),
    plans: z
      .array(
        z.object({
          timeZone: z.string(),
          deviceIds: z
            .array(z.string().uuid())
            .openapi({ description: 'The screens that play these segments (each screen is in exactly one plan)' }),
          segments: z.array(SegmentSchema),
        }),
      )
      .openapi({
        description:
          'What the screens play, one entry per distinct resolution (same zone, layers and targeted campaigns), most screens first',
      }),
  })
  .openapi('FolderSchedule');

export const REASON_CODES = [
  'DISABLED',
  'NOT_TARGETED',
  'NOT_VALID_YET',
  'EXPIRED',
  'OUTSIDE_HOURS',
  'OUTSIDE_DATE_RANGES',
  'EXCLUDED_RANGE',
  'PARENT_NOT_ELIGIBLE',
  'NO_PLAYABLE_ITEMS',
] as const;

export const PlaybackExplanationSchema = z
  .object({
    at: epochMs,
    layer: z.enum(SEGMENT_LAYERS),
    campaigns: z.array(
      z.object({
        id: intId,
        name: z.string(),
        level: z.enum(['WIDGET', 'TOP']),
        eligible: z.boolean(),
        reasons: z.array(z.enum(REASON_CODES)),
        messages: z
          .array(
            z.object({ id: intId, name: z.string(), messageGroupId: intId, eligible: z.boolean(), reasons: z.array(z.enum(REASON_CODES)) }),
          )
          .optional(),
      }),
    ),
  })
  .openapi('PlaybackExplanation');

/** The most devices one now-playing request names (a page of the screens list is at most 100). */
const NOW_PLAYING_MAX_DEVICES = 100;

export const NowPlayingRequestSchema = z
  .object({ deviceIds: z.array(z.string().uuid()).min(1).max(NOW_PLAYING_MAX_DEVICES) })
  .openapi('DeviceNowPlayingRequest');

const DeviceNowPlayingSchema = z
  .object({
    deviceId: z.string().uuid(),
    layer: z
      .enum(SEGMENT_LAYERS)
      .openapi({ description: 'What decides the screen now: EMERGENCY > SCHEDULE > CONTENT (assigned) > CHANNELS > NONE' }),
    content: SegmentContentSchema.optional().openapi({
      description: "The layer's content: the emergency content, the schedule's first content or the assigned content",
    }),
    schedule: namedRef.optional().openapi({ description: 'On the SCHEDULE layer: the schedule (campaign level TOP) that plays' }),
    channels: z
      .array(
        namedRef.extend({
          subChannels: z.array(namedRef).openapi({ description: 'The eligible messages (sub-channels) of a MESSAGE_GROUP channel' }),
        }),
      )
      .openapi({ description: 'The eligible channels (campaigns level WIDGET), by weight then id' }),
    assignedContent: SegmentContentSchema.optional().openapi({ description: 'The assigned content, also when another layer covers it' }),
  })
  .openapi('DeviceNowPlaying');

export const NowPlayingListSchema = z
  .object({
    at: epochMs,
    devices: z.array(DeviceNowPlayingSchema).openapi({ description: 'In the order of the request, each device once' }),
  })
  .openapi('DeviceNowPlayingList');

export type DeviceNowPlaying = z.infer<typeof DeviceNowPlayingSchema>;
export type NowPlayingList = z.infer<typeof NowPlayingListSchema>;
export type PlaybackExplanation = z.infer<typeof PlaybackExplanationSchema>;
export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestFile = z.infer<typeof ManifestFileSchema>;
export type ManifestContent = z.infer<typeof ManifestContentSchema>;
export type DeviceSchedule = z.infer<typeof DeviceScheduleSchema>;
export type FolderSchedule = z.infer<typeof FolderScheduleSchema>;
export type MetricSample = z.infer<typeof MetricSampleSchema>;
export type MetricsResult = z.infer<typeof MetricsResultSchema>;
