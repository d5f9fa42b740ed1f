import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';
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
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
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

/** What a content item's `data` points at (datasources: a slide's datasource widgets). */
export const contentReferenceTypes = ['file', 'fileFolder', 'content', 'datasource'] as const;
export type ContentReferenceType = (typeof contentReferenceTypes)[number];

/**
 * The references of every content item's `data`, rewritten with the item on every write: which files,
 * file folders and other content it embeds. Usage details, the file delete guard, `removeFromPlaylists`,
 * `replaceFileReference` and the embedding-cycle check read this table (indexed both ways), never `data`.
 */
export const contentReferences = pgTable(
  'content_reference',
  {
    contentId: uuid('content_id')
      .notNull()
      .references(() => deviceContents.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: contentReferenceTypes }).notNull(),
    targetId: uuid('target_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contentId, t.targetType, t.targetId] }),
    index('content_reference_target_idx').on(t.customerId, t.targetType, t.targetId),
  ],
);

/**
 * The starter templates every tenant can start a slide from (`GET /api/template`). Global and read-only:
 * written from the catalogue in content-templates.ts at start (the module's `prepare`), never by a request.
 */
export const contentTemplates = pgTable('content_template', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  structureType: text('structure_type', { enum: ['SLIDE', 'COMPLEX'] }).notNull(),
  tags: text('tags')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  data: jsonb('data').$type<unknown>().notNull(),
  position: integer('position').notNull(),
});
