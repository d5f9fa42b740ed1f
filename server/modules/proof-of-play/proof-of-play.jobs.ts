import type { Database } from '@/server/db/client';
import type { Logger } from 'pino';
import { dropPlayPartitionsBefore, ensurePlayPartitions } from './play-partitions.queries';
import { compactPlayRollups } from './proof-of-play.queries';
import { PLAY_MAX_AGE_MS } from './proof-of-play.service';

export const PLAY_PARTITIONS_JOB = 'proof-of-play.partitions';
export const PLAY_ROLLUP_COMPACTION_JOB = 'proof-of-play.compact-rollups';

/** Rounds of `compactPlayRollups` a run at most (the next minute's run goes on). */
const COMPACTION_ROUNDS = 50;

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

/**
 * Every minute: the rollup rows the ingests added since are merged into one row a key (proof-of-play.table.ts),
 * so reports read about one row a subject and day. Rounds of a few thousand rows, each its own transaction.
 */
export async function compactRollups(db: Database, log?: Logger): Promise<number> {
  let merged = 0;
  for (let round = 0; round < COMPACTION_ROUNDS; round++) {
    const result = await compactPlayRollups(db);
    merged += result.merged;
    if (!result.more) break;
  }
  if (merged > 0) log?.debug({ merged }, 'proof-of-play rollups compacted');

  return merged;
}
