import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

export const teams = pgTable(
  'team',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment'),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('team_customer_name_key').on(t.customerId, t.name), index('team_customer_idx').on(t.customerId, t.id)],
);

/**
 * One row per (team, resource): which team sees which resource, and whether read-only.
 * Users are members through the same table (`resource_type = 'user'`). Every team-capable
 * resource plugs in by its type name; there is no foreign key to the resource on purpose
 * (one table for ~20 resource kinds); deleting a resource deletes its rows in the same transaction.
 */
export const teamAssignments = pgTable(
  'team_assignment',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    readOnly: boolean('read_only').notNull().default(false),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.resourceType, t.resourceId], name: 'team_assignment_pkey' }),
    index('team_assignment_resource_idx').on(t.resourceType, t.resourceId, t.teamId),
  ],
);
