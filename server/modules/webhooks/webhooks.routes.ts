import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError, sharedErrors } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam, uuid } from '@/server/http/wire.schemas';
import {
  SELECT_TEAM_IDS_EXEMPTION,
  TEAM_IDS_EXEMPTION,
  TeamAccessListSchema,
  teamIdsParam,
  TeamModificationSchema,
  TeamReadQueryExtension,
} from '@/server/modules/teams/teams.schemas';
import { TRIGGER_BODY_LIMIT, TRIGGERS_PER_SECOND } from './webhook-limits';
import {
  SimpleWebhookActionListSchema,
  TriggerAnswerSchema,
  TriggerPayloadSchema,
  WebhookActionCreateSchema,
  WebhookActionSchema,
  WebhookActionUpdateSchema,
  WebhookApiKeyCreateSchema,
  WebhookApiKeySchema,
  WebhookApiKeyUpdateSchema,
  WebhookExecutionSchema,
} from './webhooks.schemas';

/* Spec 3 "Webhook actions and keys", "Authentication and trigger endpoints"; spec 5 §4; DECISIONS §5, §6. */
const tags = ['Webhooks'];
const access = { minRole: 'TECHNICIAN', tenant: 'scoped' } as const;
const owner = { minRole: 'OWNER', tenant: 'scoped' } as const;
const ACTIONS = '/api/webhookEvent/actions';
const KEYS = '/api/webhooks/apikey';
const ScopeQuery = z.object({ customerId: customerIdParam });
const ActionIdParams = z.object({
  actionId: intIdParam.openapi({ param: { name: 'actionId', in: 'path' }, description: 'The webhook action' }),
});
const KeyIdParams = z.object({ id: uuid.openapi({ param: { name: 'id', in: 'path' }, description: 'The webhook API key' }) });
const KeyTeamParams = z.object({
  webhookApiKeyId: uuid.openapi({ param: { name: 'webhookApiKeyId', in: 'path' }, description: 'The webhook API key' }),
});
const actionResponse = (description: string) => ({ description, ...json(WebhookActionSchema) });
const keyResponse = (description: string) => ({ description, ...json(WebhookApiKeySchema) });
const byActionId = { resourceIds: { 'path.actionId': 'webhookEventAction' } } as const;
const TARGET_IDS_REASON =
  'device, device folder, datasource, campaign or file folder ids, or tags, by the action type: checked by the service (404 for ids not of the tenant)';
const EVENT_ID_REASON = 'a name the customer chose (unique in the customer), not the id of a resource';
const actionTargets = { 'body.targetId': TARGET_IDS_REASON, 'body.eventId': EVENT_ID_REASON };
const PAYLOAD_IDS_REASON =
  'trigger payload fields read when the action runs: an id not of the tenant makes the execution fail with the reason';

export const listWebhookActionsRoute = defineRoute(
  access,
  {
    method: 'get',
    path: ACTIONS,
    operationId: 'listWebhookActions',
    tags,
    summary: 'Webhook actions, paged',
    description: 'Team visibility applies; by name unless `sort` says otherwise.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of webhook actions', ...json(pageOf(WebhookActionSchema, 'WebhookActionPage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const listSimpleWebhookActionsRoute = defineRoute(access, {
  method: 'get',
  path: '/api/webhookEvent/simple',
  operationId: 'listSimpleWebhookActions',
  tags,
  summary: 'Id and name of every webhook action the caller sees',
  description: 'By name; at most 1 000 items.',
  request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search }) },
  responses: { 200: { description: 'The webhook actions', ...json(SimpleWebhookActionListSchema) } },
});

export const getWebhookActionRoute = defineRoute(
  access,
  {
    method: 'get',
    path: `${ACTIONS}/{actionId}`,
    operationId: 'getWebhookAction',
    tags,
    summary: 'One webhook action',
    request: { params: ActionIdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: actionResponse('The webhook action') },
  },
  byActionId,
);

export const createWebhookActionRoute = defineRoute(
  access,
  {
    method: 'post',
    path: ACTIONS,
    operationId: 'createWebhookAction',
    tags,
    summary: 'Create a webhook action in the selected customer',
    description:
      'Created disabled unless `enabled` is true. `eventId` is unique in the customer (409 `webhookAction.error.eventIdExists`). ' +
      'Targets are of the kind the action type names (devices; device folders for `_GROUP`; tags for `_TAG` and `_BY_TAGS`, or `actionParams.tag`; ' +
      'datasources; campaigns; file folders) and of the customer (404 otherwise); an action that needs targets without any: 400 ' +
      '`webhookAction.error.targetRequired`. Counts against the `WEBHOOK` resource limit.',
    request: { query: ScopeQuery.extend({ teamIds: teamIdsParam }), body: { required: true, ...json(WebhookActionCreateSchema) } },
    responses: { 201: actionResponse('The created webhook action'), ...conflictError },
  },
  { notResourceIds: { ...TEAM_IDS_EXEMPTION, ...actionTargets } },
);

export const updateWebhookActionRoute = defineRoute(
  access,
  {
    method: 'put',
    path: `${ACTIONS}/{actionId}`,
    operationId: 'updateWebhookAction',
    tags,
    summary: 'Change a webhook action',
    description:
      '`name`, `enabled`, `action` and `actionParams` are sent together (omitted `enabled` becomes false, omitted `actionParams` none). ' +
      'Omitted targets and a missing or empty `eventId` are kept; a new `eventId` must be unique in the customer (409).',
    request: { params: ActionIdParams, query: ScopeQuery, body: { required: true, ...json(WebhookActionUpdateSchema) } },
    responses: { 200: actionResponse('The updated webhook action'), ...conflictError },
  },
  { resourceIds: { 'path.actionId': 'webhookEventAction' }, notResourceIds: actionTargets },
);

export const deleteWebhookActionRoute = defineRoute(
  access,
  {
    method: 'delete',
    path: `${ACTIONS}/{actionId}`,
    operationId: 'deleteWebhookAction',
    tags,
    summary: 'Delete a webhook action (and its executions)',
    request: { params: ActionIdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' } },
  },
  byActionId,
);

export const updateWebhookActionTeamsRoute = defineRoute(
  owner,
  {
    method: 'post',
    path: `${ACTIONS}/{actionId}/updateTeamAssignments`,
    operationId: 'updateWebhookActionTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a webhook action',
    request: { params: ActionIdParams, query: ScopeQuery, body: { required: true, ...json(TeamModificationSchema) } },
    responses: { 200: { description: "The action's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'path.actionId': 'webhookEventAction', 'body.removeFromTeamIds[]': 'team' } },
);

export const listWebhookExecutionsRoute = defineRoute(
  access,
  {
    method: 'get',
    path: `${ACTIONS}/{actionId}/executions`,
    operationId: 'listWebhookExecutions',
    tags,
    summary: 'What the triggers of an action did, newest first',
    description:
      'Each accepted trigger: when it was received, started and finished, its outcome (null while queued or running), what it changed.',
    request: {
      params: ActionIdParams,
      query: z.object({ customerId: customerIdParam, page: ListQuerySchema.shape.page, size: ListQuerySchema.shape.size }),
    },
    responses: { 200: { description: 'A page of executions', ...json(pageOf(WebhookExecutionSchema, 'WebhookExecutionPage')) } },
  },
  byActionId,
);

export const tryWebhookActionRoute = defineRoute(
  access,
  {
    method: 'post',
    path: `${ACTIONS}/{actionId}/test`,
    operationId: 'tryWebhookAction',
    tags,
    summary: 'Fire the action as its trigger would, as the signed-in user (the console\'s "Try it")',
    description: 'Answered like a trigger: 202 with the queued execution, or 200 with `errorReason: "disabled"` for a disabled action.',
    request: { params: ActionIdParams, query: ScopeQuery, body: { required: false, ...json(TriggerPayloadSchema) } },
    responses: {
      202: { description: 'Queued', ...json(TriggerAnswerSchema) },
      200: { description: 'Disabled: nothing runs', ...json(TriggerAnswerSchema) },
    },
  },
  {
    resourceIds: { 'path.actionId': 'webhookEventAction' },
    notResourceIds: {
      'body.eventId': EVENT_ID_REASON,
      'body.contentId': PAYLOAD_IDS_REASON,
      'body.capIds': "CAP alert identifiers of the datasource's feed",
    },
    bodyLimit: TRIGGER_BODY_LIMIT,
  },
);

export const listWebhookApiKeysRoute = defineRoute(access, {
  method: 'get',
  path: KEYS,
  operationId: 'listWebhookApiKeys',
  tags,
  summary: 'Webhook API keys, paged (never their tokens)',
  request: {
    query: z.object({
      customerId: customerIdParam,
      page: ListQuerySchema.shape.page,
      size: ListQuerySchema.shape.size,
      sort: ListQuerySchema.shape.sort,
      search: ListQuerySchema.shape.search,
    }),
  },
  responses: { 200: { description: 'A page of keys', ...json(pageOf(WebhookApiKeySchema, 'WebhookApiKeyPage')) } },
});

export const createWebhookApiKeyRoute = defineRoute(
  access,
  {
    method: 'post',
    path: KEYS,
    operationId: 'createWebhookApiKey',
    tags,
    summary: 'Create a webhook API key; the answer carries its token, once',
    description:
      'The token is a JWT (scope `WEBHOOK_CALL`, `customer_id`, the key id as `jti`); it is not stored and cannot be read again.',
    request: { query: ScopeQuery.extend({ teamIds: teamIdsParam }), body: { required: true, ...json(WebhookApiKeyCreateSchema) } },
    responses: { 201: keyResponse('The created key, with its token') },
  },
  { notResourceIds: TEAM_IDS_EXEMPTION, resourceIds: { 'body.teamAccessList.teams[].id': 'team' } },
);

export const updateWebhookApiKeyRoute = defineRoute(
  access,
  {
    method: 'put',
    path: `${KEYS}/{id}`,
    operationId: 'updateWebhookApiKey',
    tags,
    summary: 'Change the name, restriction or teams of a webhook API key',
    request: { params: KeyIdParams, query: ScopeQuery, body: { required: true, ...json(WebhookApiKeyUpdateSchema) } },
    responses: { 200: keyResponse('The key afterwards (without its token)') },
  },
  { resourceIds: { 'path.id': 'webhookApiKey', 'body.teamAccessList.teams[].id': 'team' } },
);

export const deleteWebhookApiKeyRoute = defineRoute(
  access,
  {
    method: 'delete',
    path: `${KEYS}/{id}`,
    operationId: 'deleteWebhookApiKey',
    tags,
    summary: 'Delete (revoke) a webhook API key',
    description: 'The key stops working at once, on every instance.',
    request: { params: KeyIdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' } },
  },
  { resourceIds: { 'path.id': 'webhookApiKey' } },
);

export const updateWebhookApiKeyTeamsRoute = defineRoute(
  owner,
  {
    method: 'post',
    path: `${KEYS}/{webhookApiKeyId}/updateTeamAssignments`,
    operationId: 'updateWebhookApiKeyTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of a webhook API key',
    request: { params: KeyTeamParams, query: ScopeQuery, body: { required: true, ...json(TeamModificationSchema) } },
    responses: { 200: { description: "The key's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'path.webhookApiKeyId': 'webhookApiKey', 'body.removeFromTeamIds[]': 'team' } },
);

const triggerResponses = {
  202: { description: 'Queued: the action runs in the background', ...json(TriggerAnswerSchema) },
  200: { description: '`errorReason: "disabled"`: the action is disabled and nothing runs', ...json(TriggerAnswerSchema) },
  404: { description: '`errorReason: "unknownEventId"`: no action of the key\'s customer has the event id', ...json(TriggerAnswerSchema) },
  401: {
    ...sharedErrors[401],
    description: 'Missing, malformed, tampered or revoked webhook API key (`webhook.error.invalidKey`)',
    headers: { 'WWW-Authenticate': { description: '`Webhook-Apikey`', schema: { type: 'string' as const } } },
  },
  403: { ...sharedErrors[403], description: 'The customer is restricted (`auth.error.customerRestricted`)' },
};
const RATE_LIMITED = `triggers of one webhook API key, ${TRIGGERS_PER_SECOND} a second`;
const triggerDescription =
  `The key selects the customer. A key answers at most ${TRIGGERS_PER_SECOND} triggers a second (429 beyond, with Retry-After). ` +
  'Success means the execution was queued, not that it finished: see `GET /api/webhookEvent/actions/{actionId}/executions`.';

export const postTriggerRoute = defineRoute(
  { public: true },
  {
    method: 'post',
    path: '/public-api/integration/webhooks',
    operationId: 'triggerWebhook',
    tags,
    summary: 'Trigger a webhook action (header key)',
    description: `${triggerDescription} The body is JSON or XML (the root element's children are the fields); the event id is \`event_id\`, \`eventId\` or the \`eventId\` query parameter. At most 256 KiB.`,
    security: [{ webhookApiKey: [] }],
    request: {
      headers: z.object({ 'x-webhook-apikey': z.string().optional().openapi({ description: 'The webhook API key' }) }),
      query: z.object({
        eventId: z.string().max(255).optional().openapi({ description: 'The event id, when the body does not carry it' }),
      }),
      body: {
        required: false,
        content: {
          'application/json': { schema: TriggerPayloadSchema },
          'application/xml': { schema: z.string().openapi({ description: 'XML whose root element holds the payload fields' }) },
          'text/xml': { schema: z.string().openapi({ description: 'As application/xml' }) },
        },
      },
    },
    responses: triggerResponses,
  },
  {
    bodyLimit: TRIGGER_BODY_LIMIT,
    rateLimited: RATE_LIMITED,
  },
);

export const getTriggerRoute = defineRoute(
  { public: true },
  {
    method: 'get',
    path: '/public-api/integration/webhooks',
    operationId: 'triggerWebhookByQuery',
    tags,
    summary: 'Trigger a webhook action (query key)',
    description: `${triggerDescription} Prefer the POST form: a key in a URL ends up in proxies' logs (this server never logs the query string).`,
    security: [{ webhookApiKey: [] }],
    request: {
      query: z.object({
        apiKey: z.string().max(4_096).optional().openapi({ description: 'The webhook API key' }),
        payload: z.string().min(1).max(350_000).openapi({ description: 'Base64 of a JSON object with at least `event_id`' }),
      }),
    },
    responses: triggerResponses,
  },
  { rateLimited: RATE_LIMITED },
);
