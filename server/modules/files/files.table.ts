import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { users } from '@/server/modules/users/users.table';

/**
 * A media file (spec 2 "File"). Files are immutable: the blob under `storageKey(file)` never
 * changes after the row is committed. `folder_path` copies the parent folder's materialised path
 * so `fileFolderPath:{id}` (recursive folder search) is one GIN-indexed predicate on this table;
 * folder moves rewrite it in the same transaction.
 *
 * Deleting rows (directly, with a folder, or with the customer) queues their blobs for removal
 * and gives the bytes back to the quota through a statement trigger (migration 0003), so no path
 * of deletion can leave an orphan blob or a wrong usage counter.
 */
export const files = pgTable(
  'file',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    fileFolderId: uuid('file_folder_id')
      .notNull()
      .references(() => fileFolders.id, { onDelete: 'cascade' }),
    folderPath: uuid('folder_path').array().notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    crcCheckSum: text('crc_check_sum').notNull(),
    width: integer('width'),
    height: integer('height'),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    creatorEmail: text('creator_email'),
    creatorName: text('creator_name'),
    validFrom: timestamp('valid_from', { withTimezone: true, precision: 3 }),
    validTo: timestamp('valid_to', { withTimezone: true, precision: 3 }),
    fileMutabilityType: text('file_mutability_type').notNull().default('IMMUTABLE'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    metaData: jsonb('meta_data').$type<Record<string, unknown>>(),
    muted: boolean('muted').notNull().default(false),
    /** Set when the client uploaded the thumbnail (`.tmb` blob); null until then. */
    lastPreviewUploadTime: timestamp('last_preview_upload_time', { withTimezone: true, precision: 3 }),
    previewPath: text('preview_path'),
  },
  (t) => [
    index('file_customer_folder_name_idx').on(t.customerId, t.fileFolderId, t.name),
    index('file_customer_created_idx').on(t.customerId, t.createdDate, t.id),
    index('file_customer_crc_idx').on(t.customerId, t.crcCheckSum),
    index('file_folder_path_gin_idx').using('gin', t.folderPath),
    index('file_tags_gin_idx').using('gin', t.tags),
    index('file_valid_to_idx').on(t.validTo),
  ],
);

export type FileRow = typeof files.$inferSelect;
