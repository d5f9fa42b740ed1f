import { z } from '@hono/zod-openapi';
import { combinationIssue, epochMs, intId, resourceName, uuid } from '@/server/http/wire.schemas';
import { WorkingDaysSchema, WorkingTimeSchema } from '@/server/playback/schedule-rules.schemas';
import { tagSchema } from '@/server/modules/tags/tags.schemas';

/*
 * Wire shapes of alert rules (spec 2 "Alert rule"; spec 1 "Working days and working time objects"). No server
 * imports: the console imports these for its forms and types.
 */

export const alertRuleTypes = ['DeviceOffline', 'DatasourceError'] as const;
export type AlertRuleType = (typeof alertRuleTypes)[number];

const MINUTES_PER_YEAR = 525_600;
const ID_LIST_MAX = 1_000;
export const CHANNELS_MAX = 50;
/** A datasource is deactivated at 25 failed refreshes in a row (datasources README): a higher threshold never fires. */
export const THRESHOLD_MAX = 25;
const TEMPLATE_MAX = 10_000;
const COMMENT_MAX = 4_000;

const TagFilterSchema = z
  .object({
    tags: z.array(tagSchema).max(100),
    logicalOperator: z.enum(['AND', 'OR']).openapi({ description: 'AND: every tag; OR: at least one' }),
    tagFilterType: z
      .enum(['INCLUDE', 'EXCLUDE'])
      .openapi({ description: 'INCLUDE: only the devices the tags match; EXCLUDE: all but those' }),
  })
  // Inline, not a named schema: the rule's bodies take it nullable (a named schema stays non-null where used alone).
  .openapi({ description: 'No tags: no filter' });
type TagFilter = z.infer<typeof TagFilterSchema>;

const idList = (description: string) => z.array(uuid).max(ID_LIST_MAX).optional().openapi({ description });

const DeviceOfflineConditionSchema = z
  .object({
    '@type': z.literal('DeviceOfflineAndNoActivityForMinutes').optional(),
    inactiveMinutes: z.number().int().min(1).max(MINUTES_PER_YEAR),
    deviceGroupId: uuid.openapi({ description: 'The device folder watched (of the rule’s customer)' }),
    recursive: z.boolean().optional().openapi({ description: 'Default true: the folders below too' }),
    excludeDeviceIds: idList('Devices never watched'),
    excludeDeviceGroupIds: idList('Device folders (and everything below them) never watched'),
    tagFilter: TagFilterSchema.nullable().optional(),
  })
  .openapi('DeviceOfflineAndNoActivityForMinutes', {
    description: 'A device in scope violates when it is OFFLINE and has shown no activity for `inactiveMinutes`',
  });

const DatasourceErrorConditionSchema = z
  .object({
    '@type': z.literal('DatasourceRefreshErrorCondition').optional(),
    threshold: z.number().int().min(1).max(THRESHOLD_MAX),
  })
  .openapi('DatasourceRefreshErrorCondition', {
    description: 'A datasource of the customer violates when its `errorCounter` ≥ `threshold`',
  });

/** The condition as stored: `@type`, and every default filled in. */
export type StoredDeviceOfflineCondition = {
  '@type': 'DeviceOfflineAndNoActivityForMinutes';
  inactiveMinutes: number;
  deviceGroupId: string;
  recursive: boolean;
  excludeDeviceIds: string[];
  excludeDeviceGroupIds: string[];
  tagFilter: TagFilter | null;
};
export type StoredDatasourceErrorCondition = { '@type': 'DatasourceRefreshErrorCondition'; threshold: number };
export type AlertCondition = StoredDeviceOfflineCondition | StoredDatasourceErrorCondition;

/** The working time as stored: `from`/`end` as `HH:mm` (DECISIONS §2), absent members left out. */
export type StoredWorkingTime = {
  allDay?: boolean;
  from?: string;
  end?: string;
  timeZone?: string;
  allowPartialStartingSegment?: boolean;
  allowPartialEndingSegment?: boolean;
  allowDayOfWeekOverflow?: boolean;
};

const ChannelReferenceSchema = z
  .object({ id: intId })
  .openapi('AlertRuleChannelReference', { description: 'An existing notification channel of the customer; other members are ignored' });

const template = (description: string) => z.string().max(TEMPLATE_MAX).nullable().optional().openapi({ description });
/** The names a message template may use in braces (alert-templates.ts fills them; the console lists them). */
export const PLACEHOLDERS = [
  'ruleName',
  'event',
  'deviceName',
  'deviceId',
  'folderPath',
  'lastActivity',
  'datasourceName',
  'datasourceId',
  'errorCounter',
  'lastError',
  'since',
  'time',
  'alertId',
] as const;

const PLACEHOLDER_NOTE = `Placeholders: ${PLACEHOLDERS.map((name) => `\`{${name}}\``).join(', ')} (an unknown one stays as written)`;

const commonFields = {
  name: resourceName.openapi({ description: 'Unique in the customer' }),
  comment: z.string().max(COMMENT_MAX).nullable().optional(),
  enabled: z.boolean().optional().openapi({ description: 'Default true' }),
  delayEvaluateAfterViolationMinutes: z.number().int().min(0).max(10_080).optional().openapi({ description: 'Default 0; at most a week' }),
  scheduledEvaluateSeconds: z.number().int().min(60).max(86_400).optional().openapi({ description: 'Default 300; at least 60' }),
  workingDays: z.union([WorkingDaysSchema, z.null()]).openapi({ description: 'Required; null: the rule never evaluates' }),
  workingTime: WorkingTimeSchema,
  notificationChannels: z
    .array(ChannelReferenceSchema)
    .max(CHANNELS_MAX)
    .optional()
    .openapi({ description: 'Existing channel ids only, none twice' }),
  alertEmailTemplate: template(`E-mail body of an alert. ${PLACEHOLDER_NOTE}`),
  evaluateSummaryEmailTemplate: template(`E-mail subject. ${PLACEHOLDER_NOTE}`),
  alertSmsTemplate: template(`SMS of an alert. ${PLACEHOLDER_NOTE}`),
  alertFixedSmsTemplate: template(`SMS when the alert closes. ${PLACEHOLDER_NOTE}`),
  customerId: intId.optional().openapi({ description: "Ignored: the tenant is the `customerId` query parameter (or the caller's own)" }),
};

const DeviceOfflineBodySchema = z.object({
  '@type': z.literal('DeviceOffline'),
  condition: DeviceOfflineConditionSchema,
  ...commonFields,
});
const DatasourceErrorBodySchema = z.object({
  '@type': z.literal('DatasourceError'),
  condition: DatasourceErrorConditionSchema,
  ...commonFields,
});

/** Rules between values: a bounded working window needs its zone (spec 1); channel ids once each. */
function bodyRules(body: { workingTime: StoredWorkingTime; notificationChannels?: Array<{ id: number }> }, ctx: z.RefinementCtx) {
  const time = body.workingTime;
  if (time.allDay !== true && (time.from !== undefined || time.end !== undefined)) {
    if (time.from === undefined || time.end === undefined || time.timeZone === undefined)
      combinationIssue(ctx, ['workingTime', 'from'], 'A bounded window needs from, end and timeZone');
    else if (time.end <= time.from) combinationIssue(ctx, ['workingTime', 'end'], 'end must be after from');
  }
  const seen = new Set<number>();
  (body.notificationChannels ?? []).forEach((channel, i) => {
    if (seen.has(channel.id)) combinationIssue(ctx, ['notificationChannels', i, 'id'], 'Listed twice');
    seen.add(channel.id);
  });
}

export const AlertRuleBodySchema = z
  .discriminatedUnion('@type', [DeviceOfflineBodySchema, DatasourceErrorBodySchema])
  .superRefine(bodyRules)
  .openapi('AlertRuleBody', {
    description:
      'The condition must match `@type`. A bounded working window (from and end, not `allDay`) needs `timeZone` and `end` after `from`. ' +
      'PUT replaces the rule (omitted optional attributes take their defaults); `@type` cannot change.',
  });
export type AlertRuleBody = z.infer<typeof AlertRuleBodySchema>;

const isoDateTime = z.string().openapi({ format: 'date-time' });

export const AlertRuleSchema = z
  .object({
    '@type': z.enum(alertRuleTypes).optional(),
    id: intId,
    name: z.string().optional(),
    comment: z.string().optional(),
    enabled: z.boolean().optional(),
    condition: z.record(z.string(), z.unknown()).optional(),
    evaluate: z
      .object({
        id: intId,
        lastEvaluationDate: isoDateTime.optional(),
        lastViolationDate: isoDateTime.optional(),
        evaluateCount: z.number().int(),
        violationCount: z.number().int(),
      })
      .optional(),
    delayEvaluateAfterViolationMinutes: z.number().int().optional(),
    scheduledEvaluateSeconds: z.number().int().optional(),
    workingDays: z.record(z.string(), z.boolean()).optional(),
    workingTime: z.record(z.string(), z.unknown()).optional(),
    notificationChannels: z.array(z.object({ id: intId, name: z.string() })).optional(),
    version: z.number().int().optional(),
    dtype: z.enum(alertRuleTypes).optional(),
    teamAccessList: z
      .object({ teams: z.array(z.object({ id: z.string(), name: z.string().optional(), readOnly: z.boolean() })) })
      .optional(),
    readOnly: z.boolean().optional(),
    customerId: intId.optional(),
    alertEmailTemplate: z.string().optional(),
    evaluateSummaryEmailTemplate: z.string().optional(),
    alertSmsTemplate: z.string().optional(),
    alertFixedSmsTemplate: z.string().optional(),
    nextEvaluationDate: isoDateTime.optional().openapi({ description: 'When the rule is evaluated next (absent: never)' }),
    createdDate: epochMs.optional(),
    teamAssignments: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'select-only: the teams of the rule' }),
  })
  .openapi('AlertRule');
export type AlertRule = z.infer<typeof AlertRuleSchema>;

export const SimpleAlertRuleSchema = z.object({ id: intId, name: z.string(), readOnly: z.boolean().optional() }).openapi('SimpleAlertRule');
export const SimpleAlertRuleListSchema = z.object({ content: z.array(SimpleAlertRuleSchema) }).openapi('SimpleAlertRuleList');
export type SimpleAlertRule = z.infer<typeof SimpleAlertRuleSchema>;
