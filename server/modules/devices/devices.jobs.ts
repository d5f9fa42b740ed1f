import type { Logger } from 'pino';
import type { Database } from '@/server/db/client';
import { markSilentDevicesOffline } from './devices.queries';

export const OFFLINE_SWEEP_JOB = 'devices.offline-sweep';
/** The sweep runs this often within its one-minute schedule, so a device is OFFLINE within 30 s of its deadline. */
export const OFFLINE_SWEEP_EVERY_MS = 15_000;

/** One pass: devices silent past 2.5 × their heartbeat interval go OFFLINE (spec 4 §3). Answers how many. */
export async function sweepOfflineDevices(db: Database, now = new Date(), log?: Logger): Promise<number> {
  const gone = await markSilentDevicesOffline(db, now);
  if (gone.length > 0) log?.info({ offline: gone.length }, 'silent devices marked offline');

  return gone.length;
}

/**
 * Job `devices.offline-sweep`: scheduled every minute (the queue's finest cron), it sweeps four times 15 s
 * apart. One worker runs a job at a time across instances, so the sweeps never overlap.
 */
export async function runOfflineSweeps(db: Database, log?: Logger, sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))): Promise<void> {
  for (let i = 0; i < 60_000 / OFFLINE_SWEEP_EVERY_MS; i++) {
    if (i > 0) await sleep(OFFLINE_SWEEP_EVERY_MS);
    await sweepOfflineDevices(db, new Date(), log);
  }
}
