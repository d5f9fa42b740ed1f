#!/usr/bin/env node
// `npm run bench:reports`: proof-of-display reports over about 10 million plays, on PostgreSQL (local Debian
// cluster or BENCH_DATABASE_URL; skipped when absent) and PGlite. Written to the reports section of
// docs/benchmarks.md (between <!-- reports:start --> and <!-- reports:end -->; the rest is left as it is).
//
// One tenant (bench/reports-server.ts) with 1 000 devices and 1 000 content items whose plays over 91 days are
// seeded as the day rollups the ingest writes (DEVICE and CONTENT rows, 1–2 plays in every quarter hour, and their
// day totals). Two
// reports, one client, sequential requests over a keep-alive connection:
//   1. DAILY by device in Asia/Kolkata: `GET /api/v2/proof-of-display/device/all?resolution=DAILY` over the
//      last 89 days (Kolkata midnights are 18:30 UTC, so every local day reads two UTC day rows), at the
//      default `limit` (10 000 rows) and with every row (`limit=100000`, ~89 000 rows);
//   2. TOTAL top played: `GET /api/v2/proof-of-display/content/dashboard/top/played` (10 rows) over the same
//      window.
// Goal (issue 15): p50 ≤ 200 ms on PostgreSQL; PGlite recorded for information.
// Before the reports, ingestion: batches of 1 000 plays (JSON, each naming a seeded file) through
// `POST /api/display/proofOfPlay` as ten of the devices, against the same rows inserted directly into `play_event`
// in the server process (`/__bench/ingest-baseline`: one INSERT, no checks, lock or rollups), batches alternating.
// Goal: the API at ≥ 50 % of the direct rate.
//
// Options (environment): BENCH_REPORTS_DEVICES (1000), BENCH_REPORTS_DAYS (91), BENCH_REPORTS_RUNS (30), BENCH_INGEST_BATCHES (20),
// BENCH_SKIP_PG=1, BENCH_SKIP_PGLITE=1, BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md), BENCH_NODE_ARGS (Node flags for the
// bench server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it).
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
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
const INGEST_BATCHES = num('BENCH_INGEST_BATCHES', 20);
const INGEST_SIZE = 1_000;
const INGEST_DEVICES = 10;
const INGEST_GOAL = 0.5;
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
    const r = {
      label,
      path,
      rows: first.body.rows.length,
      bytes: first.bytes,
      p50: runs.p50,
      p95: runs.p95,
      p99: runs.p99,
      count: runs.count,
    };
    log(`${server.db} ${label}: ${fmt(r.rows)} rows, ${fmt(r.bytes)} bytes, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
    return r;
  } finally {
    pause(server);
  }
}

/** Batch `b` of plays: over the last day, 10 s each, one in ten not completed, naming the seeded files in turn. */
function playBatch(fileIds, b) {
  const now = Date.now();
  return Array.from({ length: INGEST_SIZE }, (_, i) => {
    const startedAt = now - DAY + (((b * INGEST_SIZE + i) * 37_003) % (DAY - 120_000));
    return { eventId: randomUUID(), startedAt, endedAt: startedAt + 10_000, completed: i % 10 !== 0, fileId: fileIds[i % fileIds.length] };
  });
}

async function measureIngest(server, tokenSeed) {
  const fileIds = server.info.seed.fileIds;
  const api = [];
  const direct = [];
  resume(server);
  try {
    for (let b = 0; b < INGEST_BATCHES + 2; b++) {
      const device = 1 + (b % INGEST_DEVICES);
      // Serialised before the clock starts, as a player holds its queued batch: the time is the server's and HTTP's.
      const events = Buffer.from(JSON.stringify(playBatch(fileIds, b)));
      const t0 = performance.now();
      const res = ok(
        await request(server, 'POST', '/api/display/proofOfPlay', {
          body: events,
          headers: { authorization: `Bearer ${tokenSeed}-${device}` },
        }),
        'POST /api/display/proofOfPlay',
        202,
      );
      const ms = performance.now() - t0;
      if (res.body.accepted !== INGEST_SIZE)
        throw new Error(`the API accepted ${res.body.accepted} of ${INGEST_SIZE}: ${res.text.slice(0, 500)}`);
      const base = ok(
        await request(server, 'POST', '/__bench/ingest-baseline', { body: { device, events: playBatch(fileIds, b) } }),
        'POST /__bench/ingest-baseline',
      );
      if (base.body.inserted !== INGEST_SIZE) throw new Error(`the baseline inserted ${base.body.inserted} of ${INGEST_SIZE}`);
      if (b >= 2) {
        api.push(ms);
        direct.push(base.body.ms);
      }
    }
  } finally {
    pause(server);
  }
  const rate = (times) => (INGEST_SIZE * times.length) / (times.reduce((a, x) => a + x, 0) / 1000);
  const r = {
    batches: api.length,
    apiRate: rate(api),
    directRate: rate(direct),
    apiP50: percentileOf(api, 50),
    directP50: percentileOf(direct, 50),
  };
  r.ratio = r.apiRate / r.directRate;
  log(
    `${server.db} ingestion: API ${fmt(Math.round(r.apiRate))} plays/s (p50 ${r.apiP50.toFixed(1)} ms a batch), direct ${fmt(Math.round(r.directRate))} plays/s (p50 ${r.directP50.toFixed(1)} ms), ${(r.ratio * 100).toFixed(0)} %`,
  );
  return r;
}

const percentileOf = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function runDatabase(db, databaseUrl) {
  const tokenSeed = secret(24);
  const server = await startBenchServer({
    name: `reports-${db}`,
    script: join(root, 'bench', 'reports-server.ts'),
    cwd: root,
    env: { ...baseEnv, BENCH_TOKEN_SEED: tokenSeed, BENCH_REPORTS_DEVICES: String(DEVICES), BENCH_REPORTS_DAYS: String(DAYS) },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-reports-',
    nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [],
    describe: (info) =>
      ` (seeded ${fmt(info.seed.rollupRows)} rollup rows, ${fmt(info.seed.plays)} plays, in ${info.seed.seconds.toFixed(1)} s)`,
  });
  pause(server);
  const { from, to } = window(Math.min(DAYS - 2, 89));
  const base = { customerId: String(server.customerId), from: String(from), to: String(to), timeZone: 'Asia/Kolkata' };
  const path = (p, extra) => `/api/v2/proof-of-display${p}?${new URLSearchParams({ ...base, ...extra })}`;
  try {
    const ingest = await measureIngest(server, tokenSeed);
    return {
      db,
      seed: server.info.seed,
      ingest,
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
    `- Data: one tenant, ${fmt(DEVICES)} devices and ${fmt(DEVICES)} content items, ${fmt(DAYS)} UTC days of \`play_rollup_day\` rows of the DEVICE and CONTENT dimensions (1–2 plays of 10 s in every quarter hour, running sums as the ingest stores them) with their \`play_rollup_day_total\` rows, names in \`play_subject\`.${results.map((r) => ` ${r.db}: ${fmt(r.seed.rollupRows)} rows counting ${fmt(r.seed.plays)} plays, seeded in ${r.seed.seconds.toFixed(1)} s.`).join('')}`,
    `- Requests: one client, ${fmt(RUNS)} sequential requests after 3 unmeasured, window: the last 89 Kolkata days up to now; time until the whole body arrived.`,
    '',
    `| Database | report | rows | bytes | p50 ms | p95 ms | p99 ms | goal p50 ≤ ${GOAL_P50} ms |`,
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of results) {
    for (const c of r.cases) {
      const met = c.p50 <= GOAL_P50;
      lines.push(
        `| ${r.db} | ${c.label} | ${fmt(c.rows)} | ${fmt(c.bytes)} | ${fmt(c.p50, 1)} | ${fmt(c.p95, 1)} | ${fmt(c.p99, 1)} | ${r.db === 'PostgreSQL' ? (met ? 'yes' : '**no**') : `(${met ? 'yes' : 'no'}; information)`} |`,
      );
    }
  }
  lines.push(
    '',
    `**Ingestion** (goal: the API at ≥ ${INGEST_GOAL * 100} % of the direct rate): ${fmt(INGEST_BATCHES)} batches of ${fmt(INGEST_SIZE)} plays (each naming one of ${fmt(results[0]?.seed.fileIds.length ?? 0)} seeded files, over the last day, as ${INGEST_DEVICES} devices) sent as JSON to \`POST /api/display/proofOfPlay\` one after another (time to the 202, seen by the client, HTTP included; each body serialised before its clock starts), alternating with the same rows inserted directly into \`play_event\` in the server process in one statement (no checks, no idempotency lock, no rollups; time in process, no HTTP), after 2 unmeasured batches of each.`,
    '',
    '| Database | API plays/s | API p50 ms a batch | direct plays/s | direct p50 ms a batch | API ÷ direct | goal |',
    '|---|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results.filter((x) => x.ingest)) {
    const i = r.ingest;
    const met = i.ratio >= INGEST_GOAL;
    lines.push(
      `| ${r.db} | ${fmt(Math.round(i.apiRate))} | ${fmt(i.apiP50, 1)} | ${fmt(Math.round(i.directRate))} | ${fmt(i.directP50, 1)} | ${(i.ratio * 100).toFixed(0)} % | ${r.db === 'PostgreSQL' ? (met ? 'yes' : '**no**') : `(${met ? 'yes' : 'no'}; information)`} |`,
    );
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
