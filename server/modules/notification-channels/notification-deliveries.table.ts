import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '@/server/modules/users/users.table';
import { customers } from '@/server/tenant/customers.table';
import type { DeliveryState, NotificationEventType, NotificationPayload } from './notification-deliveries.schemas';
import { notificationChannels } from './notification-channels.table';

/** The texts a delivery sends, rendered when it was queued (the rule's templates, or the defaults). */
export type DeliveryTexts = { emailSubject: string; emailBody: string; sms: string };

/**
 * The durable outbox of notifications (spec 5 §5): one row per channel and notification, queued in the caller's
 * transaction, claimed by the delivery worker with a lease (`lease_token`, `lease_until`; SKIP LOCKED), sent outside
 * any transaction, and its attempt and next state recorded in one transaction. The id is the `webhook-id` of every
 * attempt. A channel's deliveries go with it (ON DELETE CASCADE: no foreign-key violation, so the channel's in-use
 * hook is not tripped).
 */
export const notificationDeliveries = pgTable(
  'notification_delivery',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' })
      .notNull()
      .references(() => notificationChannels.id, { onDelete: 'cascade' }),
    eventType: text('event_type').$type<NotificationEventType>().notNull(),
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    texts: jsonb('texts').$type<DeliveryTexts>().notNull(),
    state: text('state').$type<DeliveryState>().notNull().default('PENDING'),
    /** Recorded attempts (a claim that died before recording is not one). */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull(),
    /** The claim that owns the delivery until `lease_until`; its attempt is recorded only while it still owns it. */
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }),
    /** SMS numbers already sent to: a retry sends only to the others. */
    sentTo: text('sent_to')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('notification_delivery_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'PENDING'`),
    index('notification_delivery_channel_idx').on(t.channelId, t.id.desc()),
    index('notification_delivery_customer_idx').on(t.customerId),
  ],
);

/** One attempt of a delivery: what the receiver answered, how fast, or why it failed. */
export const notificationDeliveryAttempts = pgTable(
  'notification_delivery_attempt',
  {
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => notificationDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    succeeded: boolean('succeeded').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms').notNull(),
    error: text('error'),
    detail: text('detail'),
  },
  (t) => [uniqueIndex('notification_delivery_attempt_key').on(t.deliveryId, t.attempt)],
);

/**
 * What a USER_NOTIFICATION channel's users see in the console's bell: one row per user and delivery, read or not.
 * The channel may go (the notification stays, `channel_id` null); the user's deletion removes their rows.
 */
export const userNotifications = pgTable(
  'user_notification',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' }).references(() => notificationChannels.id, { onDelete: 'set null' }),
    deliveryId: uuid('delivery_id').references(() => notificationDeliveries.id, { onDelete: 'set null' }),
    eventType: text('event_type').$type<NotificationEventType>().notNull(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    /** When the notification was queued (its delivery's creation), not when the attempt recorded it. */
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // Newest first by the time the notification was queued (deliveries' attempts may record out of order).
    index('user_notification_user_idx').on(t.userId, t.createdAt.desc(), t.deliveryId.desc()),
    index('user_notification_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    uniqueIndex('user_notification_delivery_user_key').on(t.deliveryId, t.userId),
  ],
);

export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;
export type NotificationDeliveryAttemptRow = typeof notificationDeliveryAttempts.$inferSelect;
export type UserNotificationRow = typeof userNotifications.$inferSelect;
