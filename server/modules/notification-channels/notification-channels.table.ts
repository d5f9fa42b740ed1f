import { bigint, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/**
 * An alert-rule notification channel (spec 2 "Alert rule", "Notification channel"): who is told, and how, when a
 * rule fires. `notify` holds addresses of the channel's type (e-mail addresses, E.164 numbers). Alert rules will
 * reference channels with a plain foreign key, which is what refuses deleting a channel in use (README.md).
 */
export const notificationChannels = pgTable(
  'notification_channel',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment').notNull().default(''),
    channelType: text('channel_type').notNull(),
    notify: text('notify').array().notNull(),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSavedAt: timestamp('last_saved_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('notification_channel_customer_idx').on(t.customerId, t.id),
    uniqueIndex('notification_channel_customer_name_key').on(t.customerId, t.name),
    // `name~…` (the console's search) is served by a trigram index (docs/decisions/query-language.md); pg_trgm exists since 0018.
    index('notification_channel_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
  ],
);

export type NotificationChannelRow = typeof notificationChannels.$inferSelect;
