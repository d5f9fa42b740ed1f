import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Server-wide limit overrides per (resource key, license tier), set through /api/config/batch.
 * Absent rows fall back to the built-in default table (resource-limits.defaults.ts).
 */
export const resourceLimitConfig = pgTable(
  'resource_limit_config',
  {
    resource: text('resource').notNull(),
    tier: text('tier').notNull(),
    limit: integer('limit').notNull(),
  },
  (t) => [primaryKey({ columns: [t.resource, t.tier], name: 'resource_limit_config_pkey' })],
);
