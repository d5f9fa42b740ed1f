#!/usr/bin/env node
// `npm run bench:licences`: licences (issue 33) on PostgreSQL (local Debian cluster, a fresh database, or
// BENCH_DATABASE_URL; the goals are judged there). Written to the licences section of docs/benchmarks.md (between
// <!-- licences:start --> and <!-- licences:end -->; the rest of the file is left as it is). PGlite is not measured:
// the goals name PostgreSQL.
//
// The server (bench/licences-server.ts) runs the production service and seeds, set-based, BENCH_LICENCES_CUSTOMERS
// (1 000) customers with BENCH_LICENCES_ORDERS (10 000) licence orders. The run is a list of phases (PHASES below),
// each measured against a baseline of the same run:
//   1. Global invoice view: `GET /api/customer/global/view/invoice?date=…` as the ADMIN, BENCH_LICENCES_RUNS (30)
//      requests one after another on a keep-alive connection after 10 unmeasured (p50, p99); the same service verb
//      in-process (no HTTP); baseline: `select count(*) from license_order` in-process. Goal: p50 ≤ 100 ms.
//   2. updateLicense batch: a customer made by `POST /api/customer` with BENCH_LICENCES_FLEET (1 000) devices and an
//      approved order of as many licences; `POST /api/v2/device/updateLicense?licenseStatus=LICENSED&licenseOrderId=…`
//      over all of them, BENCH_LICENCES_BATCH_RUNS (5) times (the devices set back between runs, unmeasured); baseline:
//      the same batch path without the licence rules, `POST /api/v2/device/time?timeZone=…` over the same devices.
//      Goal: ≤ 1 s.
//
// Options (environment): BENCH_LICENCES_CUSTOMERS, BENCH_LICENCES_ORDERS, BENCH_LICENCES_RUNS, BENCH_SKIP_PG=1,
// BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md).
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  benchServerIdentity,
  fmt,
  hasTaskset,
  indexSummary,
  installGuards,
  LOADGEN_CPU,
  log,
  machine,
  num,
  ok,
  percentile,
  preparePostgres,
  ratio,
  request,
  runMain,
  saveResults,
  SERVER_CPU,
  setLogPrefix,
  startBenchServer,
  stopChild,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-licences');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CUSTOMERS = num('BENCH_LICENCES_CUSTOMERS', 1_000);
const ORDERS = num('BENCH_LICENCES_ORDERS', 10_000);
const RUNS = num('BENCH_LICENCES_RUNS', 30);
const WARMUP = 10;
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const PG_DATABASE = 'signage_bench_licences';
const MARKERS = { start: '<!-- licences:start -->', end: '<!-- licences:end -->' };
const FLEET = num('BENCH_LICENCES_FLEET', 1_000);
const BATCH_RUNS = num('BENCH_LICENCES_BATCH_RUNS', 5);
const GOALS = { globalInvoiceP50Ms: 100, updateLicenseMs: 1000 };
const DATE = new Date().toISOString();

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(15);

const stats = (times) => ({
  p50: percentile(times, 50),
  p99: percentile(times, 99),
  min: Math.min(...times),
  max: Math.max(...times),
  count: times.length,
});
const bench = async (server, path, body) => ok(await request(server, 'POST', path, { body }), path).body;

// ---------------------------------------------------------------- phases

/** Phase 1: the global invoice view over every order, through HTTP and in-process, against a count(*) baseline. */
async function globalInvoicePhase(server) {
  const path = `/api/customer/global/view/invoice?date=${encodeURIComponent(DATE)}`;
  const first = ok(await request(server, 'GET', path), `GET ${path}`).body;
  for (let i = 0; i < WARMUP; i++) ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`);
  const http = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`);
    http.push(performance.now() - started);
  }
  const inProcess = await bench(server, '/__bench/global-invoice', { runs: RUNS, date: DATE });
  const baseline = await bench(server, '/__bench/count-baseline', { runs: RUNS });
  const result = {
    name: 'global invoice view',
    http: stats(http),
    inProcess: stats(inProcess.times),
    baseline: stats(baseline.times),
    currencies: first.recurringRevenueList,
    plan: inProcess.plan,
    load: os.loadavg()[0],
  };
  log(
    `${server.db} global invoice view: HTTP p50 ${fmt(result.http.p50, 1)} ms, p99 ${fmt(result.http.p99, 1)} ms; in-process p50 ${fmt(result.inProcess.p50, 1)} ms; count(*) p50 ${fmt(result.baseline.p50, 2)} ms`,
  );
  return result;
}

/** Phase 2: licensing FLEET devices in one updateLicense batch, against the same batch path without licence rules. */
async function updateLicensePhase(server) {
  const customer = ok(
    await request(server, 'POST', '/api/customer', { body: { name: `Bench Licences Fleet ${Date.now()}` } }),
    'POST /api/customer',
    201,
  ).body;
  const { orderId } = await bench(server, '/__bench/seed-fleet', { customerId: customer.id, devices: FLEET });
  const licence = `/api/v2/device/updateLicense?customerId=${customer.id}&licenseStatus=LICENSED&licenseOrderId=${orderId}`;
  const timeZone = (zone) => `/api/v2/device/time?customerId=${customer.id}&timeZone=${zone}`;
  const timeOf = async (path) => {
    const started = performance.now();
    const answer = ok(await request(server, 'POST', path), `POST ${path}`).body;
    if (answer.updated !== FLEET) throw new Error(`${path} reached ${answer.updated} devices, not ${FLEET}`);
    return performance.now() - started;
  };
  // One unmeasured round of each (connections, plans), then the timed runs.
  await timeOf(licence);
  await bench(server, '/__bench/unlicense-fleet', { customerId: customer.id });
  await timeOf(timeZone('UTC'));
  const licensing = [];
  const baseline = [];
  for (let i = 0; i < BATCH_RUNS; i++) {
    licensing.push(await timeOf(licence));
    await bench(server, '/__bench/unlicense-fleet', { customerId: customer.id });
    baseline.push(await timeOf(timeZone(i % 2 ? 'UTC' : 'Europe/Berlin')));
  }
  const result = { name: 'updateLicense batch', licensing: stats(licensing), baseline: stats(baseline), load: os.loadavg()[0] };
  log(
    `${server.db} updateLicense of ${FLEET} devices: p50 ${fmt(result.licensing.p50, 1)} ms, max ${fmt(result.licensing.max, 1)} ms; time-zone batch p50 ${fmt(result.baseline.p50, 1)} ms`,
  );
  return result;
}

/** The phases in order; each takes the started server and answers its figures (`report` words them). */
const PHASES = [
  { key: 'globalInvoice', run: globalInvoicePhase },
  { key: 'updateLicense', run: updateLicensePhase },
];

// ---------------------------------------------------------------- one database

async function runDatabase(db, databaseUrl) {
  const server = await startBenchServer({
    name: `licences-${db}`,
    script: join(root, 'bench', 'licences-server.ts'),
    cwd: root,
    env: { ...baseEnv, BENCH_LICENCES_CUSTOMERS: String(CUSTOMERS), BENCH_LICENCES_ORDERS: String(ORDERS) },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-licences-',
    describe: (info) =>
      ` (seeded ${fmt(info.seed.customers)} customers, ${fmt(info.seed.orders)} orders, ${fmt(info.seed.counted)} counted today, in ${info.seed.seconds.toFixed(1)} s)`,
  });
  const result = { db, seed: server.info.seed, loadBefore: os.loadavg()[0], phases: {} };
  try {
    for (const phase of PHASES) result.phases[phase.key] = await phase.run(server);
    result.loadAfter = os.loadavg()[0];
    return result;
  } finally {
    await stopChild(server.child);
  }
}

// ---------------------------------------------------------------- the record

const ms = (x, digits = 1) => (x === undefined || x === null || Number.isNaN(x) ? '—' : fmt(x, digits));

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const goal = (okay) => (okay ? 'yes' : '**no**');
  push(
    MARKERS.start,
    '## Licences (`npm run bench:licences`, issue 33)',
    '',
    '_Written by scripts/bench-licences.mjs into this marked section only. Each figure is compared with a baseline measured in the same run on the same machine. Goals are judged on PostgreSQL; PGlite is not measured._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; **a machine shared with other work** — 1-minute load average ${loadBefore.toFixed(2)} before the run, ${loadAfter.toFixed(2)} after`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/licences-server.ts\` — the production \`createService\` on \`@hono/node-server\`, no job queue; \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}; this script and PostgreSQL are not pinned (core ${LOADGEN_CPU} is the other).` : 'No CPU pinning (taskset unavailable).'}`,
    `- Data, seeded set-based in SQL: ${fmt(CUSTOMERS)} customers (every 50th a network owner with the next 10 as members), ${fmt(ORDERS)} licence orders round-robin over them, varied by hashes of the order number: ~80 % approved, ~85 % SUBSCRIPTION, recurrence DAILY/WEEKLY/MONTHLY/YEARLY with frequency 1–12, prices with four decimals, four currencies, 1–50 licences, invoice start not set (60 %), past (30 %) or future (10 %).`,
    '',
    '**Goals at a glance**',
    '',
    '| Goal | Measured | Baseline (same run) | Result |',
    '|---|---|---|---|',
  );
  for (const r of results) {
    const u = r.phases.updateLicense;
    push(
      `| licensing ${fmt(FLEET)} devices in one \`updateLicense\` batch ≤ ${GOALS.updateLicenseMs} ms | p50 ${ms(u.licensing.p50)} ms, max ${ms(u.licensing.max)} ms (${u.licensing.count} runs) | the same devices' \`time\` batch (no licence rules): p50 ${ms(u.baseline.p50)} ms (ratio ${ratio(u.licensing.p50 / u.baseline.p50)}) | ${goal(u.licensing.max <= GOALS.updateLicenseMs)} |`,
    );
  }
  for (const r of results) {
    const g = r.phases.globalInvoice;
    push(
      `| global invoice view over ${fmt(r.seed.orders)} orders of ${fmt(r.seed.customers)} customers, p50 ≤ ${GOALS.globalInvoiceP50Ms} ms | HTTP p50 ${ms(g.http.p50)} ms, p99 ${ms(g.http.p99)} ms (${g.http.count} requests after ${WARMUP} unmeasured) | \`select count(*) from license_order\` in-process: p50 ${ms(g.baseline.p50, 2)} ms (the view's in-process p50 ${ms(g.inProcess.p50)} ms = ${ratio(g.inProcess.p50 / g.baseline.p50)}) | ${goal(g.http.p50 <= GOALS.globalInvoiceP50Ms)} |`,
    );
  }
  push(
    '',
    '### 1. Global invoice view',
    '',
    `Method: \`GET /api/customer/global/view/invoice?date=<now>\` as the ADMIN, one request at a time on a keep-alive connection, ${WARMUP} unmeasured then ${RUNS} timed (client side, the whole request). Then the product's service verb \`getGlobalInvoice\` ${RUNS} times in the server's process (the statement and the shaping, no HTTP, no authentication), and the baseline \`select count(*) from license_order\` ${RUNS} times there too. The view is one statement: a sequential scan of \`license_order\` filtered to counted orders, the revenue of each (numeric, 30 places) summed per currency and rounded to 6.`,
    '',
    '| Database | case | p50 ms | p99 ms | min ms | max ms | ÷ count(*) (p50) |',
    '|---|---|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const g = r.phases.globalInvoice;
    push(
      `| ${r.db} | HTTP, the whole request | ${ms(g.http.p50)} | ${ms(g.http.p99)} | ${ms(g.http.min)} | ${ms(g.http.max)} | ${ratio(g.http.p50 / g.baseline.p50)} |`,
      `| ${r.db} | the service verb in-process | ${ms(g.inProcess.p50)} | ${ms(g.inProcess.p99)} | ${ms(g.inProcess.min)} | ${ms(g.inProcess.max)} | ${ratio(g.inProcess.p50 / g.baseline.p50)} |`,
      `| ${r.db} | baseline: \`select count(*)\` in-process | ${ms(g.baseline.p50, 2)} | ${ms(g.baseline.p99, 2)} | ${ms(g.baseline.min, 2)} | ${ms(g.baseline.max, 2)} | 1.00× |`,
    );
  }
  for (const r of results) {
    const g = r.phases.globalInvoice;
    push(
      '',
      `- ${r.db}, seeding: ${fmt(r.seed.customers)} customers and ${fmt(r.seed.orders)} orders (${fmt(r.seed.counted)} counted on the day) in ${fmt(r.seed.seconds, 1)} s. Load average ${r.loadBefore.toFixed(2)} at the server's start, ${g.load.toFixed(2)} after the phase. The answer: ${g.currencies.map((c) => `${c.currency} ${c.monthlyAverage}`).join(', ')}.`,
      `- ${r.db}, plan: ${indexSummary(g.plan, 'license_order')}. No index was added: the view reads most of the table (every approved subscription), where a sequential scan is the cheapest plan.`,
      '',
      `<details><summary>${r.db}: EXPLAIN (ANALYZE, BUFFERS) of the global view's statement</summary>`,
      '',
      '```',
      g.plan,
      '```',
      '',
      '</details>',
    );
  }
  push(
    '',
    '### 2. Licensing devices in one `updateLicense` batch',
    '',
    `Method: a customer created through \`POST /api/customer\`, ${fmt(FLEET)} unlicensed devices in its root folder and an approved order of ${fmt(FLEET)} PROFESSIONAL licences (seeded in SQL); \`POST /api/v2/device/updateLicense?licenseStatus=LICENSED&licenseOrderId=…\` over every device of the customer as the ADMIN, ${BATCH_RUNS} timed runs after one unmeasured (the devices set back to UN_LICENSED between runs, unmeasured). The request locks the order, updates the devices, inserts a command row per device, counts the order's devices (the over-sell check) and commits. Baseline: the same batch path without the licence rules, \`POST /api/v2/device/time\` over the same devices. The goal is judged on the slowest run.`,
    '',
    '| Database | case | p50 ms | p99 ms | min ms | max ms | ÷ baseline (p50) |',
    '|---|---|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    const u = r.phases.updateLicense;
    push(
      `| ${r.db} | \`updateLicense\` LICENSED, ${fmt(FLEET)} devices | ${ms(u.licensing.p50)} | ${ms(u.licensing.p99)} | ${ms(u.licensing.min)} | ${ms(u.licensing.max)} | ${ratio(u.licensing.p50 / u.baseline.p50)} |`,
      `| ${r.db} | baseline: \`time\`, the same devices | ${ms(u.baseline.p50)} | ${ms(u.baseline.p99)} | ${ms(u.baseline.min)} | ${ms(u.baseline.max)} | 1.00× |`,
      '',
      `- ${r.db}: load average ${u.load.toFixed(2)} after the phase.`,
    );
  }
  push('', MARKERS.end);
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  log(`${fmt(CUSTOMERS)} customers, ${fmt(ORDERS)} orders, ${RUNS} runs; load average ${loadBefore.toFixed(2)}`);
  const pgInfo = await preparePostgres({ database: PG_DATABASE });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  const results = [];
  if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url));
  const finishedAt = new Date();
  saveResults(root, 'licences', { startedAt, finishedAt, pgInfo, results });
  if (results.length === 0) throw new Error('no database was measured');
  writeSection(OUT, MARKERS, report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0] }));
  log(`written to ${OUT}`);
}

void runMain(main, watchdog);
