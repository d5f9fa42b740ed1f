import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '@/server/modules/users/users.table';

export const oauthClientIds = ['default-client', 'short-lived'] as const;
export type OAuthClientId = (typeof oauthClientIds)[number];

/**
 * One sign-in (password grant) and every token rotated from it. Revoking the family
 * revokes all its access and refresh tokens at once (logout, reuse detection, password change).
 */
export const oauthTokenFamilies = pgTable(
  'oauth_token_family',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id', { enum: oauthClientIds }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** End of the family's total lifetime (30 days / 30 minutes after the password grant). */
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, precision: 3 }),
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('oauth_token_family_user_idx').on(t.userId), index('oauth_token_family_expires_idx').on(t.expiresAt)],
);

/** Access tokens, stored only as SHA-256 hashes; `id` is the `jti` of the matching JWT. */
export const oauthAccessTokens = pgTable(
  'oauth_access_token',
  {
    id: uuid('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => oauthTokenFamilies.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('oauth_access_token_family_idx').on(t.familyId), index('oauth_access_token_expires_idx').on(t.expiresAt)],
);

/** Refresh tokens, stored only as hashes; a used one is kept (with `usedAt`) to detect reuse. */
export const oauthRefreshTokens = pgTable(
  'oauth_refresh_token',
  {
    tokenHash: text('token_hash').primaryKey(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => oauthTokenFamilies.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('oauth_refresh_token_family_idx').on(t.familyId)],
);
