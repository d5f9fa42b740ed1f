import { z } from '@hono/zod-openapi';
import { epochMs, intId, resourceName } from '@/server/http/wire.schemas';

/*
 * Wire shapes of webhook actions, webhook API keys, triggers and executions (spec 3 "Webhook action", "Webhook API
 * key", "Authentication and trigger endpoints", "Webhook actions and keys"; spec 5 §4). No server imports: the console
 * imports these for its forms and types.
 */

/** Device action bases (spec 3): each exists with no suffix (one device), `_TAG`, `_GROUP` and `_ALL`. */
export const deviceActionBases = [
  'ENABLE_EMERGENCY_ON_DEVICE',
  'DISABLE_EMERGENCY_ON_DEVICE',
  'LOAD_URL_ON_DEVICE',
  'PAUSE_CONTENT_ON_DEVICE',
  'RESUME_CONTENT_ON_DEVICE',
  'REFRESH_CONTENT_ON_DEVICE',
  'SEND_SENSOR_EVENT_TO_DEVICE',
  'RESTART_DEVICE',
  'ASSIGN_CONTENT_ON_DEVICE',
  'PREVIEW_CONTENT_ON_DEVICE',
  'WAKE_UP_DEVICE',
  'SNOOZE_DEVICE',
  'SHOW_TOAST_MESSAGE_DEVICE',
  'CHANGE_VOLUME_DEVICE',
] as const;
export type DeviceActionBase = (typeof deviceActionBases)[number];
const deviceTargetSuffixes = ['', '_TAG', '_GROUP', '_ALL'] as const;
export type DeviceTargetSuffix = (typeof deviceTargetSuffixes)[number];

export const datasourceActionTypes = [
  'REFRESH_DATASOURCE',
  'REFRESH_DATASOURCE_ALL',
  'SET_INTERNAL_DATASOURCE',
  'MERGE_INTERNAL_DATASOURCE',
  'INCREASE_VALUE_IN_DATASOURCE',
  'DECREASE_VALUE_IN_DATASOURCE',
  'INSERT_CAP_DATASOURCE',
  'CLEAR_CAP_DATASOURCE',
  'DELETE_BY_KEY_INTERNAL_DATASOURCE',
  'INSERT_TO_ARRAY_INTERNAL_DATASOURCE',
  'REMOVE_FROM_ARRAY_INTERNAL_DATASOURCE',
  'EMPTY_ARRAY_INTERNAL_DATASOURCE',
  'ROTATE_ARRAY_INTERNAL_DATASOURCE',
  'REPLACE_OR_MERGE_ELEMENT_IN_ARRAY_INTERNAL_DATASOURCE',
] as const;
export type DatasourceActionType = (typeof datasourceActionTypes)[number];

export const folderActionTypes = ['FORCE_SYNC_SHARED_FOLDER', 'UPLOAD_FILE_TO_FOLDER'] as const;
type FolderActionType = (typeof folderActionTypes)[number];

export const campaignActionBases = [
  'ENABLE_CAMPAIGN',
  'DISABLE_CAMPAIGN',
  'CHANGE_SATURATION_CAMPAIGN',
  'CHANGE_PRIORITY_CAMPAIGN',
] as const;
export type CampaignActionBase = (typeof campaignActionBases)[number];

const deviceActionTypes = deviceActionBases.flatMap((base) => deviceTargetSuffixes.map((suffix) => `${base}${suffix}`));
const campaignActionTypes = campaignActionBases.flatMap((base) => [base, `${base}_BY_TAGS`]);

/** Every action type of spec 3, exact. */
export const webhookActionTypes = [...deviceActionTypes, ...datasourceActionTypes, ...folderActionTypes, ...campaignActionTypes] as [
  string,
  ...string[],
];

/** What an action's targets are, by its type: the console's picker and the server's checks read it. */
export type ActionTarget = 'device' | 'tag' | 'deviceGroup' | 'none' | 'datasource' | 'campaign' | 'fileFolder';

export type ActionFamily =
  | { family: 'device'; base: DeviceActionBase; suffix: DeviceTargetSuffix }
  | { family: 'datasource'; type: DatasourceActionType }
  | { family: 'folder'; type: FolderActionType }
  | { family: 'campaign'; base: CampaignActionBase; byTags: boolean };

/** Splits an action type into its family and parts; undefined for a name spec 3 does not list. */
export function actionFamilyOf(action: string): ActionFamily | undefined {
  for (const suffix of ['_TAG', '_GROUP', '_ALL'] as const) {
    const base = action.slice(0, -suffix.length);
    if (action.endsWith(suffix) && (deviceActionBases as readonly string[]).includes(base))
      return { family: 'device', base: base as DeviceActionBase, suffix };
  }
  if ((deviceActionBases as readonly string[]).includes(action)) return { family: 'device', base: action as DeviceActionBase, suffix: '' };
  if ((datasourceActionTypes as readonly string[]).includes(action)) return { family: 'datasource', type: action as DatasourceActionType };
  if ((folderActionTypes as readonly string[]).includes(action)) return { family: 'folder', type: action as FolderActionType };
  const byTags = action.endsWith('_BY_TAGS');
  const base = byTags ? action.slice(0, -'_BY_TAGS'.length) : action;
  if ((campaignActionBases as readonly string[]).includes(base)) return { family: 'campaign', base: base as CampaignActionBase, byTags };

  return undefined;
}

/** What the targets of `action` name. */
export function actionTargetOf(action: string): ActionTarget {
  const family = actionFamilyOf(action);
  switch (family?.family) {
    case 'device':
      return family.suffix === '' ? 'device' : family.suffix === '_TAG' ? 'tag' : family.suffix === '_GROUP' ? 'deviceGroup' : 'none';
    case 'datasource':
      return family.type === 'REFRESH_DATASOURCE_ALL' ? 'none' : 'datasource';
    case 'folder':
      return 'fileFolder';
    case 'campaign':
      return family.byTags ? 'tag' : 'campaign';
    case undefined:
      return 'none';
  }
}

export const MAX_TARGETS = 100;
const MAX_ACTION_PARAMS = 50;
const EVENT_ID_MAX = 255;

/** Non-empty, no whitespace (spec 1 "Events" 4). */
export const eventId = z.string().min(1).max(EVENT_ID_MAX).regex(/^\S+$/, 'An event id has no whitespace').openapi({
  pattern: '^\\S+$',
  description: 'Unique in the customer, non-empty, without whitespace; never generated by the service',
  example: 'menu-sold-out',
});

const actionType = z.enum(webhookActionTypes).openapi('WebhookActionType', {
  description:
    'A device base with a targeting suffix (none: one device; `_TAG`, `_GROUP`: device folders, recursive; `_ALL`), a datasource, folder or campaign action (spec 3)',
});
const actionParams = z
  .record(z.string().min(1).max(100), z.string().max(4_000))
  .refine((params) => Object.keys(params).length <= MAX_ACTION_PARAMS, `At most ${MAX_ACTION_PARAMS} parameters`)
  .openapi({
    description:
      'Action parameters: `tag` (tag-targeted actions), `url` (URL-loading and upload actions), `name`, `message`, `volumeLevel`, `keySelector`, … The trigger payload fills what the action leaves open.',
    example: { url: 'https://example.com/menu' },
  });
const targetId = z.string().min(1).max(255);
const targetData = z.object({ targetIds: z.array(targetId).max(MAX_TARGETS) }).openapi({
  description: 'Device, device folder, datasource, campaign or file folder ids, or tags, by the action type',
});
const ignoredCustomerId = intId.openapi({ description: "Ignored: the tenant is the `customerId` query parameter (or the caller's own)" });

export const WebhookActionCreateSchema = z
  .object({
    name: resourceName,
    eventId,
    enabled: z.boolean().optional().openapi({ description: 'Default false: an action is created disabled' }),
    action: actionType,
    actionParams: actionParams.nullable().optional(),
    targetId: targetId.nullable().optional().openapi({ description: 'One target (joins `targetData.targetIds`)' }),
    targetData: targetData.nullable().optional(),
    customerId: ignoredCustomerId.optional(),
  })
  .openapi('WebhookActionCreate');

/** PUT (spec 3): `name`, `enabled`, `action` and `actionParams` are sent together; omitted targets and an empty `eventId` are kept. */
export const WebhookActionUpdateSchema = z
  .object({
    name: resourceName,
    eventId: z
      .union([eventId, z.literal('')])
      .nullable()
      .optional()
      .openapi({ description: 'Missing or empty: kept. Otherwise unique in the customer, without whitespace' }),
    enabled: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: 'Omitted or null: false (sent together with name, action, actionParams)' }),
    action: actionType,
    actionParams: actionParams.nullable().optional().openapi({ description: 'Omitted or null: none' }),
    targetId: targetId.nullable().optional().openapi({ description: 'Omitted: the targets are kept' }),
    targetData: targetData.nullable().optional().openapi({ description: 'Omitted: the targets are kept' }),
    customerId: ignoredCustomerId.optional(),
  })
  .openapi('WebhookActionUpdate');

export const WebhookActionSchema = z
  .object({
    id: intId,
    name: z.string(),
    eventId: z.string().optional(),
    enabled: z.boolean().optional(),
    action: z.string().optional(),
    actionParams: z.record(z.string(), z.string()).nullable().optional(),
    targetData: z.object({ targetIds: z.array(z.string()) }).optional(),
    targetId: z.string().nullable().optional().openapi({ description: 'The first target' }),
    targetName: z.string().nullable().optional().openapi({ description: "Computed: the targets' names (or tags), or what `_ALL` means" }),
    customerId: intId.optional(),
    createdAt: epochMs.optional(),
    readOnly: z.boolean().optional().openapi({ description: 'The caller sees the action only through read-only team assignments' }),
    teamAssignments: z.array(z.record(z.string(), z.unknown())).optional().openapi({ description: 'select-only: the teams of the action' }),
  })
  .openapi('WebhookAction');

const SimpleWebhookActionSchema = z.object({ id: intId, name: z.string() }).openapi('SimpleWebhookAction');
export const SimpleWebhookActionListSchema = z.object({ content: z.array(SimpleWebhookActionSchema) }).openapi('SimpleWebhookActionList');

const webhookScopes = ['WEBHOOK_CALL'] as const;
const scopes = z.object({ values: z.array(z.enum(webhookScopes)).max(1) }).openapi('WebhookKeyScopes');
const teamAccessList = z
  .object({ teams: z.array(z.object({ id: z.string().uuid(), readOnly: z.boolean().optional().default(false) })).max(1_000) })
  .openapi({ description: 'The teams of the key (a restricted key acts only on their resources)' });

export const WebhookApiKeyCreateSchema = z
  .object({
    name: resourceName,
    restricted: z.boolean().optional().openapi({ description: "Default false. True: the key acts only on its teams' resources" }),
    scopes: scopes.optional().openapi({ description: 'Default and only value: `WEBHOOK_CALL`' }),
    teamAccessList: teamAccessList.optional(),
    customerId: ignoredCustomerId.optional(),
  })
  .openapi('WebhookApiKeyCreate');

export const WebhookApiKeyUpdateSchema = z
  .object({
    name: resourceName.nullable().optional(),
    restricted: z.boolean().nullable().optional(),
    teamAccessList: teamAccessList.nullable().optional().openapi({ description: "Replaces the key's teams; omitted or null: kept" }),
  })
  .openapi('WebhookApiKeyUpdate', { description: 'Omitted or null attributes keep their value' });

export const WebhookApiKeySchema = z
  .object({
    id: z.string().uuid(),
    token: z.string().optional().openapi({ description: 'Only in the create response: the key, never retrievable again' }),
    name: z.string(),
    createdAt: epochMs,
    restricted: z.boolean(),
    scopes: z.object({ values: z.array(z.string()) }),
    teamAccessList: z.object({ teams: z.array(z.object({ id: z.string(), name: z.string().optional(), readOnly: z.boolean() })) }),
    customerId: intId,
    readOnly: z.boolean(),
  })
  .openapi('WebhookApiKey');

/** The trigger answer (spec 3, spec 5 §4). */
export const TriggerAnswerSchema = z
  .object({
    message: z.string(),
    errorReason: z.string().nullable(),
    executionId: z.string().uuid().optional().openapi({ description: 'When queued: the execution, listed under the action' }),
  })
  .openapi('WebhookTriggerAnswer');

export const executionOutcomes = ['SUCCEEDED', 'FAILED'] as const;
export const WebhookExecutionSchema = z
  .object({
    id: z.string().uuid(),
    actionId: intId,
    eventId: z.string(),
    receivedAt: epochMs,
    startedAt: epochMs.nullable().optional(),
    finishedAt: epochMs.nullable().optional(),
    outcome: z.enum(executionOutcomes).nullable().optional().openapi({ description: 'Absent while queued or running' }),
    detail: z.string().nullable().optional(),
    affected: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'How many devices, items, campaigns or files the action changed' }),
    apiKeyId: z
      .string()
      .uuid()
      .nullable()
      .optional()
      .openapi({ description: 'The key that triggered it; null for the console\'s "Try it"' }),
    triggeredBy: z.string().optional().openapi({ description: "The key's name, or the console user's e-mail" }),
  })
  .openapi('WebhookExecution');

/** Trigger payload fields of spec 3 (others pass through as parameters). */
export const TriggerPayloadSchema = z
  .object({
    event_id: z.string().optional(),
    eventId: z.string().optional(),
    data: z.string().optional().openapi({ description: 'JSON (as a string) for replace, merge and insert-into-array datasource actions' }),
    keySelector: z.string().optional(),
    minimumValue: z.number().int().optional(),
    maximumValue: z.number().int().optional(),
    index: z.number().int().optional(),
    contentId: z.string().optional(),
    message: z.string().optional(),
    sensorData: z.record(z.string(), z.unknown()).optional(),
    volumeLevel: z.number().int().optional(),
    priority: z.number().int().optional(),
    saturation: z.number().optional(),
    capIds: z.array(z.string()).optional(),
    removeAll: z.boolean().optional(),
  })
  .catchall(z.unknown())
  .openapi('WebhookTriggerPayload', {
    description: 'At least `event_id` (or `eventId`, or the `eventId` query parameter); the other fields as the action needs them',
  });

export type WebhookAction = z.infer<typeof WebhookActionSchema>;
export type WebhookActionCreate = z.infer<typeof WebhookActionCreateSchema>;
export type WebhookActionUpdate = z.infer<typeof WebhookActionUpdateSchema>;
export type SimpleWebhookAction = z.infer<typeof SimpleWebhookActionSchema>;
export type WebhookApiKey = z.infer<typeof WebhookApiKeySchema>;
export type WebhookApiKeyCreate = z.infer<typeof WebhookApiKeyCreateSchema>;
export type WebhookApiKeyUpdate = z.infer<typeof WebhookApiKeyUpdateSchema>;
export type WebhookExecution = z.infer<typeof WebhookExecutionSchema>;
export type TriggerAnswer = z.infer<typeof TriggerAnswerSchema>;
