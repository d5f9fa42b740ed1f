/**
 * Benchmark server for the proof-of-display reports: the production service (`createService`) on a bare
 * `@hono/node-server`, with a tenant ("Bench Reports") whose plays are seeded at start as day rollups, set-based
 * (generate_series), as the ingest leaves them: BENCH_REPORTS_DEVICES devices (rows in `device` and names in
 * `play_subject`) and as many content items (names only), BENCH_REPORTS_DAYS UTC days up to today, per device
 * and day one `play_rollup_day` row of the DEVICE dimension and one of the CONTENT dimension (device `i` plays
 * content `i`), each of its 96 quarter-hour slots holding 1 or 2 plays of 10 s (about 115 plays a day: 1 000
 * devices × 91 days ≈ 10.5 million plays), stored as running sums like the ingest stores them (no clicks,
 * viewers or attention: empty arrays), and the matching `play_rollup_day_total` rows.
 *
 * For the ingestion benchmark it also seeds INGEST_FILES files (their ids in the ready line, so the plays the
 * client sends name real files) and answers, bench-only:
 *   - `POST /__bench/ingest-baseline` `{device, events}`: the same play rows the API would store, inserted
 *     directly into `play_event` in one statement (no checks, no idempotency lock, no rollups), timed in process.
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
import { benchTenant, benchUuid, seededDeviceId, seedDevices, seedFiles } from './server-lib';

const INGEST_FILES = 50;

const BENCH_TENANT = 'Bench Reports';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  let tenant = 0;
  const fetch = async (request: Request, env: unknown) => {
    const url = new URL(request.url);
    if (url.pathname === '/__bench/ingest-baseline' && request.method === 'POST') {
      return Response.json(await ingestBaseline(handle, tenant, (await request.json()) as BaselineInput));
    }

    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady, upgrade });

  await prepare();
  const started = performance.now();
  const customerId = await benchTenant(handle, BENCH_TENANT);
  const devices = Number(process.env.BENCH_REPORTS_DEVICES ?? 1_000);
  const days = Number(process.env.BENCH_REPORTS_DAYS ?? 91);
  await seedDevices(handle, customerId, { devices, tokenSeed: process.env.BENCH_TOKEN_SEED ?? 'bench-reports-token-seed' });
  const plays = await seedRollups(handle, customerId, devices, days);
  tenant = customerId;
  await seedFiles(handle, config.admin.email, customerId, { files: INGEST_FILES, folders: 5 });
  const fileIds = (
    await execRows<{ id: string }>(
      handle.db,
      sql`select id::text as id from file where customer_id = ${customerId} order by id limit ${INGEST_FILES}`,
    )
  ).map((r) => r.id);
  setReady(true);
  const seed = { devices, days, rollupRows: devices * days * 2, plays, fileIds, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'reports', port: config.port, driver: handle.driver, pid: process.pid, customerId, seed })}\n`,
  );
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
  const sums = (scale: number) =>
    sql.raw(
      `array(select coalesce(sum(case when (k + i + d) % 3 = 0 then 2 else 1 end * ${scale}) over (order by k rows between unbounded preceding and 1 preceding), 0)::bigint from generate_series(0, 96) k order by k)`,
    );
  const empty = sql`'{}'`;
  const batch = Math.max(1, Math.floor(20_000 / days));
  for (let from = 1; from <= devices; from += batch) {
    const to = Math.min(devices, from + batch - 1);
    for (const [dimension, subject] of [
      ['DEVICE', deviceId(sql`i`)],
      ['CONTENT', contentId(sql`i`)],
    ] as const) {
      await db.execute(sql`insert into play_rollup_day (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
        select ${c}::bigint, ${dimension}, ${subject}::text, current_date - d, ${sums(1)}::int[], ${sums(1)}::int[], ${sums(10_000)}, ${empty}::int[], ${empty}::int[], ${empty}::bigint[]
          from generate_series(${from}::int, ${to}::int) i cross join generate_series(0, ${days - 1}::int) d`);
    }
  }
  await db.execute(sql`insert into play_rollup_day_total (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
    select customer_id, dimension, subject_id, day, starts[97], ends[97], duration_ms[97], 0, 0, 0 from play_rollup_day where customer_id = ${c}`);
  await db.execute(sql`vacuum analyze play_rollup_day`);
  await db.execute(sql`vacuum analyze play_rollup_day_total`);
  await db.execute(sql`vacuum analyze play_subject`);
  const [row] = await execRows<{ plays: number }>(
    db,
    sql`select sum(starts[97])::float8 as plays from play_rollup_day where customer_id = ${c} and dimension = 'DEVICE'`,
  );

  return Number(row?.plays ?? 0);
}

type BaselineInput = {
  device: number;
  events: { eventId: string; startedAt: number; endedAt: number; completed: boolean; fileId?: string }[];
};

/** The ingestion's baseline: the rows of `events` inserted straight into play_event, one statement; answers its time. */
async function ingestBaseline(handle: DatabaseHandle, c: number, input: BaselineInput): Promise<{ ms: number; inserted: number }> {
  const e = input.events;
  const started = performance.now();
  const rows = await execRows<{ n: number }>(
    handle.db,
    sql`with inserted as (
          insert into play_event (customer_id, device_id, event_id, started_at, ended_at, duration_ms, completed, device_group_id, file_id)
          select ${c}::bigint, d.id, x.event_id, to_timestamp(x.started_at / 1000.0), to_timestamp(x.ended_at / 1000.0), (x.ended_at - x.started_at)::int, x.completed, d.device_group_id, x.file_id
            from unnest(${`{${e.map((v) => v.eventId).join(',')}}`}::uuid[], ${`{${e.map((v) => v.startedAt).join(',')}}`}::bigint[], ${`{${e.map((v) => v.endedAt).join(',')}}`}::bigint[],
                        ${`{${e.map((v) => v.completed).join(',')}}`}::boolean[], ${`{${e.map((v) => v.fileId ?? 'NULL').join(',')}}`}::uuid[])
                 as x(event_id, started_at, ended_at, completed, file_id)
            cross join (select id, device_group_id from device where id = ${seededDeviceId(input.device)}) d
          on conflict do nothing
          returning 1)
        select count(*)::int as n from inserted`,
  );

  return { ms: performance.now() - started, inserted: Number(rows[0]?.n ?? 0) };
}

void main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
