import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ApiKeyActor, UserActor } from '@/server/context/actor';
import { customers } from '@/server/tenant/customers.table';

export type ExecutionActor = ApiKeyActor | UserActor;

/**
 * A webhook API key (spec 3 "Webhook API key"; DECISIONS §5). The token is a JWT whose `jti` is this row's id: the
 * token itself is never stored, and deleting the row revokes it on every instance at once (every trigger reads the row).
 */
export const webhookApiKeys = pgTable(
  'webhook_api_key',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    restricted: boolean('restricted').notNull().default(false),
    scopes: text('scopes').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_api_key_customer_idx').on(t.customerId, t.createdAt),
    index('webhook_api_key_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/** A webhook action (spec 3 "Webhook action"): what a trigger with its `eventId` does in the customer. */
export const webhookActions = pgTable(
  'webhook_action',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    eventId: text('event_id').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    action: text('action').notNull(),
    actionParams: jsonb('action_params').$type<Record<string, string>>(),
    /** `targetData.targetIds`: device, folder, datasource, campaign or file folder ids, or tags, by the action's family. */
    targetIds: text('target_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSavedAt: timestamp('last_saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // The trigger's look-up (customer, event id) and the uniqueness rule in one index.
    uniqueIndex('webhook_action_customer_event_key').on(t.customerId, t.eventId),
    index('webhook_action_customer_idx').on(t.customerId, t.id),
    index('webhook_action_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

/**
 * One accepted trigger and what came of it (spec 5 §4). The row is also the durable queue entry: inserted with the
 * answer, claimed by an executor (`lease_until`), finished in the same transaction as the action's effect, so a crash
 * anywhere before that commit leaves it to be claimed again and the effect is applied once.
 */
export const webhookExecutions = pgTable(
  'webhook_execution',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    actionId: bigint('action_id', { mode: 'number' })
      .notNull()
      .references(() => webhookActions.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    /** The key that triggered it (null: the console's "Try it"); no foreign key: the record outlives a revoked key. */
    apiKeyId: uuid('api_key_id'),
    /** Who triggered it, by name (the key's, or the console user's e-mail). */
    triggeredBy: text('triggered_by').notNull(),
    /** The actor the action runs as (the key, or the console user), as it was when the trigger was accepted. */
    actor: jsonb('actor').$type<ExecutionActor>().notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    outcome: text('outcome', { enum: ['SUCCEEDED', 'FAILED'] }),
    detail: text('detail'),
    affected: integer('affected'),
    attempts: integer('attempts').notNull().default(0),
    /** Claimable when due (`now()` on insert); a claim pushes it by the lease. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // The executions list (webhooks.queries.ts findExecutionPage): its page's ids and its count from this index alone.
    index('webhook_execution_action_idx').on(t.actionId, t.customerId, t.receivedAt.desc(), t.id.desc()),
    index('webhook_execution_pending_idx')
      .on(t.leaseUntil)
      .where(sql`${t.finishedAt} is null`),
    index('webhook_execution_customer_idx').on(t.customerId),
  ],
);

export type WebhookApiKeyRow = typeof webhookApiKeys.$inferSelect;
export type WebhookActionRow = typeof webhookActions.$inferSelect;
export type WebhookExecutionRow = typeof webhookExecutions.$inferSelect;
