import { eq } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import { auditOf } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import {
  assertWritable,
  assignTeams,
  modifyTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  readOnlyExpression,
  teamAccessCondition,
  type TeamAccessList,
  teamListQuery,
  type TeamModification,
  type TeamReadInput,
} from '@/server/modules/teams';
import { findPage, type ListInput, MAX_PAGE_SIZE } from '@/server/query';
import { nextEvaluationAfter } from './alert-evaluation';
import * as q from './alert-rules.queries';
import { alertRuleResource } from './alert-rules.resource';
import type { AlertCondition, AlertRule, AlertRuleBody, SimpleAlertRule } from './alert-rules.schemas';
import { alertRules, type AlertRuleRow } from './alerts.table';

const ENTITY = 'alertRule';
const auditRule = auditOf(ENTITY, (row: AlertRuleRow) => ({ entityId: row.id, entityName: row.name, customerId: row.customerId }));
const BY_NAME = ['name,asc'];

/** A row of the resource turned into spec 2's shape: `@type` beside `dtype`, the counters as `evaluate`. */
function toWire(item: Record<string, unknown>): AlertRule {
  const { evaluateCount, violationCount, lastEvaluationDate, lastViolationDate, ...rest } = item;
  const out: Record<string, unknown> = rest.dtype === undefined ? { ...rest } : { '@type': rest.dtype, ...rest };
  if (evaluateCount !== undefined || violationCount !== undefined)
    out.evaluate = {
      id: rest.id,
      evaluateCount: evaluateCount ?? 0,
      violationCount: violationCount ?? 0,
      ...(lastEvaluationDate == null ? {} : { lastEvaluationDate }),
      ...(lastViolationDate == null ? {} : { lastViolationDate }),
    };

  return out as AlertRule; // the resource's fields are those of AlertRuleSchema; the test harness checks every answer against it
}

/** GET /api/alertRule: paged, searchable, sortable (by name unless sorted), team read parameters. */
export async function listAlertRules(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, ENTITY, alertRules.id, input);
  const { sort, ...query } = team.query;
  const page = await findPage<Record<string, unknown>>(ctx.db, {
    resource: alertRuleResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns ?? readOnlyColumn(ctx, ENTITY, alertRules.id, { select: query.select }),
    sort: sort.length > 0 ? sort : BY_NAME,
    ...query,
  });

  return { ...page, content: page.content.map(toWire) };
}

/** GET /api/alertRule/simplePaged: `{id, name, readOnly}` of the rules the caller sees, paged. */
export function listSimpleAlertRulesPaged(ctx: ServiceContext, input: Omit<ListInput, 'select'>) {
  const { sort, ...query } = input;

  return findPage<SimpleAlertRule>(ctx.db, {
    resource: alertRuleResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, ENTITY, alertRules.id)],
    select: 'id,name',
    extraColumns: { readOnly: readOnlyExpression(ctx, ENTITY, alertRules.id) },
    sort: sort.length > 0 ? sort : BY_NAME,
    ...query,
  });
}

/** GET /api/alertRule/simple: the same items, all of them up to 1 000, in `{content}`. */
export async function listSimpleAlertRules(ctx: ServiceContext, input: { search?: string }): Promise<{ content: SimpleAlertRule[] }> {
  const page = await listSimpleAlertRulesPaged(ctx, { search: input.search, sort: [], size: String(MAX_PAGE_SIZE) });

  return { content: page.content };
}

/** GET /api/alertRule/{alertRuleId}: one rule the caller sees (404 otherwise). */
export async function getAlertRule(ctx: ServiceContext, input: { id: number; select?: string }): Promise<AlertRule> {
  const found = await readAlertRule(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true });
  if (!found) throw new NotFoundError(ENTITY, input.id);

  return found;
}

/** POST /api/alertRule: names unique per customer (409); targets of the customer only (404); `ALERT_RULE` limit; `teamIds`. */
export async function createAlertRule(
  ctx: ServiceContext,
  input: { body: AlertRuleBody; teamIds?: string; now?: Date },
): Promise<AlertRule> {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'ALERT_RULE');
      const values = await ruleValues(tx, customerId, body);
      const row = await q.insertAlertRule(tx, {
        ...values,
        customerId,
        type: body['@type'],
        nextEvaluationAt: nextEvaluationAfter(values, input.now ?? new Date()),
      });
      await q.replaceRuleChannels(tx, row, channelIdsOf(body));
      if (parseTeamIdsParam(input.teamIds).length > 0) await assignTeams(tx, ctx, ENTITY, String(row.id), input.teamIds);
      await auditRule(tx, ctx, row, 'create', `Alert rule '${row.name}' created`, {
        ...values,
        type: row.type,
        notificationChannels: channelIdsOf(body),
      });

      return (await readAlertRule(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/**
 * PUT /api/alertRule/{alertRuleId}: the body replaces the rule (spec 2: name, `@type`, condition, working days and time
 * and channels are sent again); `@type` cannot change (400 `alertRule.error.typeImmutable`). The evaluation counters
 * and the open alerts stay; a rule that stops evaluating (disabled, null working days) closes its open alerts.
 */
export async function updateAlertRule(ctx: ServiceContext, input: { id: number; body: AlertRuleBody; now?: Date }): Promise<AlertRule> {
  const { body } = input;
  const now = input.now ?? new Date();

  return uniqueName(body.name, () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableAlertRule(tx, ctx, input.id);
      if (body['@type'] !== row.type)
        throw new ValidationError(
          'alertRule.error.typeImmutable',
          `The type of an alert rule cannot change (it is ${row.type}): delete and recreate it`,
          {
            issues: [{ path: '@type', message: `Must stay ${row.type}` }],
          },
        );
      const values = await ruleValues(tx, row.customerId, body);
      const nextEvaluationAt = nextEvaluationAfter(values, now);
      await q.updateAlertRule(tx, row, { ...values, nextEvaluationAt });
      await q.replaceRuleChannels(tx, row, channelIdsOf(body));
      if (nextEvaluationAt === null) await q.closeOpenAlerts(tx, row, now);
      await auditRule(tx, ctx, { ...row, name: values.name }, 'update', `Alert rule '${values.name}' updated`, {
        ...values,
        notificationChannels: channelIdsOf(body),
      });

      return (await readAlertRule(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** DELETE /api/alertRule/{alertRuleId}: the rule with its alerts and channel links. */
export async function deleteAlertRule(ctx: ServiceContext, input: { id: number }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableAlertRule(tx, ctx, input.id);
    await q.deleteAlertRule(tx, row);
    await auditRule(tx, ctx, row, 'delete', `Alert rule '${row.name}' deleted`);
  });
}

/** POST /api/alertRule/updateTeamAssignments?alertRuleId= (OWNER). */
export function updateAlertRuleTeams(ctx: ServiceContext, input: { id: number; body: TeamModification }): Promise<TeamAccessList> {
  return withTransaction(ctx.db, (tx) => modifyTeams(tx, ctx, ENTITY, String(input.id), input.body));
}

const channelIdsOf = (body: AlertRuleBody): number[] => (body.notificationChannels ?? []).map((c) => c.id);

/**
 * The stored values of a body, its references checked in the customer: the watched and excluded folders and devices,
 * the channels. Another tenant's or an unknown id is 404, as everywhere (DECISIONS §3).
 */
async function ruleValues(tx: Executor, customerId: number, body: AlertRuleBody) {
  const channelIds = channelIdsOf(body);
  const channels = await q.existingChannelIds(tx, customerId, channelIds);
  const missingChannel = channelIds.find((id) => !channels.has(id));
  if (missingChannel !== undefined) throw new NotFoundError('notificationChannel', missingChannel);

  return {
    name: body.name,
    comment: body.comment ?? '',
    enabled: body.enabled ?? true,
    condition: await storedCondition(tx, customerId, body),
    delayEvaluateAfterViolationMinutes: body.delayEvaluateAfterViolationMinutes ?? 0,
    scheduledEvaluateSeconds: body.scheduledEvaluateSeconds ?? 300,
    workingDays: body.workingDays,
    workingTime: body.workingTime,
    alertEmailTemplate: body.alertEmailTemplate ?? null,
    evaluateSummaryEmailTemplate: body.evaluateSummaryEmailTemplate ?? null,
    alertSmsTemplate: body.alertSmsTemplate ?? null,
    alertFixedSmsTemplate: body.alertFixedSmsTemplate ?? null,
  };
}

async function storedCondition(tx: Executor, customerId: number, body: AlertRuleBody): Promise<AlertCondition> {
  if (body['@type'] === 'DatasourceError') return { '@type': 'DatasourceRefreshErrorCondition', threshold: body.condition.threshold };
  const c = body.condition;
  const lower = (ids: readonly string[] | undefined) => [...new Set((ids ?? []).map((id) => id.toLowerCase()))];
  const folderId = c.deviceGroupId.toLowerCase();
  const excludeDeviceIds = lower(c.excludeDeviceIds);
  const excludeDeviceGroupIds = lower(c.excludeDeviceGroupIds);
  const folders = await q.existingDeviceGroupIds(tx, customerId, [folderId, ...excludeDeviceGroupIds]);
  const missingFolder = [folderId, ...excludeDeviceGroupIds].find((id) => !folders.has(id));
  if (missingFolder !== undefined) throw new NotFoundError('deviceGroup', missingFolder);
  const found = await q.existingDeviceIds(tx, customerId, excludeDeviceIds);
  const missingDevice = excludeDeviceIds.find((id) => !found.has(id));
  if (missingDevice !== undefined) throw new NotFoundError('device', missingDevice);

  return {
    '@type': 'DeviceOfflineAndNoActivityForMinutes',
    inactiveMinutes: c.inactiveMinutes,
    deviceGroupId: folderId,
    recursive: c.recursive ?? true,
    excludeDeviceIds,
    excludeDeviceGroupIds,
    tagFilter: c.tagFilter && c.tagFilter.tags.length > 0 ? c.tagFilter : null,
  };
}

async function readAlertRule(db: Executor, ctx: ServiceContext, id: number, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<Record<string, unknown>>(db, {
    resource: alertRuleResource,
    scope: ctx.scope,
    where: [eq(alertRules.id, id), options.visibleOnly ? teamAccessCondition(ctx, ENTITY, alertRules.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, ENTITY, alertRules.id, { select: options.select }),
    size: '1',
  });
  const item = page.content[0];

  return item ? toWire(item) : undefined;
}

/** The row (locked) when the caller may write it: 404 when invisible, 403 through read-only teams. */
async function writableAlertRule(tx: Executor, ctx: ServiceContext, id: number): Promise<AlertRuleRow> {
  const row = await q.lockAlertRule(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, String(row.id));

  return row;
}

async function uniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'alert_rule_customer_name_key'))
      throw new ConflictError('alertRule.error.nameExists', `An alert rule named '${name}' already exists`, { name });
    throw err;
  }
}
