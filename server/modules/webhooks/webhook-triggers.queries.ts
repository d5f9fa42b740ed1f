import { sql, type SQL } from 'drizzle-orm';
import { claimFailureSlotsStatement } from '@/server/auth/failure-limit';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { restrictedKeyAccessCondition } from '@/server/modules/teams';
import { customers } from '@/server/tenant/customers.table';
import { webhookActions, webhookApiKeys, webhookExecutions } from './webhooks.table';

/** A trigger whose key's signature was verified: what the acceptance statement decides on. */
export type TriggerRequest = {
  /** The key's id (its JWT's `jti`, a uuid). */
  keyId: string;
  customerId: number;
  eventId: string;
  /** The id its execution row gets when it is queued. */
  executionId: string;
  payload: Record<string, unknown>;
};

export type TriggerAcceptance = {
  /** The key's row, when it exists (not revoked). */
  key: { name: string; restricted: boolean; customerName: string; customerRestricted: boolean } | undefined;
  /** The trigger's claim in its key's window (counted before anything else, as `claimAttempt` counts). */
  claim: { failures: number; windowStart: Date };
  /** The action of the event id the key may trigger, when there is one. */
  action: { id: number; name: string; enabled: boolean } | undefined;
  /** Whether the execution row was written (the key, its claim, the customer and the action allowed it). */
  queued: boolean;
};

/** A trigger's key's team access to an action (restricted keys): built once, so the statement's text never changes. */
let restrictedKeyAccess: SQL | undefined;

/**
 * The database work of triggers in ONE statement (one round trip and one commit for all of them: the group commit of
 * `npm run bench:webhooks`'s hot path). Per trigger, as if each ran alone in the order given: its claim in its key's
 * window (the keys' claims from the failure limit, `limit` a second), the key and its customer, the action by event id
 * (a restricted key only its teams' actions), and the execution row, written only when the key exists, the claim is
 * within `limit`, the customer is not restricted and the action is enabled. Answers one acceptance per trigger, in the
 * order given; the caller reads each in that order. The triggers travel as one JSON parameter, so the statement's text
 * is always the same (a prepared statement on PostgreSQL). Key ids must be uuids (a cast fails the whole statement).
 */
export async function acceptTriggers(
  db: Executor,
  input: { triggers: readonly TriggerRequest[]; limit: number },
): Promise<TriggerAcceptance[]> {
  restrictedKeyAccess ??= restrictedKeyAccessCondition(sql.raw('t.key_id'), 'webhookEventAction', webhookActions.id);
  const triggers = JSON.stringify(
    input.triggers.map((t, i) => ({
      i,
      key_id: t.keyId,
      customer_id: t.customerId,
      event_id: t.eventId,
      execution_id: t.executionId,
      payload: t.payload,
    })),
  );
  // The actor is built here as `ApiKeyActor` (server/context/actor.ts) is shaped: the key as it is at acceptance.
  const rows = await execRows<{
    i: number;
    key_name: string | null;
    restricted: boolean | null;
    customer_name: string | null;
    customer_restricted: boolean | null;
    failures: number;
    window_start_ms: number;
    action_id: number | string | null;
    action_name: string | null;
    enabled: boolean | null;
    queued: boolean;
  }>(
    db,
    sql`
    with t as (
      select t.*, 'webhook.key:' || t.key_id as subject, (row_number() over (partition by t.key_id order by t.i))::int as k
      from jsonb_to_recordset(${triggers}::jsonb) as t(i int, key_id text, customer_id bigint, event_id text, execution_id uuid, payload jsonb)
    ),
    per_key as (select subject, count(*)::int as n from t group by subject),
    claim as (${claimFailureSlotsStatement({ rows: sql.raw('per_key'), limit: input.limit, windowSeconds: 1 })}),
    k as (
      select ${webhookApiKeys.id} as id, ${webhookApiKeys.customerId} as customer_id, ${webhookApiKeys.name} as name,
        ${webhookApiKeys.restricted} as restricted, ${customers.name} as customer_name, ${customers.restricted} as customer_restricted
      from ${webhookApiKeys} join ${customers} on ${customers.id} = ${webhookApiKeys.customerId}
      where (${webhookApiKeys.id}, ${webhookApiKeys.customerId}) in (select distinct t.key_id::uuid, t.customer_id from t)
    ),
    ta as (
      select t.i, t.customer_id, t.event_id, t.execution_id, t.payload, k.id as key_id, k.name as key_name, k.restricted,
        k.customer_name, k.customer_restricted, claim.failures - per_key.n + t.k as failures, claim.window_start_ms,
        a.id as action_id, a.name as action_name, a.enabled
      from t
      join per_key on per_key.subject = t.subject
      join claim on claim.subject = t.subject
      left join k on k.id = t.key_id::uuid and k.customer_id = t.customer_id
      left join lateral (
        select ${webhookActions.id} as id, ${webhookActions.name} as name, ${webhookActions.enabled} as enabled
        from ${webhookActions}
        where k.id is not null and ${webhookActions.customerId} = t.customer_id and ${webhookActions.eventId} = t.event_id
          and (not k.restricted or ${restrictedKeyAccess})
        limit 1
      ) a on true
    ),
    ins as (
      insert into ${webhookExecutions} (id, customer_id, action_id, event_id, api_key_id, triggered_by, actor, payload)
      select ta.execution_id, ta.customer_id, ta.action_id, ta.event_id, ta.key_id, ta.key_name,
        jsonb_build_object('kind', 'apiKey', 'apiKeyId', ta.key_id::text, 'name', ta.key_name, 'customerId', ta.customer_id,
          'customerName', ta.customer_name, 'scopes', jsonb_build_array('WEBHOOK_CALL'), 'restricted', ta.restricted),
        ta.payload
      from ta
      where ta.key_id is not null and ta.enabled and ta.failures <= ${input.limit}::int and not ta.customer_restricted
      returning id
    )
    select ta.i, ta.key_name, ta.restricted, ta.customer_name, ta.customer_restricted, ta.failures, ta.window_start_ms,
      ta.action_id, ta.action_name, ta.enabled, ta.execution_id in (select id from ins) as queued
    from ta order by ta.i`,
    { prepared: true },
  );
  if (rows.length !== input.triggers.length)
    throw new Error(`the trigger statement answered ${rows.length} rows for ${input.triggers.length}`);

  return rows.map((row) => ({
    key:
      row.key_name === null
        ? undefined
        : {
            name: row.key_name,
            restricted: row.restricted === true,
            customerName: row.customer_name ?? '',
            customerRestricted: row.customer_restricted === true,
          },
    claim: { failures: row.failures, windowStart: new Date(row.window_start_ms) },
    action: row.action_id === null ? undefined : { id: Number(row.action_id), name: row.action_name ?? '', enabled: row.enabled === true },
    queued: row.queued,
  }));
}
