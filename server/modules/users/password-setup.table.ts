import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.table';

/**
 * Single-use links that let a user choose their own password (sent on create and on resend).
 * Only the SHA-256 hash of the link's token is stored; a newer link supersedes the older ones.
 */
export const passwordSetupTokens = pgTable(
  'password_setup_token',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    supersededAt: timestamp('superseded_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('password_setup_token_user_idx').on(t.userId)],
);

export type PasswordSetupTokenRow = typeof passwordSetupTokens.$inferSelect;
