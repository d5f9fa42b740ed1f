import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';

/* The monthly partitions of play_event (custom SQL functions of server/db/custom-sql), kept by the module's jobs. */

/** Creates the monthly partitions of play_event from `from`'s month for `months` months (those missing). */
export async function ensurePlayPartitions(db: Executor, from: Date, months: number): Promise<number> {
  const [row] = await execRows<{ created: number }>(
    db,
    sql`select play_event_ensure_partitions(${from.toISOString().slice(0, 10)}::date, ${months}) as created`,
  );

  return Number(row?.created ?? 0);
}

/** Drops the monthly partitions of play_event that end on or before `cutoff`. */
export async function dropPlayPartitionsBefore(db: Executor, cutoff: Date): Promise<number> {
  const [row] = await execRows<{ dropped: number }>(
    db,
    sql`select play_event_drop_partitions_before(${cutoff.toISOString()}::timestamptz) as dropped`,
  );

  return Number(row?.dropped ?? 0);
}
