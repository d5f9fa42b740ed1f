import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Failed sign-in attempts per subject (`account:<email>` or `address:<ip>`) in the current window. */
export const authFailures = pgTable('auth_failure', {
  subject: text('subject').primaryKey(),
  failures: integer('failures').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true, precision: 3 }).notNull(),
});
