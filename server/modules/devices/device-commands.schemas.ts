import { z } from '@hono/zod-openapi';
import { booleanQuery, requiredBooleanQuery } from '@/server/http/query-params.schemas';
import { ianaTimeZone, integerParam, intIdParam, nonBlankText } from '@/server/http/wire.schemas';
import { licenseStatuses, licenseTypes } from './devices.schemas';

/*
 * The parameters of the batch device commands (spec 3 "Devices and device folders"): query parameters as
 * the spec lists them (strings on the wire, parsed here), JSON bodies where it names one. No server imports.
 */

const integer = (description: string, min: number, max: number) => integerParam(min, max).openapi({ description });
const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'A time of day as HH:mm')
  .openapi({ example: '03:30' });
const DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

const LevelQuery = z.object({ level: integer('0 to 100', 0, 100) });
const EnabledQuery = z.object({ enabled: requiredBooleanQuery('On or off') });

export const commandParams = {
  assignContent: z.object({
    contentId: z.string().uuid().openapi({ format: 'uuid' }),
    asAssigned: booleanQuery('Set it as the assigned content (at least one of asAssigned and asEmergency is true)', true),
    asEmergency: booleanQuery('Set it as the emergency content', false),
  }),
  detachContent: z.object({
    detachNext: booleanQuery('Detach content scheduled next (nothing is scheduled per device yet)', true),
    detachAssigned: booleanQuery('Detach the assigned content (at least one of detachAssigned and detachEmergency is true)', true),
    detachEmergency: booleanQuery('Detach the emergency content', false),
  }),
  refreshContent: z.object({}),
  cacheContent: z.object({
    contentId: z.string().uuid().openapi({ format: 'uuid' }),
    cacheAt: z.string().datetime({ offset: true }).optional().openapi({ description: 'When to download (ISO-8601); now when absent' }),
  }),
  clearCache: z.object({}),
  display: EnabledQuery,
  volume: LevelQuery,
  brightness: LevelQuery,
  rotation: z.object({
    angle: z
      .enum(['0', '90', '180', '270'], { error: 'One of 0, 90, 180, 270' })
      .transform(Number)
      .openapi({ type: 'integer', enum: [0, 90, 180, 270], description: 'Degrees clockwise' }),
    type: z.enum(['WEB_VIEW', 'DEVICE']),
  }),
  restart: z.object({}),
  rebootTime: z.object({ time: hhmm }),
  workingHours: z.object({}),
  time: z.object({ timeZone: ianaTimeZone }),
  location: z.object({}),
  setWeatherLocation: z.object({ weatherLocation: nonBlankText(255) }),
  sensorConfig: z.object({}),
  updateRule: z.object({}),
  resetSensor: z.object({}),
  advancedConfiguration: z.object({ updateMethod: z.enum(['SET', 'ADD_OR_UPDATE', 'REMOVE']) }),
  setUpdateVersionUpperLimit: z.object({ version: nonBlankText(64) }),
  datasource: z.object({ datasourceId: z.string().uuid().openapi({ format: 'uuid' }) }),
  dataRowId: z.object({ dataRowId: nonBlankText(255) }),
  showName: EnabledQuery,
  requestLog: z.object({
    systemLog: booleanQuery('Include the system log', false),
    systemReport: booleanQuery('Include a system report', false),
  }),
  update: z.object({ version: nonBlankText(64).optional() }),
  emergency: z.object({ emergencyStatus: requiredBooleanQuery('Emergency on or off') }),
  turnOnRapidPreviewMode: z.object({
    duration: integer('How long, in milliseconds (at most an hour)', 1_000, 3_600_000),
    minimumDelayBetweenPreviews: integer('Milliseconds between screenshots', 1_000, 3_600_000),
  }),
  takeHighResPreview: z.object({}),
  updateLicense: z.object({
    licenseOrderId: intIdParam.optional().openapi({
      description:
        'A licence order of the tenant; only with licenseStatus LICENSED, or without licenseStatus (the order of licensed devices changes)',
    }),
    licenseType: z.enum(licenseTypes).optional().openapi({ description: 'Required with licenseStatus FREE' }),
    licenseStatus: z
      .enum(licenseStatuses)
      .optional()
      .openapi({ description: 'At least one of licenseStatus, licenseType and licenseOrderId; LICENSED needs licenseOrderId' }),
  }),
} as const;

export type CommandName = keyof typeof commandParams;

/**
 * The one-shot commands only webhook device actions send (no batch route): spec 4 §3 names all but
 * `previewContent`, which is ours (PREVIEW_CONTENT_ON_DEVICE).
 */
export const actionCommandNames = [
  'showToast',
  'loadUrl',
  'pauseContent',
  'resumeContent',
  'sensorEvent',
  'previewContent',
  'wakeUp',
  'snooze',
] as const;
export type ActionCommandName = (typeof actionCommandNames)[number];

const jsonObject = z.record(z.string(), z.unknown());

export const commandBodies = {
  clearCache: z
    .object({ limit: z.number().int().min(0).max(10_000_000).optional(), fileExtensions: z.array(nonBlankText(16)).max(100).optional() })
    .openapi('ClearCacheBody', { description: 'Filters combine; `limit` in MB, 0 = no size threshold' }),
  workingHours: z
    .object({
      mode: z.enum(['SCREEN', 'DEVICE']),
      // A closed object: a key that is not a day is refused (and the document says so).
      days: z.strictObject(
        Object.fromEntries(DAYS.map((day) => [day, z.object({ from: hhmm, to: hhmm }).optional()])) as Record<
          (typeof DAYS)[number],
          z.ZodOptional<z.ZodObject<{ from: typeof hhmm; to: typeof hhmm }>>
        >,
      ),
    })
    .openapi('WorkingHoursBody'),
  location: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).openapi('LocationBody'),
  sensorConfig: jsonObject.openapi('SensorConfigBody'),
  updateRule: jsonObject.openapi('UpdateRuleBody'),
  advancedConfiguration: jsonObject.openapi('AdvancedConfigurationBody'),
} as const;

/** Answer of every batch command: how many devices it changed or sent a command to. */
export const CommandResultSchema = z.object({ updated: z.number().int() }).openapi('DeviceCommandResult');

/** One command as the console shows it: what was sent, when, and what became of it. */
export const DeviceCommandEntrySchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    params: z.record(z.string(), z.unknown()),
    issuedAt: z.string().openapi({ format: 'date-time' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
    deliveredAt: z.string().optional().openapi({ format: 'date-time', description: 'First sent to the device' }),
    acknowledgedAt: z.string().optional().openapi({ format: 'date-time' }),
    ok: z.boolean().optional(),
    error: z.string().optional(),
    status: z.enum(['PENDING', 'DELIVERED', 'ACKNOWLEDGED', 'FAILED', 'EXPIRED']),
  })
  .openapi('DeviceCommandEntry');
export type DeviceCommandEntry = z.infer<typeof DeviceCommandEntrySchema>;

/**
 * A screen's settings as the console shows them: the values the state commands set (the manifest's
 * `settings`, and the emergency status) and, per state command, the newest one sent, so a value the screen
 * has not confirmed yet shows as sent but pending.
 */
export const DeviceSettingsSchema = z
  .object({
    settings: z.record(z.string(), z.unknown()).openapi({
      description:
        "The manifest's settings (volume, brightness, rotation, display, workingHours, rebootTime, …); a key absent: never set, the screen uses its own",
    }),
    emergencyStatus: z.boolean(),
    commands: z.array(DeviceCommandEntrySchema).openapi({
      description: 'The newest command of each state-setting name sent to the device (none for a name never sent), newest first',
    }),
  })
  .openapi('DeviceSettings');
export type DeviceSettings = z.infer<typeof DeviceSettingsSchema>;

/** How many of a device's newest commands the history answers (a fixed window, newest first). */
export const COMMAND_HISTORY_SIZE = 20;
