import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { systemContext } from '@/server/context/service-context';
import { auditChange } from '@/server/modules/audit-log';
import { deleteOutdatedFiles } from './file-folders.queries';

export const CLEANUP_OUTDATED_JOB = 'fileFolders.cleanup-outdated';
const BATCH = 500;

/**
 * Job `fileFolders.cleanup-outdated`: deletes the files whose `validTo` has passed and that lie directly
 * in a folder in cleanup mode (sub-folders follow their own setting). Each batch is one statement in
 * its own transaction with one audit entry per customer; the file delete trigger queues the blobs and
 * returns the quota. Answers the number of files removed.
 */
export async function cleanupOutdatedFiles(db: Database, log?: Logger): Promise<number> {
  const ctx = systemContext(db, CLEANUP_OUTDATED_JOB, log);
  let total = 0;
  for (;;) {
    const removed = await withTransaction(db, async (tx) => {
      const perCustomer = await deleteOutdatedFiles(tx, BATCH);
      for (const { customerId, count } of perCustomer) {
        await auditChange(tx, ctx, {
          action: 'cleanupOutdatedFiles',
          entityType: 'file',
          customerId,
          message: `${count} outdated file(s) removed from folders in cleanup mode`,
          changes: { count },
        });
      }

      return perCustomer.reduce((sum, c) => sum + c.count, 0);
    });
    total += removed;
    if (removed < BATCH) break;
  }
  if (total > 0) log?.info({ removed: total }, 'outdated files removed from folders in cleanup mode');

  return total;
}
