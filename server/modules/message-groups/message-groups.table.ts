import { bigint, doublePrecision, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/**
 * Message groups (spec 2 "Message group and message"): the sub-channel groups a MESSAGE_GROUP channel plays.
 * Their messages reference them with `on delete cascade`; a channel's assignment of a group restricts its
 * deletion (409 from the foreign key, so a racing assignment cannot slip through).
 */
export const messageGroups = pgTable(
  'message_group',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    weight: integer('weight').notNull().default(0),
    // Stored and answered; players ignore them (spec 2).
    saturation: doublePrecision('saturation'),
    contentShuffleMode: text('content_shuffle_mode'),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSavedAt: timestamp('last_saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('message_group_customer_idx').on(t.customerId, t.id), index('message_group_customer_name_idx').on(t.customerId, t.name)],
);

export type MessageGroupRow = typeof messageGroups.$inferSelect;
