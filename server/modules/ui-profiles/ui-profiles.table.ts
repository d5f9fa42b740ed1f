import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

export const uiProfiles = pgTable(
  'ui_profile',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment'),
    hiddenUIElementRules: jsonb('hidden_ui_element_rules').$type<Record<string, unknown>>().notNull(),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ui_profile_customer_name_key').on(t.customerId, t.name), index('ui_profile_customer_idx').on(t.customerId, t.id)],
);
