/**
 * Benchmark server for datasources (issue 30): the production service (`createService`: the Hono app, its `upgrade`
 * listener for the device WebSocket and its push feed) on a bare `@hono/node-server` like the other benchmark
 * servers, and — unlike them — the job queue as server/main.ts starts it (`startJobQueue` with every module's
 * jobs), so `datasources.refresh-due` ticks every 5 s with its 16 slots exactly as deployed.
 *
 * Seeded at start, set-based (generate_series), in the "Bench Datasources" tenant:
 *   - BENCH_SEED_DEVICES devices with access tokens `<BENCH_TOKEN_SEED>-<i>` (bench/server-lib.ts `seedDevices`);
 *   - BENCH_FEEDS external JSON datasources `Bench feed 0001…`, structure KEY_VALUE, `refreshFrequency` 60, GET
 *     `<BENCH_FEED_BASE>/feed/<i>` (the script's feed server), all deactivated (nothing due) until activated.
 *
 * Bench-only routes (127.0.0.1 only; never part of the product):
 *   - `POST /__bench/activate` `{startInMs, spreadMs}`: the feeds active, feed `i` due at t0 + (i − 1) · spreadMs / N
 *     (t0 = now + startInMs); answers `{t0, spreadMs, feeds}`;
 *   - `POST /__bench/deactivate`: every feed deactivated, nothing due;
 *   - `GET /__bench/feeds`: per feed `[i, lastRefreshedAt, errorCounter]`, and the errors seen (a sample);
 *   - `POST /__bench/assign` `{contentId}`: every device of the tenant shows that content (`device.content_id`);
 *   - `POST /__bench/assign-one` `{contentId, device}`: seeded device number `device` shows that content;
 *   - `POST /__bench/extra-ticks` `{everyMs}`: a diagnostic, off by default: a second refresher of the product's own
 *     (`createRefresher`, 16 slots) ticked every `everyMs` by this process (0 stops it) — what refreshing costs when
 *     the schedule is not the limit;
 *   - `POST /__bench/profile` `{action: 'start'}`, then `{action: 'stop', file}`: a V8 CPU profile of this process
 *     between the two (node:inspector), written to `file` (BENCH_DATASOURCES_PROFILE=1: the refresh window's);
 *   - `POST /__bench/trace` `{ms}`: every statement the driver ran during the next `ms`, grouped (`driverTrace`).
 *
 * Started by scripts/bench-datasources.mjs with `node --import tsx bench/datasources-server.ts`; prints one JSON
 * line (`{"benchServer":"datasources",...}`) when ready.
 */
import { sql } from 'drizzle-orm';
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { moduleJobs } from '@/server/composition';
import { execRows } from '@/server/db/sql';
import { startJobQueue, type JobQueue } from '@/server/jobs/queue';
import { createLogger } from '@/server/logger';
import { createRefresher } from '@/server/modules/datasources/datasource-refresh';
import { datasourceOutbound } from '@/server/modules/datasources/datasource-refresh.service';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { benchTenant, benchUuid, driverTrace, seededDeviceId, seedDevices } from './server-lib';

const BENCH_TENANT = 'Bench Datasources';
/** Feed `i`'s number is the tail of its URL (`…/feed/<i>`): the due times and the script's records key on it. */
const FEED_NUMBER = sql.raw(`substring(remote_url from '/feed/([0-9]+)$')::int`);

/** One inspector command, awaited. */
function post(session: inspector.Session, method: string): Promise<unknown> {
  return new Promise((resolve, reject) => session.post(method, (err, result) => (err ? reject(err) : resolve(result))));
}

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  const { db } = handle;
  let customerId = 0;
  let feeds = 0;
  let profiler: inspector.Session | undefined;
  let extra: { timer: NodeJS.Timeout; refresher: ReturnType<typeof createRefresher> } | undefined;

  const bench = async (request: Request, url: URL): Promise<Response | undefined> => {
    const body = async <T>() => (request.method === 'POST' ? ((await request.json().catch(() => ({}))) as T) : ({} as T));
    switch (url.pathname) {
      case '/__bench/activate': {
        const input = await body<{ startInMs?: number; spreadMs?: number }>();
        const t0 = Date.now() + (input.startInMs ?? 2_000);
        const spreadMs = input.spreadMs ?? 60_000;
        await db.execute(sql`update datasource set deactivated = false, error_counter = 0, last_error = null,
            next_refresh_at = to_timestamp((${t0}::float8 + (${FEED_NUMBER} - 1) * ${spreadMs}::float8 / ${feeds}::float8) / 1000)
          where customer_id = ${customerId} and source_type = 'EXTERNAL'`);

        return Response.json({ t0, spreadMs, feeds });
      }
      case '/__bench/deactivate': {
        await db.execute(sql`update datasource set deactivated = true, next_refresh_at = null
          where customer_id = ${customerId} and source_type = 'EXTERNAL'`);

        return Response.json({ ok: true });
      }
      case '/__bench/feeds': {
        const rows = await execRows<{ i: number; refreshed: number | null; errors: number; last_error: string | null }>(
          db,
          sql`select ${FEED_NUMBER} as i, (extract(epoch from last_refreshed_at) * 1000)::float8 as refreshed,
                error_counter as errors, last_error
              from datasource where customer_id = ${customerId} and source_type = 'EXTERNAL' order by 1`,
        );
        const errors = [...new Set(rows.map((r) => r.last_error).filter((e): e is string => e !== null))].slice(0, 5);

        return Response.json({ feeds: rows.map((r) => [r.i, r.refreshed === null ? null : Number(r.refreshed), r.errors]), errors });
      }
      case '/__bench/assign': {
        const input = await body<{ contentId: string }>();
        const rows = await execRows<{ n: number }>(
          db,
          sql`with t as (update device set content_id = ${input.contentId}::uuid where customer_id = ${customerId} returning 1)
              select count(*)::int as n from t`,
        );

        return Response.json({ assigned: rows[0]?.n ?? 0 });
      }
      case '/__bench/assign-one': {
        const input = await body<{ contentId: string; device: number }>();
        const rows = await execRows<{ n: number }>(
          db,
          sql`with t as (update device set content_id = ${input.contentId}::uuid
                where customer_id = ${customerId} and id = ${seededDeviceId(input.device)} returning 1)
              select count(*)::int as n from t`,
        );

        return Response.json({ assigned: rows[0]?.n ?? 0 });
      }
      case '/__bench/extra-ticks': {
        const input = await body<{ everyMs: number }>();
        if (extra) {
          clearInterval(extra.timer);
          await extra.refresher.stop();
          extra = undefined;
        }
        if (input.everyMs > 0) {
          const refresher = createRefresher({ db, outbound: datasourceOutbound(config), log, concurrency: 16 });
          const timer = setInterval(
            () => void refresher.tick().catch((err: unknown) => log.error({ err }, 'bench tick failed')),
            input.everyMs,
          );
          extra = { timer, refresher };
        }

        return Response.json({ everyMs: extra ? input.everyMs : 0 });
      }
      case '/__bench/profile': {
        const input = await body<{ action: 'start' | 'stop'; file?: string }>();
        if (input.action === 'start') {
          profiler ??= new inspector.Session();
          profiler.connect();
          await post(profiler, 'Profiler.enable');
          await post(profiler, 'Profiler.start');

          return Response.json({ profiling: true });
        }
        if (!profiler || !input.file) return Response.json({ error: 'not profiling, or no file named' }, { status: 400 });
        const { profile } = (await post(profiler, 'Profiler.stop')) as { profile: unknown };
        profiler.disconnect();
        profiler = undefined;
        writeFileSync(input.file, JSON.stringify(profile));

        return Response.json({ written: input.file });
      }
      case '/__bench/trace': {
        const input = await body<{ ms: number }>();
        const trace = await driverTrace(handle, () => new Promise((resolve) => setTimeout(resolve, input.ms)));
        const byText = new Map<string, { sql: string; count: number; ms: number }>();
        for (const s of trace?.statements ?? []) {
          const key = s.sql.replace(/\s+/g, ' ').trim();
          const entry = byText.get(key) ?? { sql: key, count: 0, ms: 0 };
          entry.count++;
          entry.ms += s.ms;
          byText.set(key, entry);
        }

        return Response.json({ statements: trace?.statements.length ?? 0, kinds: [...byText.values()].sort((a, b) => b.count - a.count) });
      }
      default:
        return undefined;
    }
  };

  const fetch = async (request: Request, env: unknown): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__bench/')) {
      const answer = await bench(request, url);
      if (answer) return answer;
    }

    return app.fetch(request, env as never);
  };
  await serveForBenchmark({ config, handle, fetch, setReady, upgrade });

  await prepare();
  const started = performance.now();
  customerId = await benchTenant(handle, BENCH_TENANT);
  const devices = await seedDevices(handle, customerId, {
    devices: Number(process.env.BENCH_SEED_DEVICES ?? 0),
    tokenSeed: process.env.BENCH_TOKEN_SEED ?? '',
  });
  feeds = Number(process.env.BENCH_FEEDS ?? 1_000);
  const feedBase = process.env.BENCH_FEED_BASE ?? '';
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(feedBase)) throw new Error(`BENCH_FEED_BASE must be http://127.0.0.1:<port>, not '${feedBase}'`);
  await db.execute(sql`insert into datasource (id, customer_id, name, source_type, structure_type, type, deactivated, remote_url,
      request_settings, refresh_frequency, next_refresh_at)
    select ${benchUuid(sql`'bench-feed-' || ${customerId}::text || '-' || i::text`)}, ${customerId}::bigint, 'Bench feed ' || lpad(i::text, 4, '0'),
      'EXTERNAL', 'KEY_VALUE', 'JSON', true, ${feedBase} || '/feed/' || i, '{"method":"GET"}'::jsonb, 60, null
    from generate_series(1, ${feeds}::int) i`);
  await db.execute(sql`vacuum analyze datasource`);
  // An Enterprise tenant's own limit (resourceLimits.overrides), as an operator raises it: the API creates more beside the feeds.
  await db.execute(sql`update customer set resource_limits = jsonb_build_object('overrides', jsonb_build_object('DATASOURCE', ${feeds + 100}::int))
    where id = ${customerId}`);
  const [root] = await execRows<{ id: string }>(
    db,
    sql`select id::text as id from content_group where customer_id = ${customerId} and parent_id is null and not is_template_group limit 1`,
  );

  // The job queue as server/main.ts starts it (JOBS_ENABLED): every module's jobs, the refresh tick among them.
  let queue: JobQueue | undefined;
  if (config.jobsEnabled) {
    queue = await startJobQueue(handle, log, config.databaseUrl);
    await queue.register(moduleJobs({ db, config, log }));
  }
  process.once('SIGTERM', () => void queue?.stop().catch(() => undefined));
  setReady(true);
  const seed = { devices: devices?.devices ?? 0, feeds, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'datasources', port: config.port, driver: handle.driver, pid: process.pid, customerId, rootContentGroupId: root?.id, jobs: Boolean(queue), seed })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench datasources server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
