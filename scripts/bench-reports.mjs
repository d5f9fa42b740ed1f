#!/usr/bin/env node
// `npm run bench:reports`: proof-of-display reports over about 10 million plays, on PostgreSQL (local Debian
// cluster or BENCH_DATABASE_URL; skipped when absent) and PGlite. Written to the reports section of
// docs/benchmarks.md (between <!-- reports:start --> and <!-- reports:end -->; the rest is left as it is).
//
// One tenant (bench/reports-server.ts) with 1 000 devices and 1 000 content items whose plays over 91 days are
// seeded as the day rollups the ingest writes (DEVICE and CONTENT rows, 1–2 plays in every quarter hour). Two
// reports, one client, sequential requests over a keep-alive connection:
//   1. DAILY by device in Asia/Kolkata: `GET /api/v2/proof-of-display/device/all?resolution=DAILY` over the
//      last 89 days (Kolkata midnights are 18:30 UTC, so every local day reads two UTC day rows), at the
//      default `limit` (10 000 rows) and with every row (`limit=100000`, ~89 000 rows);
//   2. TOTAL top played: `GET /api/v2/proof-of-display/content/dashboard/top/played` (10 rows) over the same
//      window.
// Goal (issue 15): p50 ≤ 200 ms on PostgreSQL; PGlite recorded for information.
//
// Options (environment): BENCH_REPORTS_DEVICES (1000), BENCH_REPORTS_DAYS (91), BENCH_REPORTS_RUNS (30),
// BENCH_SKIP_PG=1, BENCH_SKIP_PGLITE=1, BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md).
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SERVER_CPU,
  benchServerIdentity,
  fmt,
  hasTaskset,
  installGuards,
  log,
  machine,
  num,
  ok,
  pause,
  preparePostgres,
  request,
  resume,
  runMain,
  saveResults,
  secret,
  setLogPrefix,
  startBenchServer,
  stopChild,
  timedRuns,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-reports');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEVICES = num('BENCH_REPORTS_DEVICES', 1_000);
const DAYS = num('BENCH_REPORTS_DAYS', 91);
const RUNS = num('BENCH_REPORTS_RUNS', 30);
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const PG_DATABASE = 'signage_bench_reports';
const MARKERS = { start: '<!-- reports:start -->', end: '<!-- reports:end -->' };
const GOAL_P50 = 200;
const DAY = 86_400_000;
const KOLKATA = 5.5 * 3_600_000;

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(60);

/** A Kolkata midnight `days` days back (18:30 UTC the evening before), and now. */
function window(days) {
  const now = Date.now();
  const localMidnight = Math.floor((now + KOLKATA) / DAY) * DAY - KOLKATA;

  return { from: localMidnight - days * DAY, to: now };
}

async function measure(server, label, path) {
  resume(server);
  try {
    const first = ok(await request(server, 'GET', path), `GET ${path}`);
    const runs = await timedRuns(RUNS, 3, async () => ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`));
    const r = { label, path, rows: first.body.rows.length, bytes: first.bytes, p50: runs.p50, p95: runs.p95, p99: runs.p99, count: runs.count };
    log(`${server.db} ${label}: ${fmt(r.rows)} rows, ${fmt(r.bytes)} bytes, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    return r;
  } finally {
    pause(server);
  }
}

async function runDatabase(db, databaseUrl) {
  const server = await startBenchServer({
    name: `reports-${db}`,
    script: join(root, 'bench', 'reports-server.ts'),
    cwd: root,
    env: { ...baseEnv, BENCH_TOKEN_SEED: secret(24), BENCH_REPORTS_DEVICES: String(DEVICES), BENCH_REPORTS_DAYS: String(DAYS) },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-reports-',
    describe: (info) => ` (seeded ${fmt(info.seed.rollupRows)} rollup rows, ${fmt(info.seed.plays)} plays, in ${info.seed.seconds.toFixed(1)} s)`,
  });
  pause(server);
  const { from, to } = window(Math.min(DAYS - 2, 89));
  const base = { customerId: String(server.customerId), from: String(from), to: String(to), timeZone: 'Asia/Kolkata' };
  const path = (p, extra) => `/api/v2/proof-of-display${p}?${new URLSearchParams({ ...base, ...extra })}`;
  try {
    return {
      db,
      seed: server.info.seed,
      cases: [
        await measure(server, 'DAILY by device, default limit', path('/device/all', { resolution: 'DAILY' })),
        await measure(server, 'DAILY by device, every row', path('/device/all', { resolution: 'DAILY', limit: '100000' })),
        await measure(server, 'TOTAL top played content', path('/content/dashboard/top/played', {})),
      ],
    };
  } finally {
    resume(server);
    await stopChild(server.child);
  }
}

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [
    MARKERS.start,
    '## Proof-of-display reports (`npm run bench:reports`)',
    '',
    '_Written by scripts/bench-reports.mjs into this marked section only._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (other work on the machine shows here)`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/reports-server.ts\` — the production \`createService\` on \`@hono/node-server\`, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, no job queue. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}; PostgreSQL is not pinned.` : 'No CPU pinning.'}`,
    `- Data: one tenant, ${fmt(DEVICES)} devices and ${fmt(DEVICES)} content items, ${fmt(DAYS)} UTC days of \`play_rollup_day\` rows of the DEVICE and CONTENT dimensions (1–2 plays of 10 s in every quarter hour, running sums as the ingest stores them), names in \`play_subject\`.${results.map((r) => ` ${r.db}: ${fmt(r.seed.rollupRows)} rows counting ${fmt(r.seed.plays)} plays, seeded in ${r.seed.seconds.toFixed(1)} s.`).join('')}`,
    `- Requests: one client, ${fmt(RUNS)} sequential requests after 3 unmeasured, window: the last 89 Kolkata days up to now; time until the whole body arrived.`,
    '',
    `| Database | report | rows | bytes | p50 ms | p95 ms | p99 ms | goal p50 ≤ ${GOAL_P50} ms |`,
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of results) {
    for (const c of r.cases) {
      const met = c.p50 <= GOAL_P50;
      lines.push(`| ${r.db} | ${c.label} | ${fmt(c.rows)} | ${fmt(c.bytes)} | ${fmt(c.p50, 1)} | ${fmt(c.p95, 1)} | ${fmt(c.p99, 1)} | ${r.db === 'PostgreSQL' ? (met ? 'yes' : '**no**') : `(${met ? 'yes' : 'no'}; information)`} |`);
    }
  }
  lines.push('', MARKERS.end);
  return lines.join('\n');
}

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  const pgInfo = await preparePostgres({ database: PG_DATABASE });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  const results = [];
  if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url));
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await runDatabase('PGlite'));
  const finishedAt = new Date();
  saveResults(root, 'reports', { startedAt, finishedAt, pgInfo, results });
  writeSection(OUT, MARKERS, report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0] }));
  log(`written to ${OUT}`);
}

void runMain(main, watchdog);
