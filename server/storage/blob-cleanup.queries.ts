import { and, asc, inArray, lte } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { blobCleanup } from './storage.table';

// Blob cleanup entries (crash safety, see storage.table.ts): what every writer of blobs (uploads, thumbnails,
// device screenshots) and the `storage.cleanup` job share.

/** Commits (outside any transaction) the promise to remove `keys` after `notBefore` unless a row claims them. */
export async function insertCleanupEntries(db: Executor, keys: readonly string[], notBefore: Date, reason: string): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(blobCleanup)
    .values(keys.map((key) => ({ key, notBefore, reason })))
    .onConflictDoUpdate({ target: blobCleanup.key, set: { notBefore, reason } });
}

export async function deleteCleanupEntries(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(blobCleanup).where(inArray(blobCleanup.key, [...keys]));
}

export async function findDueCleanupEntries(db: Executor, now: Date, limit: number) {
  return db.select().from(blobCleanup).where(lte(blobCleanup.notBefore, now)).orderBy(asc(blobCleanup.notBefore)).limit(limit);
}

/** Removes entries only if still due (a writer may have pushed one back meanwhile). */
export async function deleteDueCleanupEntries(db: Executor, keys: readonly string[], now: Date): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(blobCleanup).where(and(inArray(blobCleanup.key, [...keys]), lte(blobCleanup.notBefore, now)));
}
