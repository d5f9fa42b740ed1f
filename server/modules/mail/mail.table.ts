import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/** What a message is about: the password-setup link, an alert-rule notification (notification-channels). */
export const mailKinds = ['USER_PASSWORD_SETUP', 'ALERT_NOTIFICATION'] as const;
export type MailKind = (typeof mailKinds)[number];

export const mailStatuses = ['PENDING', 'SENT', 'FAILED'] as const;
export type MailStatus = (typeof mailStatuses)[number];

/**
 * The outbox: a message is enqueued by an INSERT in the sender's transaction and delivered by the
 * `mail.deliver` job. Bodies may hold links with secrets: they are never logged.
 */
export const mailMessages = pgTable(
  'mail_message',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, { onDelete: 'cascade' }),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    kind: text('kind', { enum: mailKinds }).notNull(),
    status: text('status', { enum: mailStatuses }).notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** When a PENDING message is due; while one is being sent, the end of the sender's lease. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The last delivery error, without credentials. */
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('mail_message_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    index('mail_message_customer_idx').on(t.customerId),
  ],
);

export type MailMessageRow = typeof mailMessages.$inferSelect;
