/**
 * Benchmark server for alerts (issue 32): the production service (`createService`) on a bare `@hono/node-server` like
 * the other benchmark servers, with the job queue as server/main.ts starts it (`startJobQueue` with every module's
 * jobs), so the evaluation tick (`alerts.evaluate-due`, every 5 s), `queueNotifications` and the delivery worker
 * (woken after each committed evaluation, plus `notification-channels.deliver-due` every 5 s) are the product's.
 *
 * Seeded at start, set-based, in the "Bench Alerts" tenant:
 *   - a folder tree under the tenant's root device folder: "Fleet", 10 regions below it, 10 sites below each region;
 *   - BENCH_SEED_DEVICES devices (bench/server-lib.ts `seedDevices`), device i in site (i − 1) mod 100, every fourth
 *     tagged `lobby`, every seventh `kiosk`;
 *   - an OWNER of the tenant, `BENCH_OWNER_EMAIL`, with the administrator's password hash (as bench/webhooks-server.ts);
 *   - the tenant's ALERT_RULE limit raised (`resourceLimits.overrides`, as an operator raises it).
 *
 * Bench-only routes (127.0.0.1 only; never part of the product):
 *   - `GET /__bench/folders`: the folder ids (fleet, regions, sites) and the device count of each site;
 *   - `POST /__bench/fleet` `{offlineEvery}`: every device ONLINE with activity now, except each `offlineEvery`-th,
 *     OFFLINE with its last activity two hours ago;
 *   - `POST /__bench/outage` `{folderId, offline, ruleId}`: the devices below the folder go OFFLINE (last activity two
 *     hours ago) or come back ONLINE (activity now); the rule is made due now, so the job's next tick evaluates it;
 *   - `POST /__bench/pass` `{namePrefix}`: the rules whose name starts so are made due and ONE evaluation tick of the
 *     product (`runEvaluationTick` with the real `queueNotifications`) runs; answers its ms, the rules evaluated and
 *     the alerts opened and closed;
 *   - `POST /__bench/count-baseline` `{namePrefix}`: for each such rule, `select count(*)` of the devices of its
 *     folder (the same scope predicate, `group_path @>`), timed together, and one alone;
 *   - `POST /__bench/statements` `{namePrefix}`: each such rule's one evaluation statement alone (the product's
 *     `evaluateDeviceRule`), all in one transaction rolled back, timed; and EXPLAIN (ANALYZE, BUFFERS) of the first
 *     plain rule's and the first tag-filtered rule's statement (rolled back too);
 *   - `POST /__bench/statements-before` `{namePrefix}`: the same with the statement as it was before this benchmark
 *     (the whole scope read into a CTE), rolled back: what reading only the violating devices replaced;
 *   - `POST /__bench/bare-posts` `{url, count, concurrency}`: the delivery worker's HTTP call alone (the product's
 *     guarded client and `postJson`, a signed delivery-sized body) `count` times with `concurrency` in flight, no
 *     database: the receiver's rate from the same client;
 *   - `POST /__bench/deliveries` `{since}`: the tenant's deliveries queued since `since` (epoch ms) by state, and the
 *     queue's delays (evaluation → queued, queued → first attempt);
 *   - `POST /__bench/trace` `{ms}`: every statement the driver ran during the next `ms`, grouped (`driverTrace`).
 *
 * Started by scripts/bench-alerts.mjs with `node --import tsx bench/alerts-server.ts`; prints one JSON line
 * (`{"benchServer":"alerts",...}`) when ready.
 */
import { eq, sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { moduleJobs } from '@/server/composition';
import type { Executor } from '@/server/db/client';
import { arrayParam, execRows, uuidArrayParam } from '@/server/db/sql';
import { withTransaction } from '@/server/db/transaction';
import { startJobQueue, type JobQueue } from '@/server/jobs/queue';
import { createLogger } from '@/server/logger';
import { runEvaluationTick } from '@/server/modules/alerts/alert-evaluation';
import { evaluateDeviceRule } from '@/server/modules/alerts/alert-evaluation.queries';
import { alertRules, type AlertRuleRow } from '@/server/modules/alerts/alerts.table';
import type { StoredDeviceOfflineCondition } from '@/server/modules/alerts/alert-rules.schemas';
import { queueNotifications } from '@/server/modules/notification-channels';
import { postJson } from '@/server/modules/notification-channels/delivery-senders';
import { newWebhookSecret, signedHeaders } from '@/server/modules/notification-channels/webhook-signing';
import { createOutboundClient } from '@/server/outbound';
import { users } from '@/server/modules/users/users.table';
import { createService } from '@/server/service';
import { resolveStartupConfig } from '@/server/startup';
import { serveForBenchmark } from './serve-service';
import { benchTenant, benchUuid, driverTrace, percentile, seedDevices } from './server-lib';

const BENCH_TENANT = 'Bench Alerts';
const REGIONS = 10;
const SITES_PER_REGION = 10;
const SITES = REGIONS * SITES_PER_REGION;

/** Rolls a transaction back after `fn` (what it measured stays unwritten). */
class RolledBack extends Error {}
async function rolledBack<T>(db: Executor, fn: (tx: Executor) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await withTransaction(db, async (tx) => {
    result = await fn(tx);
    throw new RolledBack();
  }).catch((err: unknown) => {
    if (!(err instanceof RolledBack)) throw err;
  });

  return result as T;
}

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const { handle, app, upgrade, prepare, setReady } = await createService(config, log);
  const { db } = handle;
  let customerId = 0;
  const folders = { fleet: '', regions: [] as string[], sites: [] as string[] };
  const outbound = createOutboundClient({ allowPrivateNetwork: true });

  const rulesNamed = (prefix: string) =>
    db
      .select()
      .from(alertRules)
      .where(sql`${alertRules.customerId} = ${customerId} and starts_with(${alertRules.name}, ${prefix})`)
      .orderBy(alertRules.id);
  const openAlerts = async () =>
    (
      await execRows<{ open: number; closed: number }>(
        db,
        sql`select count(*) filter (where closed_at is null)::int as open, count(*) filter (where closed_at is not null)::int as closed
              from alert where customer_id = ${customerId}`,
      )
    )[0]!;

  const bench = async (request: Request, url: URL): Promise<Response | undefined> => {
    const body = async <T>() => (request.method === 'POST' ? ((await request.json().catch(() => ({}))) as T) : ({} as T));
    switch (url.pathname) {
      case '/__bench/folders': {
        const sizes = await execRows<{ id: string; n: number }>(
          db,
          sql`select device_group_id::text as id, count(*)::int as n from device where customer_id = ${customerId} group by 1`,
        );

        return Response.json({ ...folders, siteDevices: Object.fromEntries(sizes.map((s) => [s.id, s.n])) });
      }
      case '/__bench/fleet': {
        const input = await body<{ offlineEvery: number }>();
        const [row] = await execRows<{ offline: number; online: number }>(
          db,
          sql`with changed as (
                update device set
                  device_status = case when substring(name from '[0-9]+$')::int % ${input.offlineEvery} = 0 then 'OFFLINE' else 'ONLINE' end,
                  last_activity = case when substring(name from '[0-9]+$')::int % ${input.offlineEvery} = 0
                                       then now() - interval '2 hours' else now() end,
                  last_device_status_change = now() - interval '3 hours'
                where customer_id = ${customerId}
                returning device_status)
              select count(*) filter (where device_status = 'OFFLINE')::int as offline,
                     count(*) filter (where device_status = 'ONLINE')::int as online from changed`,
        );
        await db.execute(sql`vacuum analyze device`);

        return Response.json(row);
      }
      case '/__bench/outage': {
        const input = await body<{ folderId: string; offline: boolean; ruleId: number }>();
        const [row] = await execRows<{ devices: number }>(
          db,
          sql`with changed as (
                update device set device_status = ${input.offline ? 'OFFLINE' : 'ONLINE'},
                  last_activity = case when ${input.offline} then now() - interval '2 hours' else now() end
                where customer_id = ${customerId} and group_path @> array[${input.folderId}::uuid]
                returning 1)
              select count(*)::int as devices from changed`,
        );
        const changedAt = Date.now();
        await db.execute(sql`update alert_rule set next_evaluation_at = now() where id = ${input.ruleId} and customer_id = ${customerId}`);

        return Response.json({ devices: row?.devices ?? 0, changedAt });
      }
      case '/__bench/pass': {
        const input = await body<{ namePrefix: string }>();
        const before = await openAlerts();
        const ids = (await rulesNamed(input.namePrefix)).map((r) => r.id);
        await db.execute(
          sql`update alert_rule set next_evaluation_at = now() - interval '1 millisecond' where id = any(${sql.raw(`array[${ids.join(',')}]::bigint[]`)})`,
        );
        const now = new Date();
        const t0 = performance.now();
        const evaluated = await runEvaluationTick({ db, log, queueNotifications }, { now });
        const ms = performance.now() - t0;
        const after = await openAlerts();

        return Response.json({
          ms,
          rules: ids.length,
          evaluated,
          opened: after.open + after.closed - (before.open + before.closed),
          closed: after.closed - before.closed,
          open: after.open,
        });
      }
      case '/__bench/count-baseline': {
        const input = await body<{ namePrefix: string }>();
        const rules = await rulesNamed(input.namePrefix);
        const count = (rule: AlertRuleRow) =>
          execRows(
            db,
            sql`select count(*)::int as n from device d where d.customer_id = ${customerId}
                  and d.group_path @> array[${(rule.condition as StoredDeviceOfflineCondition).deviceGroupId}::uuid]`,
          );
        await count(rules[0]!);
        const t1 = performance.now();
        const [one] = await count(rules[0]!);
        const oneMs = performance.now() - t1;
        const t0 = performance.now();
        for (const rule of rules) await count(rule);

        return Response.json({ ms: performance.now() - t0, statements: rules.length, oneMs, devices: one?.n });
      }
      case '/__bench/statements': {
        const input = await body<{ namePrefix: string }>();
        const rules = await rulesNamed(input.namePrefix);
        const now = new Date();
        // The times the statement writes (rolled back): a minute on, as a rule checked every minute.
        const next = { ifViolating: new Date(now.getTime() + 60_000), otherwise: new Date(now.getTime() + 60_000) };
        const ms = await rolledBack(db, async (tx) => {
          const t0 = performance.now();
          for (const rule of rules) await evaluateDeviceRule(tx, { rule, now, next });

          return performance.now() - t0;
        });
        // EXPLAIN of the product's statement: an executor that runs what it is given under EXPLAIN ANALYZE.
        const explain = async (rule: AlertRuleRow | undefined) => {
          if (!rule) return undefined;
          let plan = '';
          await rolledBack(db, async (tx) => {
            const explaining = {
              execute: async (query: ReturnType<typeof sql>) => {
                const rows = await execRows(tx, sql`explain (analyze, buffers, costs off) ${query}`);
                plan = rows.map((r) => String(Object.values(r)[0])).join('\n');

                return { rows: [] };
              },
            };
            // The statement is built by the product; only its execution is diverted (the shape execRows reads).
            await evaluateDeviceRule(explaining as unknown as Executor, { rule, now, next });
          });

          return { name: rule.name, condition: rule.condition, plan };
        };
        const plain = rules.find((r) => !(r.condition as StoredDeviceOfflineCondition).tagFilter);
        const tagged = rules.find((r) => (r.condition as StoredDeviceOfflineCondition).tagFilter);

        return Response.json({ ms, statements: rules.length, plans: [await explain(plain), await explain(tagged)].filter(Boolean) });
      }
      case '/__bench/statements-before': {
        // The DeviceOffline statement as it was until this benchmark (the whole scope read into a CTE, every violating
        // device tried against the partial unique index each time), each rule's, rolled back: what the fix replaced.
        const input = await body<{ namePrefix: string }>();
        const rules = await rulesNamed(input.namePrefix);
        const now = new Date();
        const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
        const before = (rule: AlertRuleRow) => {
          const condition = rule.condition as StoredDeviceOfflineCondition;
          const tags = condition.tagFilter?.tags ?? [];
          const tagMatch =
            condition.tagFilter?.logicalOperator === 'AND'
              ? sql`d.tags @> ${arrayParam(tags, 'text')}`
              : sql`d.tags && ${arrayParam(tags, 'text')}`;
          const scope = sql.join(
            [
              sql`d.customer_id = ${rule.customerId}`,
              condition.recursive
                ? sql`d.group_path @> array[${condition.deviceGroupId}::uuid]`
                : sql`d.device_group_id = ${condition.deviceGroupId}::uuid`,
              condition.excludeDeviceIds.length > 0 ? sql`not (d.id = any(${uuidArrayParam(condition.excludeDeviceIds)}))` : undefined,
              condition.excludeDeviceGroupIds.length > 0
                ? sql`not (d.group_path && ${uuidArrayParam(condition.excludeDeviceGroupIds)})`
                : undefined,
              tags.length === 0 ? undefined : condition.tagFilter?.tagFilterType === 'EXCLUDE' ? sql`not (${tagMatch})` : tagMatch,
            ].filter((part): part is ReturnType<typeof sql> => part !== undefined),
            sql` and `,
          );
          const cutoff = new Date(now.getTime() - condition.inactiveMinutes * 60_000);
          const folderPath = sql`(select string_agg(g.name, ' / ' order by array_position(s.group_path, g.id)) from device_group g where g.id = any(s.group_path))`;

          return sql`with scope as (
              select d.id, d.name, d.last_activity, d.last_device_status_change, d.device_group_id, d.group_path,
                     (d.device_status = 'OFFLINE' and coalesce(d.last_activity, d.last_device_status_change, d.created_date) <= ${at(cutoff)}) as violating
                from device d where ${scope}
            ), closed as (
              update alert a set closed_at = ${at(now)}
               where a.alert_rule_id = ${rule.id} and a.closed_at is null and a.device_id is not null
                 and not exists (select 1 from scope s where s.id = a.device_id and s.violating)
              returning a.id, a.device_id, a.opened_at, a.folder_path
            ), opened as (
              insert into alert (customer_id, alert_rule_id, kind, device_id, opened_at, device_name, device_last_activity,
                                 device_last_status_change, device_group_id, device_group_path, folder_path)
              select ${rule.customerId}, ${rule.id}, 'DEVICE', s.id, ${at(now)}, s.name, s.last_activity,
                     s.last_device_status_change, s.device_group_id, s.group_path, ${folderPath}
                from scope s where s.violating
              on conflict (alert_rule_id, device_id) where closed_at is null and device_id is not null do nothing
              returning id, device_id, opened_at
            )
            select 'opened' as change, o.id from opened o join scope s on s.id = o.device_id
            union all
            select 'closed', c.id from closed c join device d on d.id = c.device_id`;
        };
        const ms = await rolledBack(db, async (tx) => {
          const t0 = performance.now();
          for (const rule of rules) await execRows(tx, before(rule));

          return performance.now() - t0;
        });

        return Response.json({ ms, statements: rules.length });
      }
      case '/__bench/bare-posts': {
        const input = await body<{ url: string; count: number; concurrency: number }>();
        const secret = newWebhookSecret();
        const payload = JSON.stringify({
          type: 'alert.device.offline',
          timestamp: new Date().toISOString(),
          data: {
            alertId: 1,
            alertRuleId: 1,
            alertRuleName: 'Bench bare',
            customerId,
            device: {
              id: uuidv7(),
              name: 'Bench screen 00001',
              lastActivity: new Date().toISOString(),
              folderPath: 'Fleet / Region 1 / Site 1',
            },
          },
        });
        let next = 0;
        let succeeded = 0;
        const latencies: number[] = [];
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const lane = async () => {
          while (next < input.count) {
            next++;
            const headers = signedHeaders({ id: uuidv7(), now: new Date(), body: payload, secrets: [secret] });
            const outcome = await postJson(outbound, { url: input.url, body: payload, headers, timeoutMs: 15_000 });
            latencies.push(outcome.latencyMs);
            if (outcome.succeeded) succeeded++;
          }
        };
        await Promise.all(Array.from({ length: input.concurrency }, lane));
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);

        return Response.json({
          ms,
          count: input.count,
          succeeded,
          perSecond: (input.count / ms) * 1000,
          p50: percentile(latencies, 50),
          cpuMsEach: (cpu.user + cpu.system) / 1000 / input.count,
        });
      }
      case '/__bench/deliveries': {
        const input = await body<{ since: number }>();
        const since = sql`to_timestamp(${input.since}::float8 / 1000)`;
        const states = await execRows<{ state: string; n: number }>(
          db,
          sql`select state, count(*)::int as n from notification_delivery where customer_id = ${customerId} and created_at >= ${since} group by 1`,
        );
        const [delays] = await execRows<Record<string, number | null>>(
          db,
          sql`with d as (
                select extract(epoch from (d.created_at - (d.payload->>'timestamp')::timestamptz)) * 1000 as queued_ms,
                       extract(epoch from (a.at - d.created_at)) * 1000 as claimed_ms, a.latency_ms, a.succeeded
                  from notification_delivery d join notification_delivery_attempt a on a.delivery_id = d.id and a.attempt = 1
                 where d.customer_id = ${customerId} and d.created_at >= ${since})
              select count(*)::int as attempts, count(*) filter (where not succeeded)::int as failed,
                     percentile_cont(0.5) within group (order by queued_ms)::float8 as queued_p50,
                     max(queued_ms)::float8 as queued_max,
                     percentile_cont(0.5) within group (order by claimed_ms)::float8 as claimed_p50,
                     percentile_cont(0.99) within group (order by claimed_ms)::float8 as claimed_p99,
                     percentile_cont(0.5) within group (order by latency_ms)::float8 as http_p50
                from d`,
        );

        return Response.json({ byState: Object.fromEntries(states.map((s) => [s.state, s.n])), delays });
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
  const [root] = await execRows<{ id: string }>(
    db,
    sql`select id::text as id from device_group where customer_id = ${customerId} and parent_id is null limit 1`,
  );
  if (!root) throw new Error('the bench tenant has no root device folder');
  // Fleet, its regions and their sites, ids md5-derived (bench/server-lib.ts `benchUuid`), in three statements.
  const folderId = (text: string) => benchUuid(sql`${`bench-alerts-${customerId}-`} || ${sql.raw(text)}`);
  await db.execute(sql`insert into device_group (id, customer_id, parent_id, name, path)
    select ${folderId(`'fleet'`)}, ${customerId}::bigint, ${root.id}::uuid, 'Fleet', array[${root.id}::uuid, ${folderId(`'fleet'`)}]`);
  await db.execute(sql`insert into device_group (id, customer_id, parent_id, name, path)
    select ${folderId(`'region-' || r`)}, ${customerId}::bigint, ${folderId(`'fleet'`)}, 'Region ' || r,
           array[${root.id}::uuid, ${folderId(`'fleet'`)}, ${folderId(`'region-' || r`)}]
      from generate_series(1, ${REGIONS}) r`);
  await db.execute(sql`insert into device_group (id, customer_id, parent_id, name, path)
    select ${folderId(`'site-' || s`)}, ${customerId}::bigint, ${folderId(`'region-' || ((s - 1) / ${SITES_PER_REGION} + 1)`)},
           'Site ' || s,
           array[${root.id}::uuid, ${folderId(`'fleet'`)}, ${folderId(`'region-' || ((s - 1) / ${SITES_PER_REGION} + 1)`)}, ${folderId(`'site-' || s`)}]
      from generate_series(1, ${SITES}) s`);
  const ids = await execRows<{ name: string; id: string }>(
    db,
    sql`select name, id::text as id from device_group where customer_id = ${customerId} and parent_id is not null order by created_date, name`,
  );
  const idOf = (name: string) => ids.find((f) => f.name === name)?.id ?? '';
  folders.fleet = idOf('Fleet');
  folders.regions = Array.from({ length: REGIONS }, (_, r) => idOf(`Region ${r + 1}`));
  folders.sites = Array.from({ length: SITES }, (_, s) => idOf(`Site ${s + 1}`));
  const devices = await seedDevices(handle, customerId, {
    devices: Number(process.env.BENCH_SEED_DEVICES ?? 0),
    tokenSeed: process.env.BENCH_TOKEN_SEED ?? '',
    placement: () =>
      sql`select g.id as folder_id, g.path as folder_path,
                 (case when i % 4 = 0 then array['lobby'] else '{}'::text[] end) || (case when i % 7 = 0 then array['kiosk'] else '{}'::text[] end) as tags,
                 null::text as time_zone
            from device_group g where g.id = ${folderId(`'site-' || ((i - 1) % ${SITES} + 1)`)}`,
  });
  await db.execute(sql`vacuum analyze device_group`);
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
  await db.execute(sql`update customer set resource_limits = jsonb_build_object('overrides', jsonb_build_object('ALERT_RULE', 1000))
    where id = ${customerId}`);

  // The job queue as server/main.ts starts it (JOBS_ENABLED): every module's jobs, the evaluation tick and the
  // delivery worker among them.
  let queue: JobQueue | undefined;
  if (config.jobsEnabled) {
    queue = await startJobQueue(handle, log, config.databaseUrl);
    await queue.register(moduleJobs({ db, config, log }));
  }
  process.once('SIGTERM', () => void queue?.stop().catch(() => undefined));
  setReady(true);
  const seed = { devices: devices?.devices ?? 0, seconds: (performance.now() - started) / 1000 };
  process.stdout.write(
    `${JSON.stringify({ benchServer: 'alerts', port: config.port, driver: handle.driver, pid: process.pid, customerId, jobs: Boolean(queue), seed })}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`bench alerts server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
