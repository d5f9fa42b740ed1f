import { eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { ServiceContext } from '@/server/context/service-context';
import { teamAccessCondition } from '@/server/modules/teams';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import { alertResource } from './alerts.resource';
import type { Alert, DatasourceAlert, DeviceAlert } from './alerts.schemas';
import { alerts } from './alerts.table';

const GENERIC = 'id,createdAtDate,closedAtDate,open,alertRuleId,customerId';
const DEVICE = `${GENERIC},alertRuleName,deviceId,deviceName,deviceLastActivity,deviceLastStatusChange,deviceGroupId,deviceGroupPath,folderPath`;
const DATASOURCE = `${GENERIC},alertRuleName,datasourceId,datasourceName,datasourceErrorCounter,datasourceLastError`;
const NEWEST_FIRST = ['createdAtDate,desc', 'id,desc'];

/** The list filters of ours beside `search`: the state and the rule. */
export type AlertFilter = { state?: 'OPEN' | 'CLOSED'; alertRuleId?: number };

function filterConditions(filter: AlertFilter): Array<SQL | undefined> {
  return [
    filter.state === 'OPEN' ? isNull(alerts.closedAt) : filter.state === 'CLOSED' ? isNotNull(alerts.closedAt) : undefined,
    filter.alertRuleId === undefined ? undefined : eq(alerts.alertRuleId, filter.alertRuleId),
  ];
}

const listOptions = (input: ListInput) => ({ ...input, sort: input.sort.length > 0 ? input.sort : NEWEST_FIRST });

/** GET /api/alert (OWNER): the generic records of every alert, newest first. */
export function listAlerts(ctx: ServiceContext, input: ListInput & AlertFilter) {
  const { state, alertRuleId, ...query } = input;

  return findPage<Alert>(ctx.db, {
    resource: alertResource,
    scope: ctx.scope,
    where: filterConditions({ state, alertRuleId }),
    defaultSelect: GENERIC,
    ...listOptions(query),
  });
}

/** GET /api/alert/device (VIEWER): device alerts of the devices the caller sees (teams), newest first. */
export function listDeviceAlerts(ctx: ServiceContext, input: ListInput & AlertFilter) {
  const { state, alertRuleId, ...query } = input;

  return findPage<DeviceAlert>(ctx.db, {
    resource: alertResource,
    scope: ctx.scope,
    where: [eq(alerts.kind, 'DEVICE'), teamAccessCondition(ctx, 'device', alerts.deviceId), ...filterConditions({ state, alertRuleId })],
    defaultSelect: DEVICE,
    ...listOptions(query),
  });
}

/** GET /api/alert/datasource (VIEWER): datasource alerts of the datasources the caller sees, newest first. */
export function listDatasourceAlerts(ctx: ServiceContext, input: ListInput & AlertFilter) {
  const { state, alertRuleId, ...query } = input;

  return findPage<DatasourceAlert>(ctx.db, {
    resource: alertResource,
    scope: ctx.scope,
    where: [
      eq(alerts.kind, 'DATASOURCE'),
      teamAccessCondition(ctx, 'datasource', alerts.datasourceId),
      ...filterConditions({ state, alertRuleId }),
    ],
    defaultSelect: DATASOURCE,
    ...listOptions(query),
  });
}

/** GET /api/alert/device/all (VIEWER): the OPEN device alerts, unpaged (at most 1 000, newest first). */
export async function listAllDeviceAlerts(ctx: ServiceContext, input: { search?: string }): Promise<DeviceAlert[]> {
  const page = await listDeviceAlerts(ctx, { search: input.search, sort: [], size: String(MAX_PAGE_SIZE), state: 'OPEN' });

  return page.content;
}
