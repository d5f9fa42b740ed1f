import { sql } from 'drizzle-orm';
import type { Executor } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { textArray } from '@/server/modules/tags';
import { deviceMetricSamples } from './devices.table';

/* Device metric samples (spec 3 "Device metric types"): what the player reports, what the console charts. */

/** The metric types a device has samples of. */
export async function deviceMetricTypesOf(db: Executor, deviceId: string): Promise<string[]> {
  const rows = await execRows<{ type: string }>(
    db,
    sql`select distinct ${deviceMetricSamples.type} as type from ${deviceMetricSamples} where ${deviceMetricSamples.deviceId} = ${deviceId}::uuid`,
  );

  return rows.map((r) => r.type);
}

export type MetricBucketRow = {
  type: string;
  bucket: number | null;
  avg: number | null;
  min: number | null;
  max: number | null;
  sum: number;
  count: number;
};

/**
 * Per type: each of `points` equal buckets over [from, to) with samples (1-based `bucket`), and the whole
 * range (`bucket` null), in one statement (GROUPING SETS).
 */
export async function deviceMetricBuckets(
  db: Executor,
  input: { deviceId: string; types: string[]; from: number; to: number; points: number },
): Promise<MetricBucketRow[]> {
  const s = deviceMetricSamples;
  const ms = sql`(extract(epoch from ${s.sampledAt}) * 1000)`;
  const rows = await execRows<{
    type: string;
    bucket: string | number | null;
    avg: string | number | null;
    min: string | number | null;
    max: string | number | null;
    sum: string | number | null;
    count: string | number;
  }>(
    db,
    sql`select type, bucket, avg(value) as avg, min(value) as min, max(value) as max, sum(value) as sum, count(*) as count
      from (
        select ${s.type} as type, width_bucket(${ms}, ${input.from}::float8, ${input.to}::float8, ${input.points}::int) as bucket, ${s.value} as value
        from ${s}
        where ${s.deviceId} = ${input.deviceId}::uuid and ${s.type} = any(${textArray(input.types)})
          and ${s.sampledAt} >= to_timestamp(${input.from}::float8 / 1000) and ${s.sampledAt} < to_timestamp(${input.to}::float8 / 1000)
      ) samples
      group by grouping sets ((type, bucket), (type))`,
  );
  const num = (v: string | number | null) => (v === null ? null : Number(v));

  return rows.map((r) => ({
    type: r.type,
    bucket: num(r.bucket),
    avg: num(r.avg),
    min: num(r.min),
    max: num(r.max),
    sum: num(r.sum) ?? 0,
    count: Number(r.count),
  }));
}

/** Deletes up to `limit` metric samples taken before `cutoff`; answers how many went (the job repeats while full). */
export async function deleteMetricSamplesBefore(db: Executor, cutoff: Date, limit: number): Promise<number> {
  const rows = await execRows<{ n: number }>(
    db,
    sql`with doomed as (
          delete from ${deviceMetricSamples}
           where ctid = any(array(select ctid from ${deviceMetricSamples} where ${deviceMetricSamples.sampledAt} < ${cutoff.toISOString()} limit ${limit}))
          returning 1
        )
        select count(*)::int as n from doomed`,
  );

  return rows[0]?.n ?? 0;
}

/** Metric samples of one device, in one INSERT. */
export async function insertMetricSamples(
  db: Executor,
  deviceId: string,
  samples: ReadonlyArray<{ type: string; sampledAt: Date; value: number }>,
): Promise<void> {
  if (samples.length === 0) return;
  await db.insert(deviceMetricSamples).values(samples.map((s) => ({ deviceId, ...s })));
}
