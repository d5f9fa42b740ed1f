import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const logLevels = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

/**
 * The audit log (`log` resource). Names are copied, not referenced, so entries survive
 * the deletion of what they describe (no foreign keys on purpose).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    time: timestamp('time', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    logLevel: text('log_level', { enum: logLevels }).notNull().default('INFO'),
    message: text('message').notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    entityName: text('entity_name'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    /** Who wrote: `user`, `device`, `apiKey` or `system`; null on entries written before it was recorded. */
    actorKind: text('actor_kind', { enum: ['user', 'device', 'apiKey', 'system'] }),
    /** The writing job's or API key's name (users and devices are named by their own columns). */
    actorName: text('actor_name'),
    userId: uuid('user_id'),
    userEmail: text('user_email'),
    customerId: bigint('customer_id', { mode: 'number' }),
    customerName: text('customer_name'),
    deviceId: text('device_id'),
    deviceName: text('device_name'),
    contentId: text('content_id'),
    contentName: text('content_name'),
    datasourceId: text('datasource_id'),
    datasourceName: text('datasource_name'),
    requestId: text('request_id'),
  },
  (t) => [index('audit_log_customer_time_idx').on(t.customerId, t.time, t.id), index('audit_log_time_idx').on(t.time, t.id)],
);
