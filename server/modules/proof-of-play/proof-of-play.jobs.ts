import type { Database } from '@/server/db/client';
import type { Logger } from 'pino';
import { dropPlayPartitionsBefore, ensurePlayPartitions } from './proof-of-play.queries';
import { PLAY_MAX_AGE_MS } from './proof-of-play.service';

export const PLAY_PARTITIONS_JOB = 'proof-of-play.partitions';

/**
 * At every start and daily: the monthly partitions of play_event exist from a year back (the oldest play
 * accepted) to three months ahead, and those that ended more than a year ago are dropped whole.
 */
export async function maintainPlayPartitions(db: Database, now = new Date(), log?: Logger): Promise<{ created: number; dropped: number }> {
  const oldest = new Date(now.getTime() - PLAY_MAX_AGE_MS);
  const created = await ensurePlayPartitions(db, oldest, 16);
  const dropped = await dropPlayPartitionsBefore(db, oldest);
  if (created + dropped > 0) log?.info({ created, dropped }, 'proof-of-play partitions maintained');

  return { created, dropped };
}
