#!/usr/bin/env node
// `npm run bench:alerts` (and the last part of `npm run bench`): alert rules, their evaluation and their webhook
// deliveries (issue 32) on PostgreSQL (local Debian cluster or BENCH_DATABASE_URL; the goals are judged there).
// Written to the alerts section of docs/benchmarks.md (between <!-- alerts:start --> and <!-- alerts:end -->; the rest
// of the file is left as it is). PGlite is not measured: the goals name PostgreSQL, and a run stays under 10 minutes.
//
// The server (bench/alerts-server.ts) runs the production service with its job queue, as deployed: the evaluation
// tick (`alerts.evaluate-due`, every 5 s), `queueNotifications` in the evaluation's transaction and the delivery
// worker (16 slots, woken after the commit) are the product's. The channel and the rules are made through the API as
// the tenant's OWNER; the 10 000 devices and their folders are seeded set-based, and outages are set in SQL.
//   1. Evaluation pass: BENCH_ALERTS_RULES (100) DeviceOffline rules, every one over the whole fleet (the "Fleet"
//      folder, recursively: all BENCH_ALERTS_DEVICES devices), conditions varied (5–60 inactive minutes; a quarter
//      with an INCLUDE tag filter, a quarter with an EXCLUDE one, a quarter excluding a region). 2 % of the devices
//      OFFLINE for two hours. A pass = the product's `runEvaluationTick` with every rule due: the claim, then each rule
//      in its own transaction. The first pass opens the alerts (recorded); the next BENCH_ALERTS_PASSES are the steady
//      state (judged). Baselines in the same rounds: `select count(*)` of each rule's devices (the same folder
//      predicate), and each rule's one statement alone (rolled back).
//   2. Deliveries: a rule on one region (1 000 devices) notifying one WEBHOOK channel whose URL is a 127.0.0.1 HTTP
//      server in this process. A burst = the region's devices go OFFLINE (or come back) and the rule is made due; the
//      job's next tick evaluates it and queues one delivery per device; the worker sends them. Rate = deliveries ÷
//      (last arrival − first arrival). Baseline: the worker's HTTP call alone (`postJson` with the guarded client, 16
//      in flight as the worker's slots, no database) to the same receiver.
//   3. Latency: a rule on one site (100 devices), BENCH_ALERTS_SITE_ROUNDS bursts (offline, online, …); latency =
//      arrival at the receiver − the `timestamp` of the payload, which is the `now` of the evaluation that found the
//      change (so: after the evaluation that finds it, as the goal says).
//
// Options (environment): BENCH_ALERTS_QUICK=1 (fewer passes and rounds), BENCH_ALERTS_DEVICES (10000),
// BENCH_ALERTS_RULES (100), BENCH_ALERTS_PASSES (10), BENCH_ALERTS_BURSTS (4), BENCH_ALERTS_SITE_ROUNDS (10),
// BENCH_SKIP_PG=1, BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  benchServerIdentity,
  cpuWindow,
  fmt,
  hasTaskset,
  indexSummary,
  installGuards,
  log,
  machine,
  num,
  ok,
  passwordToken,
  percentile,
  preparePostgres,
  ratio,
  request,
  runMain,
  saveResults,
  secret,
  setLogPrefix,
  sleep,
  startBenchServer,
  stopChild,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-alerts');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_ALERTS_QUICK === '1';
const DEVICES = num('BENCH_ALERTS_DEVICES', 10_000);
const RULES = num('BENCH_ALERTS_RULES', 100);
const PASSES = num('BENCH_ALERTS_PASSES', QUICK ? 3 : 10);
const BURSTS = num('BENCH_ALERTS_BURSTS', QUICK ? 2 : 4);
const SITE_ROUNDS = num('BENCH_ALERTS_SITE_ROUNDS', QUICK ? 4 : 10);
const WORKER_SLOTS = 16;
const TRACE_MS = 15_000;
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const PG_DATABASE = 'signage_bench_alerts';
const MARKERS = { start: '<!-- alerts:start -->', end: '<!-- alerts:end -->' };
const GOALS = { passMs: 500, perSecond: 200, p99Ms: 5_000 };
const OWNER_EMAIL = 'bench-owner@example.com';
const EVERY_DAY = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: true, sunday: true };
/** How long a burst may take to arrive whole before the run fails. */
const BURST_LIMIT_MS = 180_000;

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(QUICK ? 15 : 25);

// ---------------------------------------------------------------- the receiver (127.0.0.1, this process)

/**
 * A webhook receiver: answers 204 at once and keeps each delivery's arrival, `webhook-id` and payload. Every tenth
 * delivery's signature is checked with the channel's secret (Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`).
 */
function startReceiver() {
  const arrivals = [];
  const state = { secret: undefined, checked: 0, badSignatures: 0, bare: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.url === '/bare') {
        state.bare++;
        res.writeHead(204).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      if (state.secret && arrivals.length % 10 === 0) {
        const key = Buffer.from(state.secret.replace(/^whsec_/, ''), 'base64');
        const expected = `v1,${createHmac('sha256', key).update(`${id}.${req.headers['webhook-timestamp']}.${body}`).digest('base64')}`;
        state.checked++;
        if (!String(req.headers['webhook-signature']).split(' ').includes(expected)) state.badSignatures++;
      }
      const payload = JSON.parse(body);
      arrivals.push({ at, id, type: payload.type, timestamp: Date.parse(payload.timestamp), ruleId: payload.data?.alertRuleId });
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, arrivals, state, close: () => server.close() }),
    );
  });
}

// ---------------------------------------------------------------- set-up through the API

async function created(server, path, body, what) {
  return ok(await request(server, 'POST', path, { body }), what, 201).body;
}

const bench = async (server, path, body) => ok(await request(server, 'POST', path, { body }), path).body;

/** Rule i of the evaluation pass: the whole fleet, conditions varied (README of the script). */
function passRule(i, folders) {
  const condition = { inactiveMinutes: [5, 10, 15, 30, 60][i % 5], deviceGroupId: folders.fleet, recursive: true };
  if (i % 4 === 1) condition.tagFilter = { tags: ['lobby'], logicalOperator: 'OR', tagFilterType: 'INCLUDE' };
  if (i % 4 === 2) condition.tagFilter = { tags: ['kiosk'], logicalOperator: 'OR', tagFilterType: 'EXCLUDE' };
  if (i % 4 === 3) condition.excludeDeviceGroupIds = [folders.regions[i % folders.regions.length]];
  return {
    '@type': 'DeviceOffline',
    name: `Pass ${String(i).padStart(3, '0')}`,
    condition,
    workingDays: EVERY_DAY,
    workingTime: { allDay: true, timeZone: 'UTC' },
    // Only the bench makes them due again: the job never evaluates them between the measured passes.
    scheduledEvaluateSeconds: 86_400,
    notificationChannels: [],
  };
}

// ---------------------------------------------------------------- 1. evaluation pass

async function passes(server, owner, folders) {
  for (let i = 1; i <= RULES; i++) await created(owner, '/api/alertRule', passRule(i, folders), 'POST /api/alertRule');
  // Created rules are due at once; the job's tick evaluates them (nothing violates yet: the devices are fresh).
  await sleep(7_000);
  const fleet = await bench(server, '/__bench/fleet', { offlineEvery: 50 });
  log(`${server.db}: ${fmt(RULES)} rules over the fleet; ${fmt(fleet.offline)} devices OFFLINE for 2 h, ${fmt(fleet.online)} ONLINE`);
  const first = await bench(server, '/__bench/pass', { namePrefix: 'Pass ' });
  log(
    `${server.db}: first pass (opens the alerts): ${fmt(first.ms)} ms, ${first.evaluated} of ${first.rules} rules, ${fmt(first.opened)} alerts opened`,
  );
  const rounds = [];
  for (let k = 0; k < PASSES; k++) {
    const cpu = cpuWindow(server.pid, PG_DATABASE);
    const pass = await bench(server, '/__bench/pass', { namePrefix: 'Pass ' });
    const usage = cpu.end();
    const count = await bench(server, '/__bench/count-baseline', { namePrefix: 'Pass ' });
    const statements = await bench(server, '/__bench/statements', { namePrefix: 'Pass ' });
    if (pass.evaluated !== RULES)
      log(`pass ${k + 1}: ${pass.evaluated} of ${RULES} rules evaluated (the job's tick took some); not counted`);
    else rounds.push({ pass, count, statements: { ms: statements.ms }, cpu: usage, load: os.loadavg()[0] });
    log(
      `${server.db} pass ${k + 1}: ${fmt(pass.ms)} ms (${pass.opened} opened, ${pass.closed} closed, ${fmt(pass.open)} open); 100 × count(*) ${fmt(count.ms)} ms; the statements alone ${fmt(statements.ms)} ms`,
    );
  }
  const explained = await bench(server, '/__bench/statements', { namePrefix: 'Pass ' });
  const before = [];
  for (let k = 0; k < 2; k++) before.push(await bench(server, '/__bench/statements-before', { namePrefix: 'Pass ' }));
  log(`${server.db}: the statements as they were before: ${before.map((b) => fmt(b.ms)).join(', ')} ms`);
  return { first, fleet, rounds, plans: explained.plans, before };
}

// ---------------------------------------------------------------- 2 and 3. bursts of deliveries

/** Deliveries of `ruleId` of `type` that arrived since index `from` of the receiver's log. */
const arrivedOf = (receiver, from, ruleId, type) => receiver.arrivals.slice(from).filter((a) => a.ruleId === ruleId && a.type === type);

/** One outage (or recovery) of `folderId`; waits for the `expected` deliveries of the rule and answers their figures. */
async function burst(server, receiver, { ruleId, folderId, offline, expected }) {
  const from = receiver.arrivals.length;
  const type = offline ? 'alert.device.offline' : 'alert.device.online';
  const cpu = cpuWindow(server.pid, PG_DATABASE);
  const outage = await bench(server, '/__bench/outage', { folderId, offline, ruleId });
  const deadline = Date.now() + BURST_LIMIT_MS;
  let got = arrivedOf(receiver, from, ruleId, type);
  while (got.length < expected) {
    if (Date.now() > deadline)
      throw new Error(`after ${BURST_LIMIT_MS / 1000} s only ${got.length} of ${expected} ${type} deliveries arrived`);
    await sleep(50);
    got = arrivedOf(receiver, from, ruleId, type);
  }
  const usage = cpu.end();
  await sleep(300);
  got = arrivedOf(receiver, from, ruleId, type);
  const ids = new Set(got.map((a) => a.id));
  const firstAt = Math.min(...got.map((a) => a.at));
  const lastAt = Math.max(...got.map((a) => a.at));
  const evaluatedAt = Math.min(...got.map((a) => a.timestamp));
  const latencies = got.map((a) => a.at - a.timestamp);
  return {
    type,
    devices: outage.devices,
    deliveries: got.length,
    duplicates: got.length - ids.size,
    latencies,
    perSecond: lastAt > firstAt ? ((got.length - 1) / (lastAt - firstAt)) * 1000 : Number.NaN,
    evaluationToFirstMs: firstAt - evaluatedAt,
    evaluationToLastMs: lastAt - evaluatedAt,
    changeToEvaluationMs: evaluatedAt - outage.changedAt,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    cpu: usage,
    // The server's CPU over the burst (the evaluation, the queueing, the worker) for each delivery.
    cpuMsEach: (usage.server * usage.seconds * 1000) / got.length,
  };
}

async function deliveries(server, owner, folders, receiver) {
  const channel = await created(
    owner,
    '/api/alertRuleNotificationChannel',
    { name: 'Bench receiver', comment: '', channelType: 'WEBHOOK', notify: [`${receiver.url}/hook`] },
    'POST /api/alertRuleNotificationChannel',
  );
  receiver.state.secret = channel.secret;
  const since = Date.now() - 1_000;
  const ruleOf = async (name, folderId) =>
    created(
      owner,
      '/api/alertRule',
      {
        '@type': 'DeviceOffline',
        name,
        condition: { inactiveMinutes: 15, deviceGroupId: folderId, recursive: true },
        workingDays: EVERY_DAY,
        workingTime: { allDay: true, timeZone: 'UTC' },
        scheduledEvaluateSeconds: 86_400,
        notificationChannels: [{ id: channel.id }],
      },
      'POST /api/alertRule',
    );
  const regionId = folders.regions[0];
  const siteId = folders.sites[10];
  const regionDevices = folders.sites.slice(0, 10).reduce((n, s) => n + (folders.siteDevices[s] ?? 0), 0);
  const siteDevices = folders.siteDevices[siteId] ?? 0;
  const regionRule = await ruleOf('Burst region 1', regionId);
  const siteRule = await ruleOf('Burst site 11', siteId);
  await sleep(6_000);
  const region = [];
  const bare = [];
  for (let k = 0; k < BURSTS; k++) {
    const b = await burst(server, receiver, { ruleId: regionRule.id, folderId: regionId, offline: k % 2 === 0, expected: regionDevices });
    region.push(b);
    log(
      `${server.db} region burst ${k + 1} (${b.type}): ${fmt(b.deliveries)} deliveries, ${fmt(b.perSecond)}/s first → last arrival; evaluation → first ${fmt(b.evaluationToFirstMs)} ms, → last ${fmt(b.evaluationToLastMs)} ms; latency p99 ${fmt(b.p99)} ms; ${b.duplicates} duplicates`,
    );
    await sleep(1_000);
    const x = await bench(server, '/__bench/bare-posts', { url: `${receiver.url}/bare`, count: regionDevices, concurrency: WORKER_SLOTS });
    bare.push(x);
    log(`${server.db} bare client: ${fmt(x.perSecond)} posts/s (${x.succeeded} of ${x.count} 2xx, p50 ${fmt(x.p50)} ms)`);
    await sleep(1_000);
  }
  const site = [];
  for (let k = 0; k < SITE_ROUNDS; k++) {
    const b = await burst(server, receiver, { ruleId: siteRule.id, folderId: siteId, offline: k % 2 === 0, expected: siteDevices });
    site.push(b);
    log(
      `${server.db} site burst ${k + 1} (${b.type}): ${fmt(b.deliveries)} deliveries; latency p50 ${fmt(b.p50)} ms, p99 ${fmt(b.p99)} ms; change → evaluation ${fmt(b.changeToEvaluationMs)} ms`,
    );
    await sleep(500);
  }
  // Which statements a delivery runs (diagnostic): every statement of the server's driver during one more site burst
  // (the tick's wait before the evaluation included).
  // fetch, not `request`: that one's single keep-alive socket would hold the burst's own requests until the trace ends.
  const tracing = fetch(`${server.base}/__bench/trace`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: TRACE_MS }),
  });
  await sleep(100);
  const traced = await burst(server, receiver, {
    ruleId: siteRule.id,
    folderId: siteId,
    offline: SITE_ROUNDS % 2 === 0,
    expected: siteDevices,
  });
  const trace = await (await tracing).json();
  const check = await bench(server, '/__bench/deliveries', { since });
  return {
    regionDevices,
    siteDevices,
    region,
    bare,
    site,
    trace: { ...trace, deliveries: traced.deliveries, evaluationToLastMs: traced.evaluationToLastMs },
    check,
    signatures: { checked: receiver.state.checked, bad: receiver.state.badSignatures },
  };
}

// ---------------------------------------------------------------- one database

async function runDatabase(db, databaseUrl, receiver) {
  const server = await startBenchServer({
    name: `alerts-${db}`,
    script: join(root, 'bench', 'alerts-server.ts'),
    cwd: root,
    env: {
      ...baseEnv,
      JOBS_ENABLED: 'true',
      ALLOW_PRIVATE_NETWORK_FETCH: 'true',
      BENCH_SEED_DEVICES: String(DEVICES),
      BENCH_TOKEN_SEED: secret(24),
      BENCH_OWNER_EMAIL: OWNER_EMAIL,
    },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-alerts-',
    describe: (info) =>
      ` (seeded ${fmt(info.seed.devices)} devices in ${info.seed.seconds.toFixed(1)} s; job queue ${info.jobs ? 'on' : 'OFF'})`,
  });
  if (!server.info.jobs) throw new Error('the bench server started without its job queue (JOBS_ENABLED)');
  const owner = { ...server, token: await passwordToken(server.base, { ...credentials, email: OWNER_EMAIL }) };
  const result = { db, seed: server.info.seed, loadBefore: os.loadavg()[0] };
  try {
    const folders = ok(await request(server, 'GET', '/__bench/folders'), 'folders').body;
    result.passes = await passes(server, owner, folders);
    result.loadAfterPasses = os.loadavg()[0];
    result.deliveries = await deliveries(server, owner, folders, receiver);
    result.loadAfterDeliveries = os.loadavg()[0];
    return result;
  } finally {
    await stopChild(server.child);
  }
}

// ---------------------------------------------------------------- the record

const ms = (x, digits = 0) => (x === undefined || x === null || Number.isNaN(x) ? '—' : fmt(x, digits));
const pctOf = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)} %`);
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
const stats = (values) => ({ p50: percentile(values, 50), max: Math.max(...values), min: Math.min(...values), mean: mean(values) });

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const goal = (okay) => (okay ? 'yes' : '**no**');
  const loads = results
    .map(
      (r) =>
        `${r.loadBefore.toFixed(2)} at the server's start, ${r.loadAfterPasses.toFixed(2)} after the passes, ${r.loadAfterDeliveries.toFixed(2)} after the deliveries`,
    )
    .join('; ');
  push(
    MARKERS.start,
    '## Alerts (`npm run bench:alerts`, issue 32)',
    '',
    '_Written by scripts/bench-alerts.mjs into this marked section only. Each figure is compared with a baseline measured in the same run on the same machine. Goals are judged on PostgreSQL; PGlite is not measured._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)${QUICK ? ' — **quick mode** (BENCH_ALERTS_QUICK=1: fewer passes and bursts)' : ''}`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; **a machine shared with other work** — 1-minute load average ${loadBefore.toFixed(2)} before the run, ${loadAfter.toFixed(2)} after; ${loads}`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/alerts-server.ts\` — the production \`createService\` on \`@hono/node-server\` **with the job queue started as \`server/main.ts\` starts it** (every module's jobs: \`alerts.evaluate-due\` every 5 s, \`notification-channels.deliver-due\` every 5 s, the delivery worker with ${WORKER_SLOTS} slots woken after each committed evaluation); \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, \`ALLOW_PRIVATE_NETWORK_FETCH=true\`. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}; this script (with the receiver) and PostgreSQL are not pinned (core ${LOADGEN_CPU} is the other).` : 'No CPU pinning (taskset unavailable).'}`,
    `- Data: one tenant ("Bench Alerts") with an OWNER, who makes through the API (\`POST /api/alertRule\`, \`POST /api/alertRuleNotificationChannel\`) the rules and the WEBHOOK channel; seeded set-based in SQL: a folder "Fleet" with 10 regions of 10 sites, ${fmt(DEVICES)} devices spread evenly over the 100 sites (every 4th tagged \`lobby\`, every 7th \`kiosk\`). Device states are set in SQL (\`device_status\`, \`last_activity\`).`,
    '',
    '**Goals at a glance**',
    '',
    '| Goal | Measured | Baseline (same run) | Result |',
    '|---|---|---|---|',
  );
  for (const r of results) {
    const p = stats(r.passes.rounds.map((x) => x.pass.ms));
    const c = stats(r.passes.rounds.map((x) => x.count.ms));
    const d = r.deliveries;
    const rates = stats(d.region.map((b) => b.perSecond));
    const bare = stats(d.bare.map((b) => b.perSecond));
    const siteLatencies = d.site.flatMap((b) => b.latencies);
    const siteP99 = percentile(siteLatencies, 99);
    push(
      `| one evaluation pass of ${fmt(RULES)} rules over ${fmt(DEVICES)} devices ≤ ${GOALS.passMs} ms | p50 ${ms(p.p50)} ms, max ${ms(p.max)} ms (${r.passes.rounds.length} steady passes; the first, opening ${fmt(r.passes.first.opened)} alerts: ${ms(r.passes.first.ms)} ms) | ${fmt(RULES)} × \`select count(*)\` of each rule's devices: p50 ${ms(c.p50, 1)} ms (pass ${ratio(p.p50 / c.p50)}) | ${goal(p.p50 <= GOALS.passMs)} (p50; ${r.passes.rounds.filter((x) => x.pass.ms > GOALS.passMs).length} of ${r.passes.rounds.length} over) |`,
      `| ≥ ${GOALS.perSecond} webhook deliveries a second to a local receiver | ${fmt(rates.min)}–${fmt(rates.max)}/s (mean ${fmt(rates.mean)}) over ${d.region.length} bursts of ${fmt(d.regionDevices)} | the worker's HTTP call alone, ${WORKER_SLOTS} in flight, same receiver: ${fmt(bare.mean)}/s (deliveries ${ratio(rates.mean / bare.mean)}) | ${goal(rates.mean >= GOALS.perSecond)} (mean; ${d.region.filter((b) => b.perSecond < GOALS.perSecond).length} of ${d.region.length} bursts under) |`,
      `| p99 from violation to delivery ≤ ${fmt(GOALS.p99Ms)} ms after the evaluation that finds it | ${fmt(siteLatencies.length)} deliveries of ${d.site.length} site bursts (${fmt(d.siteDevices)} devices): p99 ${ms(siteP99)} ms (p50 ${ms(percentile(siteLatencies, 50))}, max ${ms(Math.max(...siteLatencies))}) | sending ${fmt(d.siteDevices)} alone at the bare rate: ${ms((d.siteDevices / bare.mean) * 1000)} ms (p99 ${ratio(siteP99 / ((d.siteDevices / bare.mean) * 1000))}) | ${goal(siteP99 <= GOALS.p99Ms)} |`,
    );
  }

  push(
    '',
    '### 1. Evaluation pass',
    '',
    `Method: ${fmt(RULES)} DeviceOffline rules made through the API, **every one over the whole fleet** (the "Fleet" folder, recursively: all ${fmt(DEVICES)} devices, the widest scope a rule has), \`inactiveMinutes\` 5, 10, 15, 30 or 60, a quarter with an INCLUDE tag filter (\`lobby\`), a quarter with an EXCLUDE one (\`kiosk\`), a quarter excluding one region; no channels (a steady pass queues nothing either way). Every 50th device OFFLINE with its last activity two hours ago, the others ONLINE. A pass = every rule made due, then one call of the product's \`runEvaluationTick\` (bench/alerts-server.ts \`/__bench/pass\`): the claim (one \`UPDATE … SKIP LOCKED\`), then each rule in its own transaction (the rule locked, working time, the one statement that also counts what violates and writes the counters and the next time). The first pass opens the alerts; the next ${PASSES} change nothing (the steady state every later tick is in) and are judged. Baselines in each round: \`select count(*)\` of each rule's devices (\`customer_id\` and \`group_path @> {Fleet}\`, the statement's own scope predicate) ${fmt(RULES)} times one after another, and the ${fmt(RULES)} evaluation statements alone (\`evaluateDeviceRule\` one after another in one transaction, rolled back).`,
    '',
    '| Database | case | p50 ms | min ms | max ms | ÷ count(*) baseline (p50) | server CPU | PostgreSQL backends |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const rounds = r.passes.rounds;
    const p = stats(rounds.map((x) => x.pass.ms));
    const c = stats(rounds.map((x) => x.count.ms));
    const s = stats(rounds.map((x) => x.statements.ms));
    const one = stats(rounds.map((x) => x.count.oneMs));
    push(
      `| ${r.db} | steady pass (\`runEvaluationTick\`, ${fmt(RULES)} rules) | ${ms(p.p50)} | ${ms(p.min)} | ${ms(p.max)} | ${ratio(p.p50 / c.p50)} | ${pctOf(mean(rounds.map((x) => x.cpu.server)))} | ${pctOf(mean(rounds.map((x) => x.cpu.postgres)))} |`,
      `| ${r.db} | first pass, opening ${fmt(r.passes.first.opened)} alerts | ${ms(r.passes.first.ms)} | | | ${ratio(r.passes.first.ms / c.p50)} | | |`,
      `| ${r.db} | the ${fmt(RULES)} evaluation statements alone | ${ms(s.p50)} | ${ms(s.min)} | ${ms(s.max)} | ${ratio(s.p50 / c.p50)} | | |`,
      `| ${r.db} | before: the ${fmt(RULES)} statements as they were until this benchmark (the whole scope read), alone | ${ms(
        percentile(
          r.passes.before.map((b) => b.ms),
          50,
        ),
      )} | ${ms(Math.min(...r.passes.before.map((b) => b.ms)))} | ${ms(Math.max(...r.passes.before.map((b) => b.ms)))} | ${ratio(
        percentile(
          r.passes.before.map((b) => b.ms),
          50,
        ) / c.p50,
      )} | | |`,
      `| ${r.db} | baseline: ${fmt(RULES)} × \`select count(*)\` (${fmt(rounds[0]?.count.devices)} devices each) | ${ms(c.p50, 1)} | ${ms(c.min, 1)} | ${ms(c.max, 1)} | 1.00× | | |`,
      `| ${r.db} | one \`select count(*)\` | ${ms(one.p50, 2)} | ${ms(one.min, 2)} | ${ms(one.max, 2)} | | | |`,
    );
  }
  push('', "Plans (EXPLAIN ANALYZE of one rule's statement, rolled back; indexes read):", '');
  for (const r of results)
    for (const x of r.passes.plans)
      push(`- ${r.db}, ${x.name} (${JSON.stringify(x.condition.tagFilter ?? null)}): ${indexSummary(x.plan, 'device')}`);
  for (const r of results)
    for (const x of r.passes.plans)
      push('', `<details><summary>${r.db}, ${x.name}: EXPLAIN (ANALYZE, BUFFERS)</summary>`, '', '```', x.plan, '```', '', '</details>');

  push(
    '',
    '### 2. Deliveries and 3. latency',
    '',
    `Method: one WEBHOOK channel made through the API, its URL a 127.0.0.1 HTTP server in this script that answers 204 at once and keeps each delivery's arrival time, \`webhook-id\` and payload (every 10th signature checked with the channel's secret). Rules on it (made through the API, \`inactiveMinutes\` 15): one on "Region 1" (${fmt(results[0]?.deliveries.regionDevices)} devices), one on "Site 11" (${fmt(results[0]?.deliveries.siteDevices)} devices). A **burst**: the folder's devices go OFFLINE with their last activity two hours ago (or come back ONLINE) in one SQL statement and the rule is made due; the job's next 5 s tick evaluates it (one transaction: the alerts opened or closed and one delivery queued per device), the worker, woken after the commit, sends them ${WORKER_SLOTS} at a time (each attempt recorded in its own transaction). **Rate** = (deliveries − 1) ÷ (last arrival − first arrival). **Latency** = arrival − the payload's \`timestamp\`, which is the \`now\` of the evaluation that found the change. Region bursts alternate offline and online; after each, the baseline: the worker's HTTP call alone (\`postJson\` through the guarded client with a signed delivery-sized body, ${WORKER_SLOTS} in flight like the worker's slots, no database) as many times to the same receiver.`,
    '',
    '| Database | burst | deliveries | per s (first → last arrival) | evaluation → first arrival ms | evaluation → last arrival ms | latency p50 ms | p99 ms | max ms | duplicates | server CPU | server CPU a delivery ms | PostgreSQL backends | bare client per s (CPU a post ms) | ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const d = r.deliveries;
    d.region.forEach((b, k) =>
      push(
        `| ${r.db} | region ${k + 1}, ${b.type} | ${fmt(b.deliveries)} | ${fmt(b.perSecond)} | ${ms(b.evaluationToFirstMs)} | ${ms(b.evaluationToLastMs)} | ${ms(b.p50)} | ${ms(b.p99)} | ${ms(b.max)} | ${b.duplicates} | ${pctOf(b.cpu.server)} | ${ms(b.cpuMsEach, 2)} | ${pctOf(b.cpu.postgres)} | ${fmt(d.bare[k]?.perSecond)} (${ms(d.bare[k]?.cpuMsEach, 2)}) | ${ratio(b.perSecond / d.bare[k]?.perSecond)} |`,
      ),
    );
    const all = d.site.flatMap((b) => b.latencies);
    push(
      `| ${r.db} | site, ${d.site.length} bursts together | ${fmt(all.length)} | ${fmt(mean(d.site.map((b) => b.perSecond)))} (mean) | ${ms(mean(d.site.map((b) => b.evaluationToFirstMs)))} (mean) | ${ms(Math.max(...d.site.map((b) => b.evaluationToLastMs)))} (max) | ${ms(percentile(all, 50))} | ${ms(percentile(all, 99))} | ${ms(Math.max(...all))} | ${d.site.reduce((n, b) => n + b.duplicates, 0)} | ${pctOf(mean(d.site.map((b) => b.cpu.server)))} | ${ms(mean(d.site.map((b) => b.cpuMsEach)), 2)} | ${pctOf(mean(d.site.map((b) => b.cpu.postgres)))} | | |`,
    );
  }
  push('', '### Details and readings', '', ...readings(results), CHANGES, '', MARKERS.end);
  return lines.join('\n');
}

/** What this benchmark changed in the product (by hand: the earlier runs' figures are not of this run). */
const CHANGES =
  '- Changed after the first measurements (issue 32, with this script; the API tests of both modules pass): (1) a DeviceOffline evaluation read its whole scope into a CTE (all 10,000 devices for these rules, ~60 ms a rule at a load average of 12) and tried every violating device against the partial unique index on every pass; it now reads only the scope\'s violating devices (`device_customer_status_idx`) and leaves out those with an open alert before the insert: the row "before" of section 1 is the old statement in this run. (2) The alerts to close were found by a `not exists` over that CTE, which PostgreSQL planned as a nested loop (200 open alerts × 200 violating devices: 4 ms of a 4.5 ms statement); now `not in`, a hashed subplan. (3) An evaluation queued each notification on its own (the channels read and one insert each: 2,000 statements in the evaluation\'s transaction for 1,000 screens; the first run, at a load average of 12–19, had the first delivery of a 1,000-device burst 2.9–9.2 s after the evaluation); now one `queueNotifications` call with all of them (the channels read once, 1,000 rows a statement). (4) The tick evaluated its rules one after another; now four at a time, each on a connection of its own (the first run: passes 1.8–4.3 s at a load average of about 18; the second, with (3) and (4): 0.7–1.0 s at about 6 — the loads differ too much for a ratio). No schema change, no migration: the indexes used were there.';

function readings(results) {
  const out = [];
  const short = (text) =>
    `\`${text.replace(/"/g, '').replace(/`/g, "'").replace(/\|/g, '\\|').slice(0, 100)}${text.length > 100 ? '…' : ''}\``;
  for (const r of results) {
    const p = r.passes;
    out.push(
      `- ${r.db}, seeding: ${fmt(r.seed.devices)} devices with their folders in ${fmt(r.seed.seconds, 1)} s. Fleet state: ${fmt(p.fleet.offline)} OFFLINE, ${fmt(p.fleet.online)} ONLINE; after the first pass ${fmt(p.first.open)} alerts open (${fmt(p.first.opened)} opened by it). Every pass: ${p.rounds.map((x) => fmt(x.pass.ms)).join(', ')} ms (1-minute load average ${p.rounds.map((x) => x.load.toFixed(1)).join(', ')} after each); server waited for a core ${pctOf(mean(p.rounds.map((x) => x.cpu.waited)))} of the passes.`,
    );
    const d = r.deliveries;
    const site = d.site;
    out.push(
      `- ${r.db}, latency: from the SQL that changed the devices to the evaluation that found it (the tick's wait, not counted by the goal) ${ms(
        percentile(
          site.map((b) => b.changeToEvaluationMs),
          50,
        ),
      )} ms p50, ${ms(Math.max(...site.map((b) => b.changeToEvaluationMs)))} ms max. Every site burst's p99: ${site.map((b) => fmt(b.p99)).join(', ')} ms. The region bursts' latency p99 (${fmt(d.regionDevices)} at once, information): ${d.region.map((b) => fmt(b.p99)).join(', ')} ms.`,
    );
    const x = d.check.delays ?? {};
    out.push(
      `- ${r.db}, the queue (from the deliveries' rows, every burst of the phase): ${Object.entries(d.check.byState)
        .map(([s, n]) => `${fmt(n)} ${s}`)
        .join(
          ', ',
        )}; ${fmt(x.attempts)} first attempts, ${fmt(x.failed)} failed; evaluation's \`now\` → delivery queued (the evaluation's own work before that row) p50 ${ms(x.queued_p50)} ms, max ${ms(x.queued_max)} ms; queued → first attempt p50 ${ms(x.claimed_p50)} ms, p99 ${ms(x.claimed_p99)} ms; the HTTP call p50 ${ms(x.http_p50)} ms. Signatures checked ${fmt(d.signatures.checked)}, wrong ${fmt(d.signatures.bad)}.`,
    );
    const t = d.trace;
    out.push(
      `- ${r.db}, statements (every statement of the server's driver over ${TRACE_MS / 1000} s around one more site burst of ${fmt(t.deliveries)} deliveries, with its evaluation, \`driverTrace\`; the last arrived ${fmt(t.evaluationToLastMs)} ms after the evaluation): ${fmt(t.statements)} = ${fmt(t.statements / Math.max(1, t.deliveries), 1)} a delivery: ${t.kinds
        .slice(0, 14)
        .map((k) => `${fmt(k.count / Math.max(1, t.deliveries), 2)} × ${short(k.sql)}`)
        .join('; ')}.`,
    );
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  log(
    `${fmt(RULES)} rules over ${fmt(DEVICES)} devices, ${PASSES} passes, ${BURSTS} region bursts, ${SITE_ROUNDS} site bursts${QUICK ? ' (quick mode)' : ''}; load average ${loadBefore.toFixed(2)}`,
  );
  const pgInfo = await preparePostgres({ database: PG_DATABASE });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  const receiver = await startReceiver();
  const results = [];
  try {
    if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url, receiver));
  } finally {
    receiver.close();
  }
  const finishedAt = new Date();
  saveResults(root, 'alerts', { startedAt, finishedAt, pgInfo, results });
  if (results.length === 0) throw new Error('no database was measured');
  writeSection(OUT, MARKERS, report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0] }));
  log(`written to ${OUT}`);
}

void runMain(main, watchdog);
