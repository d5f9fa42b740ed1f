import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

export const filteredEntityTypes = ['FILE', 'CONTENT', 'DEVICE'] as const;

/** A saved filter (spec 3 "Quick filter"); `criteria` is validated against `filteredEntityType`. */
export const quickFilters = pgTable(
  'quick_filter',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    filteredEntityType: text('filtered_entity_type', { enum: filteredEntityTypes }).notNull(),
    criteria: jsonb('criteria').$type<Record<string, unknown>>().notNull(),
    listed: boolean('listed').notNull().default(true),
    custom: boolean('custom').notNull().default(false),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quick_filter_customer_name_key').on(t.customerId, t.name),
    index('quick_filter_customer_type_idx').on(t.customerId, t.filteredEntityType),
  ],
);

export type QuickFilterRow = typeof quickFilters.$inferSelect;
