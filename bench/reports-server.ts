/**
 * Benchmark server for the proof-of-display reports: the production service (`createService`) on a bare
 * `@hono/node-server`, with a tenant ("Bench Reports") whose plays are seeded at start as day rollups, set-based
 * (generate_series), as the ingest leaves them: BENCH_REPORTS_DEVICES devices (rows in `device` and names in
 * `play_subject`) and as many content items (names only), BENCH_REPORTS_DAYS UTC days up to today, per device
 * and day one `play_rollup_day` row of the DEVICE dimension and one of the CONTENT dimension (device `i` plays
 * content `i`), each of its 96 quarter-hour slots holding 1 or 2 plays of 10 s (about 115 plays a day: 1 000
 * devices × 91 days ≈ 10.5 million plays), stored as running sums like the ingest stores them.
 *
 * Started by scripts/bench-reports.mjs with `node --import tsx bench/reports-server.ts`; prints one JSON line
 * (`{"benchServer":"reports",...}`) when ready. Listens on 127.0.0.1 only; never part of the product.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { DatabaseHandle } from '@/server/db/client';
import { execRows } from '@/server/db/sql';
import { createLogger } from '@/server/logger';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { benchTenant, benchUuid, seedDevices } from './server-lib';

const BENCH_TENANT = 'Bench Reports';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  await serveForBenchmark({ config, handle, fetch: (request, env) => app.fetch(request, env as never), setReady, upgrade });

  await prepare();
  const started = performance.now();
  const customerId = await benchTenant(handle, BENCH_TENANT);
  const devices = Number(process.env.BENCH_REPORTS_DEVICES ?? 1_000);
  const days = Number(process.env.BENCH_REPORTS_DAYS ?? 91);
  await seedDevices(handle, customerId, { devices, tokenSeed: process.env.BENCH_TOKEN_SEED ?? 'bench-reports-token-seed' });
  const plays = await seedRollups(handle, customerId, devices, days);
  setReady(true);
  const seed = { devices, days, rollupRows: devices * days * 2, plays, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(`${JSON.stringify({ benchServer: 'reports', port: config.port, driver: handle.driver, pid: process.pid, customerId, seed })}\n`);
}

/** The DEVICE and CONTENT day rollups of `devices` subjects over the last `days` UTC days, and their names; answers the plays they count. */
async function seedRollups(handle: DatabaseHandle, c: number, devices: number, days: number): Promise<number> {
  const { db } = handle;
  const deviceId = (i: unknown) => benchUuid(sql`'bench-device-' || (${i})::text`);
  const contentId = (i: unknown) => benchUuid(sql`'bench-report-content-' || ${c}::text || '-' || (${i})::text`);
  await db.execute(sql`insert into play_subject (customer_id, dimension, subject_id, name)
    select ${c}::bigint, 'DEVICE', ${deviceId(sql`i`)}::text, 'Bench screen ' || lpad(i::text, 5, '0') from generate_series(1, ${devices}::int) i
    union all
    select ${c}::bigint, 'CONTENT', ${contentId(sql`i`)}::text, 'Bench content ' || lpad(i::text, 5, '0') from generate_series(1, ${devices}::int) i
    on conflict do nothing`);
  // Slot k of subject i on day d holds 1 play, 2 when (k + i + d) % 3 = 0; the arrays are the running sums from a leading 0.
  const sums = (scale: number) => sql.raw(`array(select coalesce(sum(case when (k + i + d) % 3 = 0 then 2 else 1 end * ${scale}) over (order by k rows between unbounded preceding and 1 preceding), 0)::bigint from generate_series(0, 96) k order by k)`);
  const zeros = sql`array_fill(0, array[97])`;
  const batch = Math.max(1, Math.floor(20_000 / days));
  for (let from = 1; from <= devices; from += batch) {
    const to = Math.min(devices, from + batch - 1);
    for (const [dimension, subject] of [['DEVICE', deviceId(sql`i`)], ['CONTENT', contentId(sql`i`)]] as const) {
      await db.execute(sql`insert into play_rollup_day (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
        select ${c}::bigint, ${dimension}, ${subject}::text, current_date - d, ${sums(1)}::int[], ${sums(1)}::int[], ${sums(10_000)}, ${zeros}::int[], ${zeros}::int[], ${zeros}::bigint[]
          from generate_series(${from}::int, ${to}::int) i cross join generate_series(0, ${days - 1}::int) d`);
    }
  }
  await db.execute(sql`vacuum analyze play_rollup_day`);
  await db.execute(sql`vacuum analyze play_subject`);
  const [row] = await execRows<{ plays: number }>(db, sql`select sum(starts[97])::float8 as plays from play_rollup_day where customer_id = ${c} and dimension = 'DEVICE'`);

  return Number(row?.plays ?? 0);
}

void main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
