import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Blobs to remove once `notBefore` has passed (job `storage.cleanup`). Two writers:
 * - the file delete trigger queues the blobs of deleted files (notBefore = now);
 * - a writer about to store a new blob first commits an entry with a grace period and deletes it in
 *   the transaction that commits the file row. A crash in between leaves the entry, so the job
 *   removes the orphan blob after the grace period.
 */
export const blobCleanup = pgTable(
  'blob_cleanup',
  {
    key: text('key').primaryKey(),
    notBefore: timestamp('not_before', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    reason: text('reason').notNull(),
  },
  (t) => [index('blob_cleanup_not_before_idx').on(t.notBefore)],
);
