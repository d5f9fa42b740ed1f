import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/modules/customers/customers.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { users } from '@/server/modules/users/users.table';

/**
 * Device content (spec 2 "Content"): slides and interactive content (`deviceContentType = 'content'`,
 * `structureType` SLIDE or COMPLEX) and playlists (`'simpleLoop'`) in one table, so the combined
 * `GET /api/v2/deviceContent` list is one indexed statement. `group_path` copies the content folder's
 * materialised path (`contentGroupPath:{id}` is one GIN-indexed predicate); folder moves rewrite it in
 * the same transaction. `data` is the content's document, validated by the content module on every write.
 */
export const deviceContents = pgTable(
  'device_content',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    deviceContentType: text('device_content_type', { enum: ['content', 'simpleLoop'] }).notNull(),
    structureType: text('structure_type', { enum: ['SLIDE', 'COMPLEX'] }),
    simpleLoopType: text('simple_loop_type', { enum: ['NORMAL', 'EINK'] }),
    // No cascade: a folder delete decides (removeContents) whether its content goes or moves to the root.
    contentGroupId: uuid('content_group_id')
      .notNull()
      .references(() => contentGroups.id),
    groupPath: uuid('group_path').array().notNull(),
    name: text('name').notNull(),
    comment: text('comment'),
    version: text('version'),
    locked: boolean('locked').notNull().default(false),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    data: jsonb('data').$type<unknown>().notNull(),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSaved: timestamp('last_saved', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSavedById: uuid('last_saved_by_id').references(() => users.id, { onDelete: 'set null' }),
    lastSavedByEmail: text('last_saved_by_email'),
    lastSavedByName: text('last_saved_by_name'),
  },
  (t) => [
    index('device_content_customer_group_name_idx').on(t.customerId, t.contentGroupId, t.name),
    index('device_content_customer_type_name_idx').on(t.customerId, t.deviceContentType, t.name),
    index('device_content_customer_saved_idx').on(t.customerId, t.lastSaved, t.id),
    index('device_content_group_path_gin_idx').using('gin', t.groupPath),
    index('device_content_tags_gin_idx').using('gin', t.tags),
  ],
);

export type DeviceContentRow = typeof deviceContents.$inferSelect;
