import { eq } from 'drizzle-orm';
import { targetCustomerId } from '@/server/auth/tenant-scope';
import type { ServiceContext } from '@/server/context/service-context';
import type { Executor } from '@/server/db/client';
import { isUniqueViolation } from '@/server/db/errors';
import { withTransaction } from '@/server/db/transaction';
import { ConflictError, NotFoundError, ValidationError } from '@/server/errors';
import { INVALID_COMBINATION } from '@/server/http/wire.schemas';
import { auditOf, diffFields } from '@/server/modules/audit-log';
import { assertWithinLimit } from '@/server/modules/resource-limits';
import {
  assertWritable,
  assignTeams,
  modifyTeams,
  parseTeamIdsParam,
  readOnlyColumn,
  teamAccessCondition,
  teamListQuery,
  type TeamModification,
  type TeamReadInput,
} from '@/server/modules/teams';
import { buildPage, findPage, type ListInput, MAX_PAGE_SIZE, parsePaging } from '@/server/query';
import * as q from './webhooks.queries';
import { webhookActionResource } from './webhooks.resource';
import {
  actionTargetOf,
  MAX_TARGETS,
  type SimpleWebhookAction,
  type WebhookAction,
  type WebhookActionCreate,
  type WebhookActionUpdate,
  type WebhookExecution,
} from './webhooks.schemas';
import { webhookActions, type WebhookActionRow, type WebhookExecutionRow } from './webhooks.table';

const ENTITY = 'webhookEventAction';
const auditAction = auditOf(ENTITY, (row: WebhookActionRow) => ({ entityId: row.id, entityName: row.name, customerId: row.customerId }));
const BY_NAME = ['name,asc'];

/** GET /api/webhookEvent/actions: paged, searchable, sortable (by name unless sorted), team read parameters. */
export function listWebhookActions(ctx: ServiceContext, input: ListInput & TeamReadInput) {
  const team = teamListQuery(ctx, ENTITY, webhookActions.id, input);
  const { sort, ...query } = team.query;

  return findPage<WebhookAction>(ctx.db, {
    resource: webhookActionResource,
    scope: ctx.scope,
    where: [team.where],
    extraColumns: team.extraColumns ?? readOnlyColumn(ctx, ENTITY, webhookActions.id, { select: query.select }),
    sort: sort.length > 0 ? sort : BY_NAME,
    ...query,
  });
}

/** GET /api/webhookEvent/simple: `{content: [{id, name}]}` of the actions the caller sees, by name (at most 1 000). */
export async function listSimpleWebhookActions(
  ctx: ServiceContext,
  input: { search?: string },
): Promise<{ content: SimpleWebhookAction[] }> {
  const page = await findPage<SimpleWebhookAction>(ctx.db, {
    resource: webhookActionResource,
    scope: ctx.scope,
    where: [teamAccessCondition(ctx, ENTITY, webhookActions.id)],
    select: 'id,name',
    search: input.search,
    sort: BY_NAME,
    size: String(MAX_PAGE_SIZE),
  });

  return { content: page.content };
}

/** GET /api/webhookEvent/actions/{actionId}: one action the caller sees (404 otherwise). */
export async function getWebhookAction(ctx: ServiceContext, input: { id: number; select?: string }): Promise<WebhookAction> {
  const found = await readAction(ctx.db, ctx, input.id, { select: input.select, visibleOnly: true });
  if (!found) throw new NotFoundError(ENTITY, input.id);

  return found;
}

/**
 * POST /api/webhookEvent/actions: created disabled unless `enabled` (spec 1 "Events" 3), `eventId` unique in the
 * customer (409), the WEBHOOK resource limit, targets of the customer and of the action's kind.
 */
export async function createWebhookAction(
  ctx: ServiceContext,
  input: { body: WebhookActionCreate; teamIds?: string },
): Promise<WebhookAction> {
  const { body } = input;
  const customerId = targetCustomerId(ctx.scope, ctx.actor);

  return uniqueEventId(body.eventId, () =>
    withTransaction(ctx.db, async (tx) => {
      await assertWithinLimit(tx, customerId, 'WEBHOOK');
      const targetIds = targetsOf(body) ?? [];
      await assertTargets(tx, { action: body.action, customerId, targetIds, actionParams: body.actionParams ?? null });
      const row = await q.insertAction(tx, {
        customerId,
        name: body.name,
        eventId: body.eventId,
        enabled: body.enabled ?? false,
        action: body.action,
        actionParams: body.actionParams ?? null,
        targetIds,
      });
      if (parseTeamIdsParam(input.teamIds).length > 0) await assignTeams(tx, ctx, ENTITY, String(row.id), input.teamIds);
      await auditAction(tx, ctx, row, 'create', `Webhook action '${row.name}' created`, fieldsOf(row));

      return (await readAction(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/**
 * PUT /api/webhookEvent/actions/{actionId} (spec 3): `name`, `enabled`, `action` and `actionParams` are replaced
 * together (omitted `enabled` and `actionParams` become false and none); omitted targets and a missing or empty
 * `eventId` are kept.
 */
export async function updateWebhookAction(ctx: ServiceContext, input: { id: number; body: WebhookActionUpdate }): Promise<WebhookAction> {
  const { body } = input;

  return uniqueEventId(body.eventId ?? '', () =>
    withTransaction(ctx.db, async (tx) => {
      const row = await writableAction(tx, ctx, input.id);
      const targetIds = targetsOf(body) ?? row.targetIds;
      const actionParams = body.actionParams ?? null;
      await assertTargets(tx, { action: body.action, customerId: row.customerId, targetIds, actionParams });
      const values = {
        name: body.name,
        enabled: body.enabled ?? false,
        action: body.action,
        actionParams,
        targetIds,
        ...(body.eventId ? { eventId: body.eventId } : {}),
      };
      const changes = diffFields(fieldsOf(row), values);
      if (Object.keys(changes).length > 0) {
        await q.updateAction(tx, row, values);
        await auditAction(
          tx,
          ctx,
          { ...row, name: values.name },
          'update',
          `Webhook action '${values.name}' updated: ${Object.keys(changes).join(', ')}`,
          changes,
        );
      }

      return (await readAction(tx, ctx, row.id, { visibleOnly: false }))!;
    }),
  );
}

/** DELETE /api/webhookEvent/actions/{actionId}: with its executions. */
export async function deleteWebhookAction(ctx: ServiceContext, input: { id: number }): Promise<void> {
  await withTransaction(ctx.db, async (tx) => {
    const row = await writableAction(tx, ctx, input.id);
    await q.deleteAction(tx, row);
    await auditAction(tx, ctx, row, 'delete', `Webhook action '${row.name}' deleted`);
  });
}

/** POST /api/webhookEvent/actions/{actionId}/updateTeamAssignments (OWNER; DECISIONS §6). */
export function updateWebhookActionTeams(ctx: ServiceContext, input: { id: number; body: TeamModification }) {
  return withTransaction(ctx.db, (tx) => modifyTeams(tx, ctx, ENTITY, String(input.id), input.body));
}

/** GET /api/webhookEvent/actions/{actionId}/executions (spec 5 §4): newest first, paged. */
export async function listWebhookExecutions(ctx: ServiceContext, input: { id: number } & Omit<ListInput, 'sort' | 'select'>) {
  const action = await q.findVisibleAction(ctx.db, {
    scope: ctx.scope,
    id: input.id,
    visible: teamAccessCondition(ctx, ENTITY, webhookActions.id),
  });
  if (!action) throw new NotFoundError(ENTITY, input.id);
  const paging = parsePaging({ page: input.page, size: input.size });
  const of = { actionId: action.id, customerId: action.customerId };
  const { rows, total } = await q.findExecutionPage(ctx.db, { ...of, offset: paging.page * paging.size, limit: paging.size });
  const totalElements = total ?? (paging.page > 0 ? await q.countExecutions(ctx.db, of) : 0);

  return buildPage<WebhookExecution>(rows.map(executionOf), paging, totalElements, 'receivedAt,desc;id,desc');
}

/** An execution on the wire: times in epoch ms, what is not known yet (null) left out. */
function executionOf(row: WebhookExecutionRow): WebhookExecution {
  const known = <T>(value: T | null) => (value === null ? undefined : value);

  return {
    id: row.id,
    actionId: row.actionId,
    eventId: row.eventId,
    receivedAt: row.receivedAt.getTime(),
    startedAt: known(row.startedAt)?.getTime(),
    finishedAt: known(row.finishedAt)?.getTime(),
    outcome: known(row.outcome),
    detail: known(row.detail),
    affected: known(row.affected),
    apiKeyId: known(row.apiKeyId),
    triggeredBy: row.triggeredBy,
  };
}

/** `targetId` and `targetData.targetIds` together, without repeats; undefined when the body names neither. */
function targetsOf(body: { targetId?: string | null; targetData?: { targetIds: string[] } | null }): string[] | undefined {
  if (body.targetId == null && body.targetData == null) return undefined;
  const ids = [...new Set([...(body.targetId != null ? [body.targetId] : []), ...(body.targetData?.targetIds ?? [])])];
  if (ids.length > MAX_TARGETS)
    throw new ValidationError(INVALID_COMBINATION, `At most ${MAX_TARGETS} targets`, { parameter: 'targetData.targetIds' });

  return ids;
}

/**
 * The targets fit the action: ids of the customer's devices, device folders, datasources, campaigns or file folders
 * (404 for any other, another tenant's included), tags for tag actions (in the targets or `actionParams.tag`), and a
 * target wherever the action needs one (400 `webhookAction.error.targetRequired`). Deleted later, a target makes the
 * execution fail with the reason; it never blocks the delete.
 */
async function assertTargets(
  tx: Executor,
  input: { action: string; customerId: number; targetIds: string[]; actionParams: Record<string, string> | null },
): Promise<void> {
  const target = actionTargetOf(input.action);
  if (target === 'none') return;
  const hasTag = target === 'tag' && (input.actionParams?.tag ?? '').trim() !== '';
  if (input.targetIds.length === 0 && !hasTag)
    throw new ValidationError(
      'webhookAction.error.targetRequired',
      `A ${input.action} action needs its ${target === 'tag' ? 'tags' : `${target} targets`}`,
      {
        parameter: 'targetData.targetIds',
        target,
      },
    );
  if (target === 'tag') return;
  const found = await q.existingTargets(tx, { target, customerId: input.customerId, ids: input.targetIds });
  const missing = input.targetIds.find((id) => !found.has(id));
  if (missing !== undefined) throw new NotFoundError(target, missing);
}

function fieldsOf(row: WebhookActionRow) {
  return {
    name: row.name,
    eventId: row.eventId,
    enabled: row.enabled,
    action: row.action,
    actionParams: row.actionParams,
    targetIds: row.targetIds,
  };
}

async function readAction(db: Executor, ctx: ServiceContext, id: number, options: { select?: string; visibleOnly: boolean }) {
  const page = await findPage<WebhookAction>(db, {
    resource: webhookActionResource,
    scope: ctx.scope,
    where: [eq(webhookActions.id, id), options.visibleOnly ? teamAccessCondition(ctx, ENTITY, webhookActions.id) : undefined],
    select: options.select,
    extraColumns: readOnlyColumn(ctx, ENTITY, webhookActions.id, { select: options.select }),
    size: '1',
  });

  return page.content[0];
}

/** The action (locked) when the caller may change it: 404 when invisible, 403 through read-only teams. */
async function writableAction(tx: Executor, ctx: ServiceContext, id: number): Promise<WebhookActionRow> {
  const row = await q.lockAction(tx, ctx.scope, id);
  if (!row) throw new NotFoundError(ENTITY, id);
  await assertWritable(tx, ctx, ENTITY, String(row.id));

  return row;
}

async function uniqueEventId<T>(eventId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'webhook_action_customer_event_key'))
      throw new ConflictError('webhookAction.error.eventIdExists', `An action with the event id '${eventId}' already exists`, { eventId });
    throw err;
  }
}
