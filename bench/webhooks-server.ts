/**
 * Benchmark server for webhooks (issue 31): the production service (`createService`: the Hono app, its `upgrade`
 * listener for the device WebSocket and its push feed) on a bare `@hono/node-server` like the other benchmark servers,
 * with the job queue as server/main.ts starts it (`startJobQueue` with every module's jobs), so the webhook executor
 * is the product's: woken by each accepted trigger, plus the `webhooks.execute-due` tick every 5 s.
 *
 * Seeded at start, set-based (generate_series), in the "Bench Webhooks" tenant:
 *   - BENCH_SEED_DEVICES devices with access tokens `<BENCH_TOKEN_SEED>-<i>` (bench/server-lib.ts `seedDevices`);
 *   - an OWNER of the tenant, `BENCH_OWNER_EMAIL`, with the administrator's password hash (one argon2 run less), so
 *     the script signs in as the tenant's owner with the administrator's password;
 *   - the tenant's WEBHOOK and DATASOURCE limits raised (`resourceLimits.overrides`, as an operator raises them).
 *
 * Bench-only routes (127.0.0.1 only; never part of the product):
 *   - `GET /__bench/backlog`: the tenant's unfinished executions (the executor's backlog; the pending index answers);
 *   - `POST /__bench/outcomes` `{since}`: executions received since `since` (epoch ms) by outcome, a sample of failure
 *     details, and the sum of the `n` values of the tenant's internal datasources (what the count actions added);
 *   - `POST /__bench/seed-executions` `{actionId, count, apiKeyId, keyName}`: `count` finished executions of that
 *     action, one a second back from now, as triggers of that key would have left them; then VACUUM ANALYZE;
 *   - `POST /__bench/baseline` `{path, authorization, runs, table, match}`: the GET baseline of bench/server-lib.ts (the
 *     request's statements on `table` matching `match` run directly on the driver, plus `JSON.stringify`, and their
 *     plans; `match` leaves out the executor's claims running meanwhile);
 *   - `POST /__bench/window-count` `{actionId, offset, limit, runs}`: the executions list's statement as findPage built
 *     it before (a window count over the action's executions), timed raw with its JSON, and its plan;
 *   - `POST /__bench/profile` `{action: 'start'}`, then `{action: 'stop', file}`: a V8 CPU profile of this process
 *     between the two (node:inspector), written to `file`;
 *   - `POST /__bench/trace` `{ms}`: every statement the driver ran during the next `ms`, grouped (`driverTrace`).
 *
 * Started by scripts/bench-webhooks.mjs with `node --import tsx bench/webhooks-server.ts`; prints one JSON line
 * (`{"benchServer":"webhooks",...}`) when ready.
 */
import { eq, sql } from 'drizzle-orm';
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { moduleJobs } from '@/server/composition';
import { execRows } from '@/server/db/sql';
import { startJobQueue, type JobQueue } from '@/server/jobs/queue';
import { createLogger } from '@/server/logger';
import { users } from '@/server/modules/users/users.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { baseline, benchTenant, driverTrace, percentile, rawQuery, seedDevices } from './server-lib';

const BENCH_TENANT = 'Bench Webhooks';

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
  let profiler: inspector.Session | undefined;

  const bench = async (request: Request, url: URL): Promise<Response | undefined> => {
    const body = async <T>() => (request.method === 'POST' ? ((await request.json().catch(() => ({}))) as T) : ({} as T));
    switch (url.pathname) {
      case '/__bench/backlog': {
        const [row] = await execRows<{ unfinished: number; oldest: number | null }>(
          db,
          sql`select count(*)::int as unfinished, (extract(epoch from min(received_at)) * 1000)::float8 as oldest
              from webhook_execution where finished_at is null`,
        );

        return Response.json({ unfinished: row?.unfinished ?? 0, oldestReceivedAt: row?.oldest === null ? null : Number(row?.oldest) });
      }
      case '/__bench/outcomes': {
        const input = await body<{ since: number }>();
        const rows = await execRows<{ outcome: string | null; n: number; affected: number | null }>(
          db,
          sql`select outcome, count(*)::int as n, sum(affected)::int as affected from webhook_execution
              where customer_id = ${customerId} and received_at >= to_timestamp(${input.since}::float8 / 1000) group by 1`,
        );
        const failures = await execRows<{ detail: string | null }>(
          db,
          sql`select distinct detail from webhook_execution
              where customer_id = ${customerId} and received_at >= to_timestamp(${input.since}::float8 / 1000) and outcome = 'FAILED' limit 5`,
        );
        const [sum] = await execRows<{ total: number | null }>(
          db,
          sql`select sum((d.document->>'n')::int)::int as total from datasource_data d join datasource s on s.id = d.datasource_id
              where s.customer_id = ${customerId} and s.source_type = 'INTERNAL' and jsonb_typeof(d.document->'n') = 'number'`,
        );

        return Response.json({
          byOutcome: Object.fromEntries(rows.map((r) => [r.outcome ?? 'UNFINISHED', { executions: r.n, affected: r.affected }])),
          failures: failures.map((f) => f.detail),
          datasourceTotal: sum?.total ?? 0,
        });
      }
      case '/__bench/seed-executions': {
        const input = await body<{ actionId: number; count: number; apiKeyId: string; keyName: string }>();
        const started = performance.now();
        const [action] = await execRows<{ event_id: string; customer_name: string }>(
          db,
          sql`select a.event_id, c.name as customer_name from webhook_action a join customer c on c.id = a.customer_id
              where a.id = ${input.actionId} and a.customer_id = ${customerId}`,
        );
        if (!action) return Response.json({ error: `no action ${input.actionId} in the bench tenant` }, { status: 404 });
        const actor = {
          kind: 'apiKey',
          apiKeyId: input.apiKeyId,
          name: input.keyName,
          customerId,
          customerName: action.customer_name,
          scopes: ['WEBHOOK_CALL'],
          restricted: false,
        };
        // One a second back from now, every one finished; ids of a salt of this call's own, so seeding twice never collides.
        const salt = uuidv7();
        const batch = 20_000;
        for (let from = 1; from <= input.count; from += batch) {
          const to = Math.min(input.count, from + batch - 1);
          await db.execute(sql`insert into webhook_execution (id, customer_id, action_id, event_id, api_key_id, triggered_by, actor, payload,
              received_at, started_at, finished_at, outcome, detail, affected, attempts, lease_until)
            select overlay(overlay(md5(${salt} || i::text) placing '4' from 13) placing '8' from 17)::uuid,
              ${customerId}::bigint, ${input.actionId}::bigint, ${action.event_id}, ${input.apiKeyId}::uuid, ${input.keyName},
              ${JSON.stringify(actor)}::jsonb, jsonb_build_object('event_id', ${action.event_id}::text, 'n', i),
              now() - i * interval '1 second', now() - i * interval '1 second' + interval '3 milliseconds',
              now() - i * interval '1 second' + interval '9 milliseconds',
              case when i % 50 = 0 then 'FAILED' else 'SUCCEEDED' end,
              case when i % 50 = 0 then 'The datasource was deleted' else 'n increased to ' || i end,
              case when i % 50 = 0 then null else 1 end, 1, now() - i * interval '1 second' + interval '60 seconds'
            from generate_series(${from}::int, ${to}::int) i`);
        }
        await db.execute(sql`vacuum analyze webhook_execution`);

        return Response.json({ seeded: input.count, seconds: (performance.now() - started) / 1000 });
      }
      case '/__bench/baseline': {
        const input = await body<{ path: string; authorization: string; runs?: number; table?: string; match?: string }>();

        return Response.json(await baseline(handle, app.fetch, input));
      }
      case '/__bench/window-count': {
        // The list's statement as findPage built it before (a window count over every execution of the action, the
        // page by row address), timed on the same data: what the list's own statement replaced.
        const input = await body<{ actionId: number; offset: number; limit: number; runs: number }>();
        const statement = {
          sql: `select e.id, e.action_id, e.event_id, e.received_at, e.started_at, e.finished_at, e.outcome, e.detail, e.affected,
              e.api_key_id, e.triggered_by, p.__total
            from webhook_execution e join (
              select webhook_execution.ctid as __ctid, count(*) over () as __total from webhook_execution
              where webhook_execution.customer_id = $1 and webhook_execution.action_id = $2
              order by webhook_execution.received_at desc, webhook_execution.id desc limit $3 offset $4
            ) p on e.ctid = p.__ctid order by e.received_at desc, e.id desc`,
          params: [customerId, input.actionId, input.limit, input.offset],
        };
        const times: number[] = [];
        for (let i = 0; i < input.runs + 5; i++) {
          const t0 = performance.now();
          JSON.stringify(await rawQuery(handle, statement));
          if (i >= 5) times.push(performance.now() - t0);
        }
        const plan = await rawQuery(handle, { sql: `explain (analyze, buffers, costs off) ${statement.sql}`, params: statement.params });

        return Response.json({
          p50: percentile(times, 50),
          sql: statement.sql,
          plan: plan.map((r) => String(Object.values(r)[0])).join('\n'),
        });
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
  const ownerEmail = process.env.BENCH_OWNER_EMAIL ?? '';
  if (!/^[\w.+-]+@[\w.-]+$/.test(ownerEmail)) throw new Error(`BENCH_OWNER_EMAIL must be an e-mail address, not '${ownerEmail}'`);
  const [admin] = await db.select().from(users).where(eq(users.email, config.admin.email.toLowerCase())).limit(1);
  if (!admin) throw new Error(`the administrator ${config.admin.email} does not exist`);
  await db
    .insert(users)
    .values({
      id: uuidv7(),
      customerId,
      email: ownerEmail.toLowerCase(),
      name: 'Bench Owner',
      role: 'OWNER',
      passwordHash: admin.passwordHash,
    })
    .onConflictDoNothing();
  // An Enterprise tenant's own limits (resourceLimits.overrides), as an operator raises them.
  await db.execute(sql`update customer set resource_limits = jsonb_build_object('overrides', jsonb_build_object('WEBHOOK', 1000, 'DATASOURCE', 1000))
    where id = ${customerId}`);

  // The job queue as server/main.ts starts it (JOBS_ENABLED): every module's jobs, the webhook executor among them.
  let queue: JobQueue | undefined;
  if (config.jobsEnabled) {
    queue = await startJobQueue(handle, log, config.databaseUrl);
    await queue.register(moduleJobs({ db, config, log }));
  }
  process.once('SIGTERM', () => void queue?.stop().catch(() => undefined));
  setReady(true);
  const seed = { devices: devices?.devices ?? 0, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'webhooks', port: config.port, driver: handle.driver, pid: process.pid, customerId, jobs: Boolean(queue), seed })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench webhooks server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
