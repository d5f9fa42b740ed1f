import { bigint, boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/** The stored `validity` object (spec 2 "Advertiser"); absent members are left out, never null. */
export type StoredValidity = { fromDate?: string; toDate?: string; cron?: string; timeZone?: string };

/**
 * An advertiser (spec 2 "Advertiser"). The proof-of-play link secret is kept as its SHA-256 hash (checked)
 * and sealed with a key derived from AUTH_SECRET (only to show the link again); both null = links disabled.
 */
export const advertisers = pgTable(
  'advertiser',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    comment: text('comment'),
    enabled: boolean('enabled').notNull().default(false),
    validity: jsonb('validity').$type<StoredValidity>(),
    proofOfPlaySecretHash: text('proof_of_play_secret_hash'),
    proofOfPlaySecretSealed: text('proof_of_play_secret_sealed'),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('advertiser_customer_name_key').on(t.customerId, t.name)],
);

export type AdvertiserRow = typeof advertisers.$inferSelect;
