import { bigint, boolean, customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
import { roles } from '@/server/context/roles';
import { customers } from '@/server/tenant/customers.table';
import { uiProfiles } from '@/server/modules/ui-profiles/ui-profiles.table';

import { authProviders, editorLevels } from './users.schemas';

export { authProviders, editorLevels };

export const users = pgTable(
  'app_user',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    /** Stored lower-cased; unique across the service (spec: the user's key). */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: roles }).notNull(),
    passwordHash: text('password_hash'),
    authProvider: text('auth_provider', { enum: authProviders }).notNull().default('LOCAL'),
    editorLevel: text('editor_level', { enum: editorLevels }),
    language: text('language'),
    comment: text('comment'),
    address: text('address'),
    readOnly: boolean('read_only').notNull().default(false),
    restricted: boolean('restricted').notNull().default(false),
    use2FA: boolean('use_2fa').notNull().default(false),
    forceToSet2FA: boolean('force_to_set_2fa').notNull().default(false),
    totpSecret: text('totp_secret'),
    /** A second-factor secret handed out by POST /api/user/2fa/secret, confirmed by POST /api/user/2fa. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The time step of the last accepted one-time code: a code is accepted once (server/auth/totp.ts). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    uiProfileId: bigint('ui_profile_id', { mode: 'number' }).references(() => uiProfiles.id, { onDelete: 'set null' }),
    ssoLoginEnabled: boolean('sso_login_enabled').notNull().default(false),
    usernamePasswordLoginEnabled: boolean('username_password_login_enabled').notNull().default(true),
    magicCodeLoginEnabled: boolean('magic_code_login_enabled').notNull().default(false),
    oauthPasswordFlowEnabled: boolean('oauth_password_flow_enabled').notNull().default(true),
    trustedAdmin: boolean('trusted_admin').notNull().default(false),
    lastLogin: timestamp('last_login', { withTimezone: true, precision: 3 }),
    lastActivity: timestamp('last_activity', { withTimezone: true, precision: 3 }),
    /** Successful sign-ins (server/modules/users/user-activity.queries.ts); summed into the customer's totalUserLoginCount. */
    loginCount: integer('login_count').notNull().default(0),
    /** Seconds of activity: gaps below the idle threshold between recorded activities, summed. */
    presenceTimeSeconds: bigint('presence_time_seconds', { mode: 'number' }).notNull().default(0),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('app_user_email_key').on(t.email),
    index('app_user_customer_name_idx').on(t.customerId, t.name, t.id),
    index('app_user_customer_created_idx').on(t.customerId, t.createdDate, t.id),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** Profile pictures are small (≤ 2 MB) and kept with the user, not in blob storage. */
export const userProfilePictures = pgTable('user_profile_picture', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});
