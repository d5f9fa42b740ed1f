import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { users } from '@/server/modules/users/users.table';

/** COMPLETING: a `complete` is assembling the parts (claimed so two completes never run at once). */
export const uploadSessionStates = ['OPEN', 'COMPLETING', 'COMPLETED', 'CANCELLED'] as const;

/**
 * A chunked upload (spec 2 "Upload session", state table "Chunked upload session").
 * `storageUploadId` is the blob store's multipart id (S3's UploadId; a directory token locally).
 * The create parameters of the final file are kept here until `complete`.
 */
export const uploadSessions = pgTable(
  'upload_session',
  {
    id: uuid('id').primaryKey(),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    state: text('state', { enum: uploadSessionStates }).notNull().default('OPEN'),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    totalChunks: integer('total_chunks').notNull(),
    maxChunkSize: bigint('max_chunk_size', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    storageUploadId: text('storage_upload_id').notNull(),
    contentType: text('content_type'),
    metaData: jsonb('meta_data').$type<Record<string, unknown>>(),
    parentId: uuid('parent_id'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The `teamIds` create parameter as given (`<teamId>:<readOnly>,…`), applied at complete. */
    teamIds: text('team_ids'),
    validFrom: timestamp('valid_from', { withTimezone: true, precision: 3 }),
    validTo: timestamp('valid_to', { withTimezone: true, precision: 3 }),
    width: integer('width'),
    height: integer('height'),
    muted: boolean('muted').notNull().default(false),
    crcChecksum: text('crc_checksum'),
    /** The file created by `complete` (so a repeated complete answers the same file). */
    fileId: uuid('file_id').references(() => files.id, { onDelete: 'set null' }),
    /** When the running `complete` claimed the session; a claim older than the grace may be taken over. */
    completingSince: timestamp('completing_since', { withTimezone: true, precision: 3 }),
    createdDate: timestamp('created_date', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('upload_session_customer_idx').on(t.customerId, t.id), index('upload_session_open_expiry_idx').on(t.state, t.expiresAt)],
);

/** One received part; a re-sent part replaces the row (and the blob part). */
export const uploadParts = pgTable(
  'upload_part',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => uploadSessions.id, { onDelete: 'cascade' }),
    partNumber: integer('part_number').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    etag: text('etag').notNull(),
    /** CRC32 of the part (8 hex digits) when the server saw the bytes; combined at complete. */
    crc32: text('crc32'),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.partNumber], name: 'upload_part_pkey' })],
);

export type UploadSessionRow = typeof uploadSessions.$inferSelect;
export type UploadPartRow = typeof uploadParts.$inferSelect;
