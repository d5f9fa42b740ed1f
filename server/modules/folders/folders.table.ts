import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/*
 * The three folder hierarchies. Each keeps a materialised path (`path`: ancestor ids from the
 * root down to and including the folder itself) so recursive queries are one GIN-indexed
 * `path @> ARRAY[id]` predicate. They start minimal here (created with each customer) and are
 * completed by the device, media and content modules.
 */

export const deviceGroups = pgTable(
  'device_group',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => deviceGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: uuid('path').array().notNull(),
    type: text('type', { enum: ['NORMAL', 'VIDEO_WALL'] })
      .notNull()
      .default('NORMAL'),
    videoWallMetaData: jsonb('video_wall_meta_data'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('device_group_customer_parent_idx').on(t.customerId, t.parentId, t.name),
    index('device_group_path_idx').using('gin', t.path),
  ],
);

export const fileFolders = pgTable(
  'file_folder',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => fileFolders.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: uuid('path').array().notNull(),
    cleanupOutdatedFiles: boolean('cleanup_outdated_files').notNull().default(false),
    /** 1: stored folder (regular or cloud-synced); 2: filtered folder whose contents follow `quickFilterId`. */
    fileFolderType: smallint('file_folder_type').notNull().default(1),
    quickFilterId: uuid('quick_filter_id'),
    syncType: text('sync_type').notNull().default('NOT_SYNCED'),
    lastChange: timestamp('last_change', { withTimezone: true, precision: 3 }),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('file_folder_customer_parent_idx').on(t.customerId, t.parentId, t.name),
    index('file_folder_path_idx').using('gin', t.path),
    // Sibling names are unique, case-insensitively (409 `fileFolder.error.duplicateName`), races included.
    uniqueIndex('file_folder_sibling_name_key').on(t.parentId, sql`lower(${t.name})`),
    index('file_folder_cleanup_idx')
      .on(t.customerId)
      .where(sql`${t.cleanupOutdatedFiles}`),
  ],
);

export const contentGroups = pgTable(
  'content_group',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id').references((): AnyPgColumn => contentGroups.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: uuid('path').array().notNull(),
    isTemplateGroup: boolean('is_template_group').notNull().default(false),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('content_group_customer_parent_idx').on(t.customerId, t.parentId, t.name),
    index('content_group_path_idx').using('gin', t.path),
    // Sibling names are unique, case-insensitively (409 `contentGroup.error.duplicateName`), races included.
    uniqueIndex('content_group_sibling_name_key').on(t.parentId, sql`lower(${t.name})`),
  ],
);
