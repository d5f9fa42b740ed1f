import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { scopeCondition, type TenantScope } from '@/server/context/tenant-scope';
import type { Executor } from '@/server/db/client';
import { execRows, uuidArrayParam } from '@/server/db/sql';
import { withoutControlCharacters } from '@/server/http/hostile-input';
import { campaigns } from '@/server/modules/campaigns/campaigns.table';
import { datasources } from '@/server/modules/datasources/datasources.table';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import type { ActionTarget } from './webhooks.schemas';
import {
  webhookActions,
  webhookApiKeys,
  webhookExecutions,
  type WebhookActionRow,
  type WebhookApiKeyRow,
  type WebhookExecutionRow,
} from './webhooks.table';

type KeyValues = typeof webhookApiKeys.$inferInsert;
type ActionValues = typeof webhookActions.$inferInsert;

export async function insertApiKey(db: Executor, values: KeyValues): Promise<WebhookApiKeyRow> {
  const [row] = await db.insert(webhookApiKeys).values(values).returning();

  return row!;
}

/** The key `id` within the scope, locked until commit. */
export async function lockApiKey(db: Executor, scope: TenantScope, id: string): Promise<WebhookApiKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookApiKeys)
    .where(and(eq(webhookApiKeys.id, id), scopeCondition(scope, webhookApiKeys.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function updateApiKey(db: Executor, row: WebhookApiKeyRow, values: Partial<KeyValues>): Promise<void> {
  await db
    .update(webhookApiKeys)
    .set(values)
    .where(and(eq(webhookApiKeys.id, row.id), eq(webhookApiKeys.customerId, row.customerId)));
}

/** Deletes the key (which revokes it: every trigger reads the row) and its team assignments. */
export async function deleteApiKey(db: Executor, row: WebhookApiKeyRow): Promise<void> {
  await deleteTeamRows(db, row.customerId, 'webhookApiKey', row.id);
  await db.delete(webhookApiKeys).where(and(eq(webhookApiKeys.id, row.id), eq(webhookApiKeys.customerId, row.customerId)));
}

export async function insertAction(db: Executor, values: ActionValues): Promise<WebhookActionRow> {
  const [row] = await db.insert(webhookActions).values(values).returning();

  return row!;
}

/** The action `id` within the scope, locked until commit. */
export async function lockAction(db: Executor, scope: TenantScope, id: number): Promise<WebhookActionRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookActions)
    .where(and(eq(webhookActions.id, id), scopeCondition(scope, webhookActions.customerId)))
    .limit(1)
    .for('update');

  return row;
}

export async function updateAction(db: Executor, row: WebhookActionRow, values: Partial<ActionValues>): Promise<void> {
  await db
    .update(webhookActions)
    .set({ ...values, lastSavedAt: new Date() })
    .where(and(eq(webhookActions.id, row.id), eq(webhookActions.customerId, row.customerId)));
}

/** Deletes the action, its team assignments and (by cascade) its executions. */
export async function deleteAction(db: Executor, row: WebhookActionRow): Promise<void> {
  await deleteTeamRows(db, row.customerId, 'webhookEventAction', String(row.id));
  await db.delete(webhookActions).where(and(eq(webhookActions.id, row.id), eq(webhookActions.customerId, row.customerId)));
}

/** The WEBHOOK resource limit counts actions (spec 3 "Resource limits"). */
export async function countActionsOf(db: Executor, customerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookActions).where(eq(webhookActions.customerId, customerId));

  return row?.n ?? 0;
}

/** The action `id` within the scope when `visible` (the caller's teams) lets the caller see it. */
export async function findVisibleAction(
  db: Executor,
  input: { scope: TenantScope; id: number; visible: SQL | undefined },
): Promise<WebhookActionRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookActions)
    .where(and(eq(webhookActions.id, input.id), scopeCondition(input.scope, webhookActions.customerId), input.visible))
    .limit(1);

  return row;
}

/** Of `ids`, those that name a `target` of the customer (ids of the wrong form name nothing). */
export async function existingTargets(
  db: Executor,
  input: { target: ActionTarget; customerId: number; ids: string[] },
): Promise<Set<string>> {
  const uuids = input.ids.filter((id) => UUID.test(id));
  const table =
    input.target === 'device'
      ? devices
      : input.target === 'deviceGroup'
        ? deviceGroups
        : input.target === 'datasource'
          ? datasources
          : input.target === 'fileFolder'
            ? fileFolders
            : undefined;
  if (table) {
    if (uuids.length === 0) return new Set();
    const rows = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.customerId, input.customerId), sql`${table.id} = any(${uuidArrayParam(uuids)})`));

    return new Set(rows.map((r) => r.id));
  }
  if (input.target === 'campaign') {
    const numbers = input.ids.filter((id) => /^[1-9]\d{0,15}$/.test(id)).map(Number);
    if (numbers.length === 0) return new Set();
    const rows = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.customerId, input.customerId), inArray(campaigns.id, numbers)));

    return new Set(rows.map((r) => String(r.id)));
  }

  return new Set(input.ids);
}

const MAX_DETAIL = 2_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function insertExecution(db: Executor, values: typeof webhookExecutions.$inferInsert): Promise<void> {
  await db.insert(webhookExecutions).values(values);
}

/**
 * Claims up to `limit` due executions (queued, or whose lease ran out with an instance that died): each is pushed
 * `leaseMs` ahead so no other executor takes it meanwhile. SKIP LOCKED: executors of several instances never wait for
 * each other.
 */
export async function claimDueExecutions(db: Executor, input: { limit: number; leaseMs: number }): Promise<string[]> {
  const rows = await execRows<{ id: string }>(
    db,
    sql`
    update ${webhookExecutions} set lease_until = now() + ${input.leaseMs} * interval '1 millisecond', attempts = attempts + 1
    where id in (
      select id from ${webhookExecutions}
      where finished_at is null and lease_until <= now()
      order by lease_until
      limit ${input.limit}
      for update skip locked)
    returning id::text as id`,
  );

  return rows.map((r) => r.id);
}

const executionsOf = (t: { actionId: AnyPgColumn; customerId: AnyPgColumn }, input: { actionId: number; customerId: number }) =>
  and(eq(t.actionId, input.actionId), eq(t.customerId, input.customerId));
// Newest first, as `webhook_execution_action_idx` is ordered (DESC NULLS LAST; a plain DESC puts nulls first, which the
// index cannot give in order although the columns are never null).
const NEWEST_FIRST = [sql`${webhookExecutions.receivedAt} desc nulls last`, sql`${webhookExecutions.id} desc nulls last`] as const;

/**
 * A page of an action's executions, newest first, with how many it has, in one statement. The page's ids and the
 * count come from `webhook_execution_action_idx` alone (index-only scans); only the page's rows are read. A window
 * count over the action's rows (findPage) read every one of them: ~100 ms at 100 000 (docs/benchmarks.md).
 * `total` is undefined when the page is empty.
 */
export async function findExecutionPage(
  db: Executor,
  input: { actionId: number; customerId: number; offset: number; limit: number },
): Promise<{ rows: WebhookExecutionRow[]; total: number | undefined }> {
  const page = db
    .select({ id: webhookExecutions.id })
    .from(webhookExecutions)
    .where(executionsOf(webhookExecutions, input))
    .orderBy(...NEWEST_FIRST)
    .limit(input.limit)
    .offset(input.offset)
    .as('page');
  const counted = alias(webhookExecutions, 'counted');
  const all = db.select({ n: count() }).from(counted).where(executionsOf(counted, input));
  const rows = await db
    .select({ execution: webhookExecutions, total: sql<number>`(${all})`.mapWith(Number) })
    .from(webhookExecutions)
    .innerJoin(page, eq(webhookExecutions.id, page.id))
    .orderBy(...NEWEST_FIRST);

  return { rows: rows.map((r) => r.execution), total: rows[0]?.total };
}

export async function countExecutions(db: Executor, input: { actionId: number; customerId: number }): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookExecutions).where(executionsOf(webhookExecutions, input));

  return row?.n ?? 0;
}

export async function markExecutionStarted(db: Executor, id: string): Promise<void> {
  await db
    .update(webhookExecutions)
    .set({ startedAt: sql`coalesce(${webhookExecutions.startedAt}, now())` })
    .where(eq(webhookExecutions.id, id));
}

export async function finishExecution(
  db: Executor,
  input: { id: string; outcome: 'SUCCEEDED' | 'FAILED'; detail: string | null; affected: number | null },
): Promise<void> {
  await db
    .update(webhookExecutions)
    .set({
      outcome: input.outcome,
      // Messages may quote what a caller sent: no control characters (PostgreSQL text holds no NUL), bounded.
      detail: input.detail === null ? null : withoutControlCharacters(input.detail).slice(0, MAX_DETAIL),
      affected: input.affected,
      startedAt: sql`coalesce(${webhookExecutions.startedAt}, now())`,
      finishedAt: sql`now()`,
    })
    .where(and(eq(webhookExecutions.id, input.id), sql`${webhookExecutions.finishedAt} is null`));
}

/** No JIT compilation for the rest of the transaction `db` is (its statements are short; compiling is not). */
export async function withoutJit(db: Executor): Promise<void> {
  await db.execute(sql`set local jit = off`);
}

/**
 * An unfinished execution locked for its run, with what the run needs in the same round trip: its action (undefined
 * once deleted) and, for a key's execution, whether the key is restricted now (undefined once revoked).
 */
export async function lockExecutionToRun(
  db: Executor,
  id: string,
): Promise<{ execution: WebhookExecutionRow; action: WebhookActionRow | undefined; keyRestricted: boolean | undefined } | undefined> {
  const [row] = await db
    .select({ execution: webhookExecutions, action: webhookActions, keyRestricted: webhookApiKeys.restricted })
    .from(webhookExecutions)
    .leftJoin(
      webhookActions,
      and(eq(webhookActions.id, webhookExecutions.actionId), eq(webhookActions.customerId, webhookExecutions.customerId)),
    )
    .leftJoin(
      webhookApiKeys,
      and(eq(webhookApiKeys.id, webhookExecutions.apiKeyId), eq(webhookApiKeys.customerId, webhookExecutions.customerId)),
    )
    .where(and(eq(webhookExecutions.id, id), sql`${webhookExecutions.finishedAt} is null`))
    .limit(1)
    .for('update', { of: webhookExecutions });

  return row ? { execution: row.execution, action: row.action ?? undefined, keyRestricted: row.keyRestricted ?? undefined } : undefined;
}

async function deleteTeamRows(db: Executor, customerId: number, resourceType: string, resourceId: string): Promise<void> {
  await db
    .delete(teamAssignments)
    .where(
      and(
        eq(teamAssignments.customerId, customerId),
        eq(teamAssignments.resourceType, resourceType),
        eq(teamAssignments.resourceId, resourceId),
      ),
    );
}
