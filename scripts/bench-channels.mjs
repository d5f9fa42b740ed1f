#!/usr/bin/env node
// `npm run bench:channels` (and the last part of `npm run bench`): channels and schedules at scale, each figure
// against a baseline measured in the same run, on PGlite and on PostgreSQL (local Debian cluster or
// BENCH_DATABASE_URL; skipped when absent). Written to the channels section of docs/benchmarks.md (between
// <!-- channels:start --> and <!-- channels:end -->; the rest of the file is left as it is).
//
// One tenant (bench/channels-server.ts) with 1 000 campaigns (channels and schedules), 10 000 devices in 500
// device folders, 2 000 content items and 2 000 files:
//   1. manifest: `GET /api/display/manifest` with the tokens of many different devices, one client in
//      sequence, p50 / p99, with the in-process time of its parts (the loader, the resolver, the closure);
//      baseline: the manifest of a device of a tenant with no campaign, in the same run; then under load, 50
//      devices at once (a connection each): the full manifest, and `If-None-Match` with each one's current ETag
//      (304 from the stored ETag), p50 and req/s;
//   2. list: `GET /api/v2/campaign?size=50&select=<assignment lists>,affectedScreenCount&sort=name,asc`, one
//      client, against its raw SQL + JSON in the server process (`/__bench/baseline`);
//   3. fan-out: every device connected over the device WebSocket (bench/devices-loadgen.mjs), one
//      `PUT /api/campaign/{id}` of a channel targeting the root folder (every screen): time from the request to
//      the last `manifestChanged` frame received.
//
// Options (environment): BENCH_CHANNELS_QUICK=1 (1 000 devices, 100 campaigns, 50 folders, short runs),
// BENCH_CHANNELS_DEVICES (10000), BENCH_CHANNELS_CAMPAIGNS (1000), BENCH_CHANNELS_FOLDERS (500),
// BENCH_CHANNELS_ITEMS (2000 content items and 2000 files), BENCH_MANIFEST_RUNS (500), BENCH_LIST_RUNS (200),
// BENCH_MANIFEST_CONNECTIONS (50 devices at once), BENCH_MANIFEST_LOAD_SECONDS (10; quick 6),
// BENCH_LOADGEN_WORKERS (2), BENCH_CONNECT_CONCURRENCY (32), BENCH_CONNECT_DEADLINE (s, 900),
// BENCH_FANOUT_DEADLINE (s, 300), BENCH_CHANNELS_ONLY (comma list of manifest,list,fanout),
// BENCH_CHANNELS_SEED_ONLY=1 (seed, read back, stop), BENCH_SKIP_PG=1, BENCH_SKIP_PGLITE=1,
// BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md), BENCH_CPU_PROF=1 (the server writes V8 CPU profiles into
// bench/.out/profiles/).
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  averageRounds,
  benchCall,
  benchServerIdentity,
  fmt,
  hasTaskset,
  indexSummary,
  installGuards,
  loadCase,
  loadgenStats,
  log,
  machine,
  num,
  ok,
  pause,
  percentile,
  preparePostgres,
  ratio,
  request,
  resume,
  runMain,
  saveResults,
  secret,
  setLogPrefix,
  sleep,
  startBenchServer,
  startLoadgen,
  stopChild,
  timedRuns,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-channels');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_CHANNELS_QUICK === '1';
const DEVICES = num('BENCH_CHANNELS_DEVICES', QUICK ? 1_000 : 10_000);
const CAMPAIGNS = num('BENCH_CHANNELS_CAMPAIGNS', QUICK ? 100 : 1_000);
const FOLDERS = num('BENCH_CHANNELS_FOLDERS', QUICK ? 50 : 500);
const ITEMS = num('BENCH_CHANNELS_ITEMS', 2_000);
const MANIFEST_RUNS = num('BENCH_MANIFEST_RUNS', QUICK ? 100 : 500);
const LIST_RUNS = num('BENCH_LIST_RUNS', QUICK ? 50 : 200);
const MANIFEST_CONNECTIONS = num('BENCH_MANIFEST_CONNECTIONS', 50);
// The warm-up also lets the requests the previous case left in flight finish.
const MANIFEST_LOAD = { warmup: QUICK ? 2 : 3, duration: num('BENCH_MANIFEST_LOAD_SECONDS', QUICK ? 6 : 10), rounds: QUICK ? 1 : 3 };
const WORKERS = num('BENCH_LOADGEN_WORKERS', 2);
const CONCURRENCY = num('BENCH_CONNECT_CONCURRENCY', 32);
const CONNECT_DEADLINE_S = num('BENCH_CONNECT_DEADLINE', QUICK ? 180 : 900);
const FANOUT_DEADLINE_S = num('BENCH_FANOUT_DEADLINE', QUICK ? 180 : 300);
const ONLY = new Set((process.env.BENCH_CHANNELS_ONLY ?? 'manifest,list,fanout').split(',').map((s) => s.trim()));
const SEED_ONLY = process.env.BENCH_CHANNELS_SEED_ONLY === '1';
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const PG_DATABASE = 'signage_bench_channels';
const MARKERS = { start: '<!-- channels:start -->', end: '<!-- channels:end -->' };
const GOALS = { manifestP50: 20, manifestP99: 100, listRatio: 2, fanoutMs: 5_000 };
const ASSIGNMENT_LISTS = [
  'contentAssignments',
  'contentGroupAssignments',
  'fileAssignments',
  'fileFolderAssignments',
  'messageGroupAssignments',
  'deviceAssignments',
  'deviceGroupAssignments',
];
const LIST_SELECT = `name,type,level,${ASSIGNMENT_LISTS.join(',')},affectedScreenCount`;
// The tables the list's statements read (the baseline runs those and only those).
const LIST_TABLES = [
  'campaign',
  'campaign_content_assignment',
  'campaign_content_group_assignment',
  'campaign_file_assignment',
  'campaign_file_folder_assignment',
  'campaign_message_group_assignment',
  'campaign_device_assignment',
  'campaign_device_group_assignment',
];

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(QUICK ? 20 : 90);
const stats = (times) => ({ p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), count: times.length });
const deviceToken = (server, i) => `${server.tokenSeed}-${i}`;

/** `GET path` with a device's bearer token instead of the administrator's. */
const asDevice = (server, token, path) => request({ ...server, token }, 'GET', path, { sink: true });

// ---------------------------------------------------------------- seeding and checks

async function startServer(db, databaseUrl) {
  const tokenSeed = secret(24);
  const server = await startBenchServer({
    name: `channels-${db}`,
    script: join(root, 'bench', 'channels-server.ts'),
    cwd: root,
    env: {
      ...baseEnv,
      BENCH_TOKEN_SEED: tokenSeed,
      BENCH_CHANNELS_DEVICES: String(DEVICES),
      BENCH_CHANNELS_FOLDERS: String(FOLDERS),
      BENCH_SEED_FILES: String(ITEMS),
      BENCH_SEED_CONTENT: String(ITEMS),
    },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-channels-',
    nodeArgs: process.env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${join(root, 'bench', '.out', 'profiles')}`] : [],
    describe: (info) =>
      ` (seeded ${fmt(info.seed.devices)} devices in ${fmt(info.seed.deviceFolders)} folders, ${fmt(info.seed.files)} files, ${fmt(info.seed.contents)} content items in ${info.seed.seconds.toFixed(1)} s)`,
  });
  server.tokenSeed = tokenSeed;
  const seed = await benchCall(server, '/__bench/campaigns', { authorization: `Bearer ${server.token}`, count: CAMPAIGNS });
  log(`${db}: ${fmt(seed.campaigns)} campaigns seeded in ${seed.seconds.toFixed(1)} s: ${JSON.stringify(seed.rows)}`);
  resume(server);
  try {
    // Read back through the API: one campaign of each kind, and a seeded device's manifest (validated in process).
    for (const id of seed.sampleIds) {
      const path = `/api/v2/campaign/${id}?customerId=${server.customerId}&select=id,name,level,type,deviceSelectionMode,${ASSIGNMENT_LISTS.join(',')},affectedScreenCount`;
      const res = ok(await request(server, 'GET', path), `GET ${path}`);
      if (res.body.id !== id) throw new Error(`GET ${path} answered ${res.text.slice(0, 300)}`);
    }
    const check = await benchCall(server, '/__bench/resolve', { devices: [1], validate: true });
    log(`${db}: ${seed.sampleIds.length} seeded campaigns read back; device 1's manifest validates (${JSON.stringify(check.manifest)})`);
    seed.manifestCheck = check.manifest;
  } finally {
    pause(server);
  }
  return { server, seed };
}

// ---------------------------------------------------------------- 1. manifest

/** Devices spread over the tenant (a stride prime to the folder count, so every folder and zone is met). */
const spread = (count) => Array.from({ length: count }, (_, k) => 1 + ((k * 7919) % DEVICES));

async function manifestBenchmark(server) {
  const path = '/api/display/manifest';
  const emptyToken = `${server.tokenSeed}-empty-1`;
  const devices = spread(MANIFEST_RUNS);
  resume(server);
  let api;
  let empty;
  try {
    // Warm-up on other devices (first-use work), then API and baseline alternate in blocks of 10 devices.
    for (const i of spread(20).map((i) => 1 + ((i + 13) % DEVICES)))
      ok(await asDevice(server, deviceToken(server, i), path), `GET ${path} (device ${i})`);
    for (let k = 0; k < 20; k++) ok(await asDevice(server, emptyToken, path), `GET ${path} (empty tenant)`);
    api = [];
    empty = [];
    for (let from = 0; from < devices.length; from += 10) {
      const block = devices.slice(from, from + 10);
      api.push(
        ...(
          await timedRuns(block.length, 0, async (k) =>
            ok(await asDevice(server, deviceToken(server, block[k]), path), `GET ${path} (device ${block[k]})`),
          )
        ).samples,
      );
      empty.push(
        ...(await timedRuns(block.length, 0, async () => ok(await asDevice(server, emptyToken, path), `GET ${path} (empty tenant)`)))
          .samples,
      );
    }
  } finally {
    pause(server);
  }
  const parts = await benchCall(server, '/__bench/resolve', { devices: devices.slice(0, Math.min(devices.length, QUICK ? 100 : 200)) });
  const load = await manifestUnderLoad(server);
  const pick = (k) => parts.samples.map((s) => s[k]);
  const r = {
    api: stats(api),
    empty: stats(empty),
    parts: {
      row: stats(pick('row')),
      loader: stats(pick('loader')),
      resolver: stats(pick('resolver')),
      closure: stats(pick('closure')),
      total: stats(pick('total')),
    },
    campaigns: stats(pick('campaigns')),
    channels: stats(pick('channels')),
    segments: stats(pick('segments')),
    devices: devices.length,
    load,
  };
  log(
    `${server.db} manifest: p50 ${r.api.p50.toFixed(2)} ms, p99 ${r.api.p99.toFixed(2)} ms (empty tenant p50 ${r.empty.p50.toFixed(2)} ms, ${ratio(r.api.p50 / r.empty.p50)}); in process p50: loader ${r.parts.loader.p50.toFixed(2)} ms, resolver ${r.parts.resolver.p50.toFixed(2)} ms, closure ${r.parts.closure.p50.toFixed(2)} ms; ${r.campaigns.p50} campaigns loaded a device (p50)`,
  );
  log(
    `${server.db} manifest, ${MANIFEST_CONNECTIONS} devices at once: full ${Math.round(load.full.rps)} req/s, p50 ${load.full.p50} ms; If-None-Match (304) ${Math.round(load.notModified.rps)} req/s, p50 ${load.notModified.p50} ms`,
  );
  return r;
}

/**
 * MANIFEST_CONNECTIONS devices asking at once, a keep-alive connection each: the full manifest, and the same
 * devices with `If-None-Match` naming their current ETag (each read whole first, so the server holds it), in
 * interleaved rounds. Every answer must be 200, respectively 304.
 */
async function manifestUnderLoad(server) {
  const path = '/api/display/manifest';
  const ids = spread(MANIFEST_CONNECTIONS).map((i) => 1 + ((i + 101) % DEVICES));
  const tokens = ids.map((i) => deviceToken(server, i));
  resume(server);
  let etags;
  try {
    etags = [];
    for (const token of tokens) etags.push(ok(await request({ ...server, token }, 'GET', path), `GET ${path}`).body.etag);
  } finally {
    pause(server);
  }
  const cases = {
    full: (k) => ({ authorization: `Bearer ${tokens[k]}` }),
    notModified: (k) => ({ authorization: `Bearer ${tokens[k]}`, 'if-none-match': `"${etags[k]}"` }),
  };
  const expected = { full: '200', notModified: '304' };
  const rounds = { full: [], notModified: [] };
  for (let round = 1; round <= MANIFEST_LOAD.rounds; round++) {
    for (const [name, clientHeaders] of Object.entries(cases)) {
      const s = await loadCase(server, path, {
        warmup: MANIFEST_LOAD.warmup,
        duration: MANIFEST_LOAD.duration,
        connections: MANIFEST_CONNECTIONS,
        clientHeaders,
      });
      const other = Object.entries(s.statuses).filter(([code]) => code !== expected[name]);
      const answered = Object.values(s.statuses).reduce((sum, n) => sum + n, 0);
      if (other.length > 0 || s.errors > 0 || answered === 0) {
        throw new Error(
          `manifest under load (${name}): answers ${JSON.stringify(s.statuses)}, ${s.errors} errors; expected only ${expected[name]} (none within ${MANIFEST_LOAD.duration} s: a machine too busy to measure)`,
        );
      }
      rounds[name].push(s);
      log(
        `round ${round}/${MANIFEST_LOAD.rounds} ${server.db} manifest ${name}: ${Math.round(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms`,
      );
      // autocannon stops with requests in flight: let the server finish them (readiness reads the database,
      // behind them on PGlite's one connection) before the next case starts its clock.
      resume(server);
      try {
        ok(await request(server, 'GET', '/readyz'), 'GET /readyz');
      } finally {
        pause(server);
      }
    }
  }
  return { full: averageRounds(rounds.full), notModified: averageRounds(rounds.notModified) };
}

// ---------------------------------------------------------------- 2. list

async function listBenchmark(server) {
  const path = `/api/v2/campaign?${new URLSearchParams({ customerId: String(server.customerId), size: '50', select: LIST_SELECT, sort: 'name,asc' })}`;
  resume(server);
  let first;
  let http;
  try {
    first = ok(await request(server, 'GET', path), `GET ${path}`);
    http = await timedRuns(LIST_RUNS, 20, async () => ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`));
  } finally {
    pause(server);
  }
  const base = await benchCall(server, '/__bench/baseline', {
    path,
    authorization: `Bearer ${server.token}`,
    runs: LIST_RUNS,
    table: LIST_TABLES,
  });
  const r = {
    path,
    http: stats(http.samples),
    baseline: base,
    page: first.body.content.length,
    total: first.body.totalElements,
    bytes: first.bytes,
  };
  log(
    `${server.db} list: one client p50 ${r.http.p50.toFixed(2)} ms; raw SQL + JSON p50 ${base.p50.total.toFixed(2)} ms (${base.statements.length} statements; ${ratio(r.http.p50 / base.p50.total)})`,
  );
  return r;
}

// ---------------------------------------------------------------- 3. fan-out

async function fanoutBenchmark(server, rootChannelId, seed) {
  const workers = startLoadgen(root, WORKERS);
  try {
    const per = Math.ceil(DEVICES / WORKERS);
    resume(server);
    const t0 = performance.now();
    const connected = await Promise.all(
      workers.map((w, k) =>
        w.call(
          {
            type: 'connect',
            base: server.base,
            tokenSeed: server.tokenSeed,
            from: k * per + 1,
            to: Math.min(DEVICES, (k + 1) * per),
            localAddress: `127.0.0.${k + 2}`,
            concurrency: CONCURRENCY,
            heartbeatMs: 60_000,
            deadlineMs: CONNECT_DEADLINE_S * 1000,
          },
          'connected',
        ),
      ),
    );
    const connectSeconds = (performance.now() - t0) / 1000;
    const count = connected.reduce((s, c) => s + c.count, 0);
    for (const c of connected) for (const e of c.errors ?? []) log(`connect: ${e}`);
    if (count === 0) throw new Error(`no device connected (${connected.map((c) => c.error ?? `${c.failed} failed`).join(', ')})`);
    log(`${server.db}: ${fmt(count)} of ${fmt(DEVICES)} devices connected in ${connectSeconds.toFixed(1)} s`);
    await sleep(3_000);
    // Twice: a content item added to the channel, then removed again (each changes every screen's manifest).
    const extra = seed.extraContentId;
    const edits = [
      { label: 'add a content item', body: { contentAssignment: { assignments: [{ contentId: extra, weight: 99 }] } } },
      { label: 'remove it again', body: { contentAssignment: { removeIds: [extra] } } },
    ];
    const runs = [];
    for (const edit of edits) {
      // The sockets open now are the devices to be told (the server may have closed some meanwhile).
      const target = (await loadgenStats(workers, true)).open;
      const start = Date.now();
      const res = ok(
        await request(server, 'PUT', `/api/campaign/${rootChannelId}`, { body: edit.body }),
        `PUT /api/campaign/${rootChannelId}`,
      );
      const answeredMs = Date.now() - start;
      let seen;
      const deadline = Date.now() + FANOUT_DEADLINE_S * 1000;
      for (;;) {
        seen = await loadgenStats(workers);
        if (seen.manifestDevices >= target || Date.now() > deadline) break;
        await sleep(seen.manifestDevices > target * 0.9 ? 20 : 200);
      }
      const run = {
        label: edit.label,
        target,
        answeredMs,
        told: seen.manifestDevices,
        frames: seen.manifestChanged,
        firstMs: seen.firstManifestAt === null ? null : seen.firstManifestAt - start,
        lastMs: seen.lastManifestAt === null ? null : seen.lastManifestAt - start,
        complete: seen.manifestDevices >= target,
        waitedMs: Date.now() - start,
        contentAssignments: res.body.contentAssignments?.length,
      };
      runs.push(run);
      log(
        `${server.db} fan-out (${edit.label}): PUT answered in ${answeredMs} ms; ${fmt(run.told)} of ${fmt(target)} devices told, first at ${fmt(run.firstMs)} ms, last at ${fmt(run.lastMs)} ms${run.complete ? '' : ` — INCOMPLETE after ${FANOUT_DEADLINE_S} s`}`,
      );
      // A second edit only tells something when the first one reached every device in time (quick mode: one).
      if (!run.complete || QUICK) break;
      await sleep(2_000);
    }
    const health = await loadgenStats(workers);
    return { connected: count, connectSeconds, runs, closes: health.closes, errorFrames: health.errorFrames, open: health.open };
  } finally {
    pause(server);
    await Promise.all(workers.map((w) => stopChild(w)));
  }
}

async function runDatabase(db, databaseUrl) {
  const { server, seed } = await startServer(db, databaseUrl);
  const result = { db, seed: { ...server.info.seed, campaigns: seed } };
  try {
    if (SEED_ONLY) return result;
    if (ONLY.has('manifest')) result.manifest = await manifestBenchmark(server);
    if (ONLY.has('list')) result.list = await listBenchmark(server);
    if (ONLY.has('fanout')) result.fanout = await fanoutBenchmark(server, seed.rootChannelId, seed);
  } finally {
    resume(server);
    await stopChild(server.child);
  }
  return result;
}

// ---------------------------------------------------------------- report

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const ms = (x, d = 2) => fmt(x, d);
  const goal = (r, okay) => (r.db === 'PostgreSQL' ? (okay ? 'yes' : '**no**') : `(${okay ? 'yes' : 'no'}; information)`);
  const first = results[0];
  push(
    MARKERS.start,
    '## Channels and schedules (`npm run bench:channels`)',
    '',
    '_Written by scripts/bench-channels.mjs into this marked section only. Each figure is compared with a baseline measured in the same run on the same machine._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)${QUICK ? ' — **quick mode** (BENCH_CHANNELS_QUICK=1: smaller tenant, shorter runs)' : ''}`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (other work on the machine shows here)`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/channels-server.ts\` — the production \`createService\` (the Hono app and its device WebSocket with the \`device_push\` LISTEN/NOTIFY feed) on \`@hono/node-server\`, as the other benchmark servers; \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, no job queue. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}, this script and the load generators to core ${LOADGEN_CPU} (\`taskset\`); PostgreSQL is not pinned.` : 'No CPU pinning (taskset unavailable).'}`,
    `- Data, seeded in the server process with \`generate_series\` SQL: one tenant with ${fmt(DEVICES)} devices round-robin over ${fmt(FOLDERS)} device folders (10 under the root, 90 under those, the rest under the 90), 0–2 tags of 16, time zones of five kinds (UTC, Berlin, New York, Tokyo, Sydney); ${fmt(ITEMS)} content items in 50 content folders and ${fmt(ITEMS)} files in 100 file folders (the content and media benchmarks' seeding); ${fmt(CAMPAIGNS)} campaigns cloned in SQL from ten templates created through \`POST /api/campaign\` (so their columns are the API's own; the templates are deleted again through the API): one in ten a TOP schedule of 1–5 content items with a date range, three in ten CONTENT channels of 1–5 items, two CONTENT_DYNAMIC over a content folder with a content tag condition, two ASSETS_STATIC of 1–8 files, two ASSETS_DYNAMIC over a file folder; a quarter with time rules (08:00–20:00, Monday–Friday, a date range with an excluded day). Targeting: one in fifty (and the edited channel) the root folder, one in ten a STATIC list of 20 screens, the rest one to three device folders (a tenth a top folder), a sixth of those with a device tag condition. Each run reads one campaign of each kind back through \`GET /api/v2/campaign/{id}\` and validates a device's \`GET /api/display/manifest\` against the manifest schema.${results
      .map(
        (r) =>
          ` ${r.db}: seeding ${r.seed.seconds.toFixed(1)} s + campaigns ${r.seed.campaigns.seconds.toFixed(1)} s (${Object.entries(
            r.seed.campaigns.rows,
          )
            .map(([t, n]) => `${fmt(n)} ${t}`)
            .join(', ')}).`,
      )
      .join('')}`,
    '',
    '**Goals** (judged on PostgreSQL; PGlite for information)',
    '',
    '| Database | manifest p50 ≤ 20 ms | manifest p99 ≤ 100 ms | list ≤ 2× raw SQL | edit → every device told ≤ 5 s |',
    '|---|---|---|---|---|',
  );
  for (const r of results) {
    const f = r.fanout?.runs?.[0];
    push(
      `| ${r.db} | ${r.manifest ? `${goal(r, r.manifest.api.p50 <= GOALS.manifestP50)} — ${ms(r.manifest.api.p50)} ms` : '—'} | ${r.manifest ? `${goal(r, r.manifest.api.p99 <= GOALS.manifestP99)} — ${ms(r.manifest.api.p99)} ms` : '—'} | ${r.list ? `${goal(r, r.list.http.p50 / r.list.baseline.p50.total <= GOALS.listRatio)} — ${ratio(r.list.http.p50 / r.list.baseline.p50.total)}` : '—'} | ${f ? `${goal(r, f.complete && f.lastMs <= GOALS.fanoutMs)} — ${f.complete ? `${fmt(f.lastMs)} ms` : `${fmt(f.told)} of ${fmt(f.target)} told after ${fmt(f.waitedMs / 1000)} s`}` : '—'} |`,
    );
  }
  push(
    '',
    '### 1. Manifest resolution for one device',
    '',
    `\`GET /api/display/manifest\` with the access tokens of ${fmt(first?.manifest?.devices ?? MANIFEST_RUNS)} different devices (spread over every folder and zone), one client on a keep-alive connection, after 20 unmeasured requests of other devices. Baseline: the same request by the one device of a second tenant with no campaign (the fixed cost: token, device row, an empty resolution, the ETag), alternating with the measured requests in blocks of ten. Breakdown: the same resolution in process for the first devices, timed in parts: the device's row (\`findPlaybackDevice\`), the loader (\`loadPlayback\`: the device's quick-filter matches beside the campaigns that can target it with their items), the pure resolver (\`resolveSegments\` of the targeted campaigns over the manifest window, 24–48 h), the content graph of what the targeted campaigns may play (documents for the segments' closure) and that closure.`,
    '',
    '| Database | p50 ms | p95 ms | p99 ms | empty tenant p50 ms | ratio p50 | in process p50: device row | loader | resolver | closure + files | campaigns loaded a device (p50 / p99) | channels a segment (p50) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results.filter((x) => x.manifest)) {
    const x = r.manifest;
    push(
      `| ${r.db} | ${ms(x.api.p50)} | ${ms(x.api.p95)} | ${ms(x.api.p99)} | ${ms(x.empty.p50)} | ${ratio(x.api.p50 / x.empty.p50)} | ${ms(x.parts.row.p50)} | ${ms(x.parts.loader.p50)} (p99 ${ms(x.parts.loader.p99)}) | ${ms(x.parts.resolver.p50)} (p99 ${ms(x.parts.resolver.p99)}) | ${ms(x.parts.closure.p50)} | ${fmt(x.campaigns.p50)} / ${fmt(x.campaigns.p99)} | ${fmt(x.channels.p50)} |`,
    );
  }
  const loaded = results.filter((x) => x.manifest?.load);
  if (loaded.length > 0) {
    push(
      '',
      `Under load: ${MANIFEST_CONNECTIONS} devices at once, a keep-alive connection each (autocannon, ${MANIFEST_LOAD.warmup} s warm-up + ${MANIFEST_LOAD.duration} s measured, ${MANIFEST_LOAD.rounds} interleaved round${MANIFEST_LOAD.rounds === 1 ? '' : 's'}; mean, lowest–highest req/s in parentheses): the full manifest, and \`If-None-Match\` naming each device's current ETag, answered 304 from the ETag the server keeps per device (no resolution; every answer checked to be 200, respectively 304).`,
      '',
      '| Database | full: req/s | full: p50 ms | full: p99 ms | 304: req/s | 304: p50 ms | 304: p99 ms | 304 / full req/s |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    const range = (x) => `${fmt(x.rps)} (${fmt(x.rpsMin)}–${fmt(x.rpsMax)})`;
    for (const r of loaded) {
      const { full, notModified } = r.manifest.load;
      push(
        `| ${r.db} | ${range(full)} | ${ms(full.p50)} | ${ms(full.p99)} | ${range(notModified)} | ${ms(notModified.p50)} | ${ms(notModified.p99)} | ${ratio(notModified.rps / full.rps)} |`,
      );
    }
  }
  push(
    '',
    '### 2. Campaign list with assignment lists',
    '',
    `\`GET /api/v2/campaign?size=50&select=${LIST_SELECT}&sort=name,asc\`, one client, ${fmt(LIST_RUNS)} sequential requests after 20 unmeasured. Baseline: the statements the API sent for it on the campaign tables (captured through drizzle's logger: the page, one per assignment list, the targeting of \`affectedScreenCount\`), run directly on the driver in the server process one after the other (the API may run some at once on PostgreSQL's pool, so it can beat its baseline there), ${fmt(LIST_RUNS)} times, + \`JSON.stringify\` of the rows.`,
    '',
    '| Database | page items (of) | bytes | p50 ms | p99 ms | in-process app p50 ms | raw SQL p50 ms | + JSON p50 ms | statements | API p50 / baseline | goal ≤ 2× |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results.filter((x) => x.list)) {
    const x = r.list;
    const b = x.baseline;
    push(
      `| ${r.db} | ${x.page} (${fmt(x.total)}) | ${fmt(x.bytes)} | ${ms(x.http.p50)} | ${ms(x.http.p99)} | ${ms(b.appInProcess.p50)} | ${ms(b.p50.query)} | ${ms(b.p50.total)} | ${b.statements.length} | ${ratio(x.http.p50 / b.p50.total)} | ${goal(r, x.http.p50 / b.p50.total <= GOALS.listRatio)} |`,
    );
  }
  push('', 'Index use (EXPLAIN ANALYZE of the captured statements):', '');
  for (const r of results.filter((x) => x.list))
    push(`- ${r.db}: ${r.list.baseline.plans.map((p) => indexSummary(p, 'campaign')).join('; ')}`);
  push(
    '',
    'Where one in-process request spends its time (every statement the driver ran, slowest first; one traced run, so only indicative):',
    '',
  );
  const short = (text) => `\`${text.replace(/"/g, '').replace(/`/g, "'").replace(/\|/g, '\\|').slice(0, 90)}…\``;
  for (const r of results.filter((x) => x.list?.baseline.trace)) {
    const t = r.list.baseline.trace;
    const slowest = [...t.statements].sort((a, b) => b.ms - a.ms).slice(0, 4);
    push(
      `- ${r.db}: ${ms(t.total)} ms in all, ${t.statements.length} statements taking ${ms(t.inDriver)} ms in the driver; slowest: ${slowest.map((x) => `${short(x.sql)} ${ms(x.ms)} ms`).join('; ')}`,
    );
  }
  push(
    '',
    '### 3. Editing a channel that targets every screen',
    '',
    `Every device connected over the device WebSocket (\`bench/devices-loadgen.mjs\`, ${WORKERS} processes, ${CONCURRENCY} connecting at a time each, heartbeat 60 s); then \`PUT /api/campaign/{id}\` of a CONTENT channel assigned to the root device folder: a content item added (then, outside quick mode and when every device heard of it within ${FANOUT_DEADLINE_S} s, removed again). The time is from sending the request to the arrival of the last \`manifestChanged\` frame at a device (each device counted once; same clock). Baseline: the \`PUT\`'s own answer time.`,
    '',
    '| Database | connected (connect time s) | edit | PUT answered ms | devices told | first told ms | last told ms | goal ≤ 5 s |',
    '|---|---:|---|---:|---:|---:|---:|---|',
  );
  for (const r of results.filter((x) => x.fanout)) {
    for (const f of r.fanout.runs) {
      push(
        `| ${r.db} | ${fmt(r.fanout.connected)} (${r.fanout.connectSeconds.toFixed(1)}) | ${f.label} | ${fmt(f.answeredMs)} | ${fmt(f.told)} of ${fmt(f.target)}${f.complete ? '' : ` (deadline ${FANOUT_DEADLINE_S} s)`} | ${fmt(f.firstMs)} | ${fmt(f.lastMs)} | ${goal(r, f.complete && f.lastMs <= GOALS.fanoutMs)} |`,
      );
    }
  }
  const readings = results.filter((x) => x.fanout?.runs[0]?.told);
  if (readings.length) push('');
  for (const r of readings) {
    const f = r.fanout.runs[0];
    const per = (f.lastMs - f.firstMs) / f.told;
    push(
      `- ${r.db}: the devices were told over ${fmt(f.lastMs - f.firstMs)} ms after the first, ${ms(per)} ms a device; the manifest in process took ${r.manifest ? `${ms(r.manifest.parts.total.p50)} ms (p50)` : '—'}. The notices of the change join one queue that \`DeviceSessions.announceManifests\` works off 10 000 devices at a time: per tenant and batch the devices' facts, the campaigns that can reach them and the content graph of what those may play are read once, then each device costs only its targeting and, per sharing key, one hash (\`manifestEtags\`; no resolution). Greeting a connection (the \`hello\` frame carries the ETag) costs the same, in batches of arrivals: ${fmt(r.fanout.connected)} in ${r.fanout.connectSeconds.toFixed(1)} s.${r.fanout.closes ? ` ${fmt(r.fanout.closes)} sockets were closed by the server meanwhile (missed pings while it was busy).` : ''}`,
    );
  }
  push('', MARKERS.end);
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  log(
    `${fmt(DEVICES)} devices in ${fmt(FOLDERS)} folders, ${fmt(CAMPAIGNS)} campaigns${QUICK ? ' (quick mode)' : ''}${SEED_ONLY ? ', seeding only' : ''}`,
  );
  const pgInfo = await preparePostgres({ database: PG_DATABASE });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  const results = [];
  if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url));
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await runDatabase('PGlite'));
  const finishedAt = new Date();
  saveResults(root, 'channels', { startedAt, finishedAt, pgInfo, results });
  if (SEED_ONLY) return log('seeding only: nothing written to the report');
  writeSection(OUT, MARKERS, report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0] }));
  log(`written to ${OUT}`);
}

void runMain(main, watchdog);
