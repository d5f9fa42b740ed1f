import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import { deleteMetricSamplesBefore } from './device-metrics.queries';
import { markSilentDevicesOffline } from './devices.queries';

export const OFFLINE_SWEEP_JOB = 'devices.offline-sweep';
/** The sweep runs this often within its one-minute schedule, so a device is OFFLINE within 30 s of its deadline. */
const OFFLINE_SWEEP_EVERY_MS = 15_000;

/** One pass: devices silent past 2.5 × their heartbeat interval go OFFLINE (spec 4 §3). Answers how many. */
export async function sweepOfflineDevices(db: Database, now = new Date(), log?: Logger): Promise<number> {
  const gone = await markSilentDevicesOffline(db, now);
  if (gone.length > 0) log?.info({ offline: gone.length }, 'silent devices marked offline');

  return gone.length;
}

/**
 * Job `devices.offline-sweep`: scheduled every minute (the queue's finest cron), it sweeps four times 15 s
 * apart. One worker runs a job at a time across instances, so the sweeps never overlap. `stopping` (the instance
 * stops) ends it between sweeps: the next minute's run, on whichever instance, sweeps again.
 */
export async function runOfflineSweeps(
  db: Database,
  options: { log?: Logger; stopping?: AbortSignal; sleep?: (ms: number) => Promise<unknown> } = {},
): Promise<void> {
  const { log, stopping } = options;
  const sleep = options.sleep ?? ((ms: number) => delay(ms, undefined, { signal: stopping }).catch(() => undefined));
  for (let i = 0; i < 60_000 / OFFLINE_SWEEP_EVERY_MS; i++) {
    if (i > 0) await sleep(OFFLINE_SWEEP_EVERY_MS);
    if (stopping?.aborted) return;
    await sweepOfflineDevices(db, new Date(), log);
  }
}

export const METRIC_RETENTION_JOB = 'devices.metric-retention';
/** Metric samples older than this are deleted (the graphs' ranges stay well inside it). */
export const METRIC_RETENTION_DAYS = 90;
const METRIC_DELETE_BATCH = 10_000;

/**
 * Job `devices.metric-retention` (daily): deletes samples older than METRIC_RETENTION_DAYS in batches of
 * 10 000, each its own statement, so no transaction holds many rows. Answers how many went.
 */
export async function deleteOldMetricSamples(db: Database, now = new Date(), log?: Logger): Promise<number> {
  const cutoff = new Date(now.getTime() - METRIC_RETENTION_DAYS * 86_400_000);
  let total = 0;
  for (;;) {
    const n = await deleteMetricSamplesBefore(db, cutoff, METRIC_DELETE_BATCH);
    total += n;
    if (n < METRIC_DELETE_BATCH) break;
  }
  if (total > 0) log?.info({ deleted: total, cutoff: cutoff.toISOString() }, 'old device metric samples deleted');

  return total;
}
