import { bigint, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

// DATASOURCE is ours (spec 3 names five types): datasources carry tags too (docs/decisions.md).
export const tagTypes = ['DEVICE', 'CONTENT', 'CAMPAIGN', 'MESSAGE', 'FILE', 'DATASOURCE'] as const;

/**
 * Tags registered per customer and type (spec 3 "Tag"), with their comment. The tags themselves
 * live on the tagged rows (`tags text[]`); a tag used on a row is registered on write, so the
 * registry also lists tags created ahead of use.
 */
export const tags = pgTable(
  'tag',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    tagType: text('tag_type', { enum: tagTypes }).notNull(),
    tag: text('tag').notNull(),
    comment: text('comment'),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.tagType, t.tag], name: 'tag_pkey' })],
);
