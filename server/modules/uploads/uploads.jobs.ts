import type { Logger } from 'pino';
import type { Config } from '@/server/config';
import type { Database } from '@/server/db/client';
import type { JobDefinition } from '@/server/jobs/queue';
import { createBlobStore } from '@/server/storage';
import type { BlobStore } from '@/server/storage/blob-store';
import { discardSessionBytes } from './upload-sessions.service';
import {
  deleteFinishedSessions,
  deletePartRows,
  existingFileIds,
  findExpiredSessions,
  releaseStaleCompletions,
  transitionOpenSession,
} from './uploads.queries';
import { deleteDueCleanupEntries, findDueCleanupEntries } from '@/server/storage/blob-cleanup.queries';

type JobDeps = { db: Database; storage: BlobStore; log: Logger };

const BATCH = 500;
const ABANDONED_AFTER_MS = 48 * 60 * 60 * 1000;
const FILE_KEY = /^customer\/\d+\/files\/([0-9a-f-]{36})(\.tmb)?$/;
/** Finished sessions stay this long after their expiry, so a late repeated complete still finds its file. */
const FINISHED_SESSION_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * `storage.cleanup`: removes the blobs of due `blob_cleanup` entries (deleted files, and uploads whose
 * writer never committed a row, e.g. after a crash), then the entries. A blob whose file row exists is
 * never removed: only the entry is (a safety net for thumbnails replaced in place).
 */
export async function cleanupBlobs(deps: JobDeps, now = new Date()): Promise<number> {
  let removed = 0;
  for (;;) {
    const due = await findDueCleanupEntries(deps.db, now, BATCH);
    if (due.length === 0) return removed;
    const ids = due.map((e) => FILE_KEY.exec(e.key)?.[1]).filter((id): id is string => id !== undefined);
    const live = await existingFileIds(deps.db, ids);
    const done: string[] = [];
    for (const entry of due) {
      const id = FILE_KEY.exec(entry.key)?.[1];
      try {
        if (!id || !live.has(id)) {
          await deps.storage.delete(entry.key);
          removed++;
        }
        done.push(entry.key);
      } catch (err) {
        deps.log.warn({ err, key: entry.key }, 'blob removal failed; retried on the next run');
      }
    }
    await deleteDueCleanupEntries(deps.db, done, now);
    if (due.length < BATCH || done.length === 0) return removed;
  }
}

/**
 * `uploads.expire`: hands sessions whose completer died (a COMPLETING claim past its lease) back to
 * OPEN, cancels sessions past their 24 hours and removes their bytes at once (DECISIONS §7), and drops
 * finished sessions after their retention.
 */
export async function expireUploadSessions(deps: JobDeps, now = new Date()): Promise<number> {
  const released = await releaseStaleCompletions(deps.db);
  if (released > 0) deps.log.info({ released }, 'upload sessions whose complete died are open again');
  let cancelled = 0;
  for (;;) {
    const expired = await findExpiredSessions(deps.db, now, BATCH);
    let failed = 0;
    for (const session of expired) {
      try {
        // Cancelled first (the quota reservation ends, parts are refused), then the bytes go; a session a
        // complete claimed meanwhile is left to it.
        if (!(await transitionOpenSession(deps.db, session, { state: 'CANCELLED' }))) continue;
        cancelled++;
        await deletePartRows(deps.db, session.id);
        await discardSessionBytes(deps, session);
      } catch (err) {
        failed++;
        deps.log.warn({ err, uploadId: session.id }, 'expiring an upload session failed; retried on the next run');
      }
    }
    // A batch that only failed would come back unchanged: stop and let the next run retry.
    if (expired.length < BATCH || failed === expired.length) break;
  }
  await deleteFinishedSessions(deps.db, new Date(now.getTime() - FINISHED_SESSION_RETENTION_MS));

  return cancelled;
}

/** The jobs of this module; the store is opened once, on first use. */
export function uploadJobs(db: Database, config: Config, log: Logger): JobDefinition[] {
  let store: Promise<BlobStore> | undefined;
  const deps = async (): Promise<JobDeps> => ({ db, storage: await (store ??= createBlobStore(config)), log });

  return [
    {
      name: 'storage.cleanup',
      cron: '*/10 * * * *',
      run: async () => {
        const d = await deps();
        const removed = await cleanupBlobs(d);
        // Sessions expire after 24 h, so anything of a writer older than twice that is abandoned.
        const swept = await d.storage.sweepAbandoned(ABANDONED_AFTER_MS);
        if (removed > 0 || swept > 0) log.info({ removed, swept }, 'orphan and deleted blobs removed');
      },
    },
    {
      name: 'uploads.expire',
      // Every 10 minutes: a session whose completer died is open again within minutes even if nobody asks.
      cron: '*/10 * * * *',
      run: async () => {
        const cancelled = await expireUploadSessions(await deps());
        if (cancelled > 0) log.info({ cancelled }, 'expired upload sessions cancelled');
      },
    },
  ];
}
