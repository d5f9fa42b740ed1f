import { z } from '@hono/zod-openapi';
import { customerIdParam, json, ListQuerySchema, pageOf, ScopedListQuerySchema } from '@/server/http/list-query';
import { defineRoute } from '@/server/http/route';
import { intIdParam } from '@/server/http/wire.schemas';
import { AlertSchema, alertStates, DatasourceAlertSchema, DeviceAlertSchema } from './alerts.schemas';

/* Spec 2 "Alert rules, notification channels, alerts": the alert records. */
const tags = ['Alerts'];
const FilterQuery = ScopedListQuerySchema.extend({
  state: z.enum(alertStates).optional().openapi({ description: 'OPEN: still open; CLOSED: recovered; omitted: both' }),
  alertRuleId: intIdParam.optional().openapi({ description: 'Only the alerts of this rule' }),
});
const RULE_FILTER = { 'query.alertRuleId': 'a filter: another tenant’s rule matches nothing' } as const;
const NEWEST = 'Newest first unless `sort` says otherwise.';

export const listAlertsRoute = defineRoute(
  { minRole: 'OWNER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/alert',
    operationId: 'listAlerts',
    tags,
    summary: 'Alerts (generic records), paged',
    description: NEWEST,
    request: { query: FilterQuery },
    responses: { 200: { description: 'A page of alerts', ...json(pageOf(AlertSchema, 'AlertPage')) } },
  },
  { notResourceIds: RULE_FILTER },
);

export const listDeviceAlertsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/alert/device',
    operationId: 'listDeviceAlerts',
    tags,
    summary: 'Device alerts, paged',
    description: `Alerts of the devices the caller sees (teams). ${NEWEST}`,
    request: { query: FilterQuery },
    responses: { 200: { description: 'A page of device alerts', ...json(pageOf(DeviceAlertSchema, 'DeviceAlertPage')) } },
  },
  { notResourceIds: RULE_FILTER },
);

export const listDatasourceAlertsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/alert/datasource',
    operationId: 'listDatasourceAlerts',
    tags,
    summary: 'Datasource alerts, paged',
    description: `Alerts of the datasources the caller sees (teams). ${NEWEST}`,
    request: { query: FilterQuery },
    responses: { 200: { description: 'A page of datasource alerts', ...json(pageOf(DatasourceAlertSchema, 'DatasourceAlertPage')) } },
  },
  { notResourceIds: RULE_FILTER },
);

export const listAllDeviceAlertsRoute = defineRoute(
  { minRole: 'VIEWER', tenant: 'scoped' },
  {
    method: 'get',
    path: '/api/alert/device/all',
    operationId: 'listAllDeviceAlerts',
    tags,
    summary: 'The open device alerts, unpaged',
    description: 'Every open alert of the devices the caller sees, newest first (at most 1 000).',
    request: { query: z.object({ customerId: customerIdParam, search: ListQuerySchema.shape.search }) },
    responses: { 200: { description: 'The open device alerts', ...json(z.array(DeviceAlertSchema)) } },
  },
);
