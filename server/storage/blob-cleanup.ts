import type { Logger } from 'pino';
import type { Executor } from '@/server/db/client';
import type { BlobStore } from './blob-store';
import { deleteCleanupEntries } from './blob-cleanup.queries';

/**
 * Removes blobs a failed write stored (an upload, a thumbnail, a screenshot), then their cleanup entries (kept when a
 * delete fails: the job retries).
 */
export async function discardBlobs(ctx: { db: Executor; log: Logger; storage: BlobStore }, keys: readonly string[]): Promise<void> {
  const removed: string[] = [];
  for (const key of keys) {
    try {
      await ctx.storage.delete(key);
      removed.push(key);
    } catch (err) {
      ctx.log.warn({ err, key }, 'blob removal failed; the cleanup job will retry');
    }
  }
  await deleteCleanupEntries(ctx.db, removed).catch((err) => ctx.log.warn({ err }, 'cleanup entry removal failed'));
}
