import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/**
 * An alert-rule notification channel (spec 2 "Alert rule", "Notification channel"): who is told, and how, when a
 * rule fires. `notify` holds addresses of the channel's type (e-mail addresses, E.164 numbers, one URL, user ids). Alert rules
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
    /** False once a WEBHOOK receiver answered 410 Gone (spec 5 §5); nothing is sent until it is enabled again. */
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    /** WEBHOOK: the signing secret `whsec_…`, sealed under a key derived from AUTH_SECRET (webhook-signing.ts). */
    secretSealed: text('secret_sealed'),
    /** WEBHOOK: the secret before the last rotation, still signed with until `previous_secret_until` (24 h). */
    previousSecretSealed: text('previous_secret_sealed'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true, precision: 3 }),
    secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true, precision: 3 }),
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
