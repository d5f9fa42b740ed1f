import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

import { licenseTiers, verticals } from './tenant.schemas';

export { licenseTiers, verticals };
export type { LicenseTier, Vertical } from './tenant.schemas';

/**
 * A tenant. Every tenant's row hangs off it, so it stands below every module (server/tenant); the customers module
 * owns its routes and writes. A network owner (subreseller) is a customer
 * with `isSubreseller`.
 */
export const customers = pgTable(
  'customer',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    comment: text('comment'),
    country: text('country'),
    location: text('location'),
    type: text('type'),
    vertical: text('vertical', { enum: verticals }),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    restricted: boolean('restricted').notNull().default(false),
    expirationDate: timestamp('expiration_date', { withTimezone: true, precision: 3 }),
    force2FA: boolean('force_2fa').notNull().default(false),
    needsToBeInvoiced: boolean('needs_to_be_invoiced').notNull().default(false),
    licenseTier: text('license_tier', { enum: licenseTiers }).notNull().default('ENTERPRISE'),
    resourceLimits: jsonb('resource_limits').$type<{ overrides: Record<string, number> }>(),
    freeLicenses: integer('free_licenses').notNull().default(0),
    browserSessionLicenses: integer('browser_session_licenses').notNull().default(0),
    deviceSessionLimit: integer('device_session_limit').notNull().default(0),
    storageSize: bigint('storage_size', { mode: 'number' }),
    /** Bytes of stored files; raised under the quota check on upload, lowered by the file delete trigger. */
    usedStorageSize: bigint('used_storage_size', { mode: 'number' }).notNull().default(0),
    ownerSubresellerId: bigint('owner_subreseller_id', { mode: 'number' }).references((): AnyPgColumn => customers.id),
    isSubreseller: boolean('is_subreseller').notNull().default(false),
    subresellerSince: timestamp('subreseller_since', { withTimezone: true, precision: 3 }),
    contentDesignerEmail: text('content_designer_email'),
    supportEmail: text('support_email'),
    hiddenUIElementRules: jsonb('hidden_ui_element_rules').$type<Record<string, unknown>>(),
    customerMetadata: jsonb('customer_metadata').$type<Record<string, unknown>>(),
    brandingGuideline: jsonb('branding_guideline').$type<Record<string, unknown>>(),
    /** `<adnetwork>NetworkId` / `<adnetwork>ApiKey` of the spec; the key is a secret, never logged. */
    adnetworkNetworkId: text('adnetwork_network_id'),
    adnetworkApiKey: text('adnetwork_api_key'),
    enableAutomaticDistributionToDms: boolean('enable_automatic_distribution_to_dms').notNull().default(false),
    /** Set by settings/setDefaultContents; a content id (content arrives with its own module). */
    defaultEmergencyContentId: text('default_emergency_content_id'),
    /** Set by settings/devices: the time zone the console proposes when a screen is added (null: the browser's). */
    defaultTimeZone: text('default_time_zone'),
    // Team access settings (spec 3 "Team access settings"), changed through settings/teams.
    userFullAccessIfNotInTeam: boolean('user_full_access_if_not_in_team').notNull().default(true),
    accessResourcesWithoutTeam: boolean('access_resources_without_team').notNull().default(true),
    deviceCreationInRootForTeamUsers: boolean('device_creation_in_root_for_team_users').notNull().default(true),
    contentCreationInRootForTeamUsers: boolean('content_creation_in_root_for_team_users').notNull().default(true),
    fileCreationInRootForTeamUsers: boolean('file_creation_in_root_for_team_users').notNull().default(true),
  },
  (t) => [
    uniqueIndex('customer_name_key').on(t.name),
    index('customer_owner_subreseller_idx').on(t.ownerSubresellerId, t.id),
    index('customer_created_idx').on(t.createdDate),
    index('customer_name_lower_idx').on(sql`lower(${t.name})`),
  ],
);

export type CustomerRow = typeof customers.$inferSelect;
