import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema, SelectQuerySchema } from '@/server/http/list-query';
import { conflictError } from '@/server/http/responses';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import {
  SELECT_TEAM_IDS_EXEMPTION,
  TEAM_IDS_EXEMPTION,
  TeamAccessListSchema,
  teamIdsParam,
  TeamModificationSchema,
  TeamReadQueryExtension,
} from '@/server/modules/teams/teams.schemas';
import { AlertRuleBodySchema, AlertRuleSchema, SimpleAlertRuleListSchema, SimpleAlertRuleSchema } from './alert-rules.schemas';

/* Spec 2 "Alert rules, notification channels, alerts": TECHNICIAN manages rules; OWNER assigns their teams. */
const BASE = '/api/alertRule';
const tags = ['Alert rules'];
const access = { minRole: 'TECHNICIAN', tenant: 'scoped' } as const;
const IdParams = z.object({
  alertRuleId: intIdParam.openapi({ param: { name: 'alertRuleId', in: 'path' }, description: 'The alert rule' }),
});
const ScopeQuery = z.object({ customerId: customerIdParam });
const ruleResponse = (description: string) => ({ description, ...json(AlertRuleSchema) });
const byId = { resourceIds: { 'path.alertRuleId': 'alertRule' } } as const;
/** The ids a rule's body names: each must be the customer's (404 otherwise). */
const bodyIds = {
  'body.notificationChannels[].id': 'notificationChannel',
  'body.condition.deviceGroupId': 'deviceGroup',
  'body.condition.excludeDeviceIds[]': 'device',
  'body.condition.excludeDeviceGroupIds[]': 'deviceGroup',
} as const;
const WRITE_NOTE =
  'Names are unique in the customer (409 `alertRule.error.nameExists`). The folder, excluded folders and devices and the channels must ' +
  'be the customer’s (404). `workingTime` is required (null: 400); `workingDays` null never evaluates; a bounded window needs ' +
  '`timeZone` and `end` after `from`; `scheduledEvaluateSeconds` at least 60.';

export const listAlertRulesRoute = defineRoute(
  access,
  {
    method: 'get',
    path: BASE,
    operationId: 'listAlertRules',
    tags,
    summary: 'Alert rules, paged',
    description: 'Team visibility applies; by name unless `sort` says otherwise. Search fields include `dtype`, `enabled`, `name`.',
    request: { query: ScopedListQuerySchema.extend(TeamReadQueryExtension) },
    responses: { 200: { description: 'A page of alert rules', ...json(pageOf(AlertRuleSchema, 'AlertRulePage')) } },
  },
  { notResourceIds: SELECT_TEAM_IDS_EXEMPTION },
);

export const listSimpleAlertRulesRoute = defineRoute(access, {
  method: 'get',
  path: `${BASE}/simple`,
  operationId: 'listSimpleAlertRules',
  tags,
  summary: 'Id, name and readOnly of every alert rule the caller sees',
  description: 'By name; at most 1 000 items (use /simplePaged beyond).',
  request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search }) },
  responses: { 200: { description: 'The alert rules', ...json(SimpleAlertRuleListSchema) } },
});

export const listSimpleAlertRulesPagedRoute = defineRoute(access, {
  method: 'get',
  path: `${BASE}/simplePaged`,
  operationId: 'listSimpleAlertRulesPaged',
  tags,
  summary: 'Id, name and readOnly of the alert rules the caller sees, paged',
  request: { query: ScopedListQuerySchema.omit({ select: true }) },
  responses: { 200: { description: 'A page of alert rules', ...json(pageOf(SimpleAlertRuleSchema, 'SimpleAlertRulePage')) } },
});

export const getAlertRuleRoute = defineRoute(
  access,
  {
    method: 'get',
    path: `${BASE}/{alertRuleId}`,
    operationId: 'getAlertRule',
    tags,
    summary: 'One alert rule',
    request: { params: IdParams, query: SelectQuerySchema.extend({ customerId: customerIdParam }) },
    responses: { 200: ruleResponse('The alert rule') },
  },
  byId,
);

export const createAlertRuleRoute = defineRoute(
  access,
  {
    method: 'post',
    path: BASE,
    operationId: 'createAlertRule',
    tags,
    summary: 'Create an alert rule in the selected customer',
    description: `${WRITE_NOTE} Counts against the \`ALERT_RULE\` resource limit.`,
    request: { query: ScopeQuery.extend({ teamIds: teamIdsParam }), body: { required: true, ...json(AlertRuleBodySchema) } },
    responses: { 201: ruleResponse('The created alert rule'), ...conflictError },
  },
  { resourceIds: bodyIds, notResourceIds: TEAM_IDS_EXEMPTION },
);

export const updateAlertRuleRoute = defineRoute(
  access,
  {
    method: 'put',
    path: `${BASE}/{alertRuleId}`,
    operationId: 'updateAlertRule',
    tags,
    summary: 'Replace an alert rule',
    description: `The body replaces the rule; \`@type\` cannot change (400 \`alertRule.error.typeImmutable\`: delete and recreate). ${WRITE_NOTE}`,
    request: { params: IdParams, query: ScopeQuery, body: { required: true, ...json(AlertRuleBodySchema) } },
    responses: { 200: ruleResponse('The updated alert rule'), ...conflictError },
  },
  { resourceIds: { ...byId.resourceIds, ...bodyIds } },
);

export const deleteAlertRuleRoute = defineRoute(
  access,
  {
    method: 'delete',
    path: `${BASE}/{alertRuleId}`,
    operationId: 'deleteAlertRule',
    tags,
    summary: 'Delete an alert rule with its alerts',
    request: { params: IdParams, query: ScopeQuery },
    responses: { 204: { description: 'Deleted' } },
  },
  byId,
);

export const updateAlertRuleTeamsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'post',
    path: `${BASE}/updateTeamAssignments`,
    operationId: 'updateAlertRuleTeamAssignments',
    tags: [...tags, 'Teams'],
    summary: 'Change the teams of an alert rule',
    request: {
      query: ScopeQuery.extend({ alertRuleId: intIdParam.openapi({ description: 'The alert rule' }) }),
      body: { required: true, ...json(TeamModificationSchema) },
    },
    responses: { 200: { description: "The rule's teams afterwards", ...json(TeamAccessListSchema) } },
  },
  { resourceIds: { 'query.alertRuleId': 'alertRule', 'body.removeFromTeamIds[]': 'team' } },
);
