#!/usr/bin/env node
// `npm run bench:datasources` (and the last part of `npm run bench`): datasources (issue 30) on PostgreSQL (local
// Debian cluster or BENCH_DATABASE_URL; the goals are judged there) and PGlite (recorded). Written to the datasources
// section of docs/benchmarks.md (between <!-- datasources:start --> and <!-- datasources:end -->; the rest of the file
// is left as it is).
//
// The server (bench/datasources-server.ts) runs the production service with its job queue, as deployed, so the
// refresh tick (`datasources.refresh-due`, every 5 s, 16 refreshes at once per instance) is the product's.
//   1. Refresh scheduling: 1 000 external JSON datasources, `refreshFrequency` 60, each fetching its own path of a
//      feed server in this process (127.0.0.1; the server has ALLOW_PRIVATE_NETWORK_FETCH=true), which logs each
//      request's arrival. Activated with `next_refresh_at` spread over the first minute; measured over N minutes:
//      lateness of every refresh (arrival − due), refreshes made against expected, refreshes within their period,
//      server CPU (utime + stime of /proc/<pid>/stat) against the same server idle with the datasources deactivated.
//      Then (diagnostic, not the product's schedule) the same with a second refresher of the product ticked every
//      second by the bench server: what refreshing costs when the schedule is not the limit.
//   2. Device read: `GET /api/display/datasource/{id}` with a device token, sequential keep-alive requests, a ~10 KB
//      document answered 200 and 304 (If-None-Match), against `GET /api/display/status` with the same token.
//   3. Fan-out: one internal datasource on a slide shown by every seeded device, all connected over the device
//      WebSocket (bench/datasources-loadgen.mjs in a process of its own); `POST /api/display/datasource/{id}/set` as
//      the administrator; time from the request to the last `datasourceChanged` frame received, against the same
//      change of a datasource only device 1 shows. Then the same rounds with every device reading the document again
//      on its frame, as a player does.
//
// Options (environment): BENCH_DATASOURCES (1000 datasources), BENCH_DATASOURCES_DEVICES (1000),
// BENCH_DATASOURCES_QUICK=1 (1-minute windows, fewer rounds), BENCH_REFRESH_MINUTES (3), BENCH_EXTRA_MINUTES (2; 0
// skips the diagnostic), BENCH_IDLE_SECONDS (60), BENCH_READ_RUNS (1000), BENCH_FANOUT_ROUNDS (5),
// BENCH_SKIP_PG=1, BENCH_SKIP_PGLITE=1, BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md), BENCH_DATASOURCES_PHASES
// (refresh,read,fanout: a subset while developing; nothing is written to BENCH_OUT then),
// BENCH_NODE_ARGS (Node flags for the bench server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: a whole-process
// profile), BENCH_DATASOURCES_PROFILE (1 by default, 0 in quick mode: one more window, 1 min at the full rate like the
// diagnostic one, with a V8 CPU profile of the server taken through node:inspector; its top frames go into the
// record; the measured windows are never profiled).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { summariseProfile } from '../bench/datasources-profile.mjs';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  benchServerIdentity,
  fmt,
  hasTaskset,
  installGuards,
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
  secret,
  setLogPrefix,
  sleep,
  spawnNode,
  startBenchServer,
  stopChild,
  timedRuns,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-datasources');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_DATASOURCES_QUICK === '1';
const FEEDS = num('BENCH_DATASOURCES', 1_000);
const DEVICES = num('BENCH_DATASOURCES_DEVICES', 1_000);
const REFRESH_MIN = num('BENCH_REFRESH_MINUTES', QUICK ? 1 : 3);
const EXTRA_MIN = process.env.BENCH_EXTRA_MINUTES === '0' ? 0 : num('BENCH_EXTRA_MINUTES', QUICK ? 1 : 2);
const IDLE_S = num('BENCH_IDLE_SECONDS', QUICK ? 20 : 60);
const READ_RUNS = num('BENCH_READ_RUNS', QUICK ? 200 : 1_000);
const FANOUT_ROUNDS = num('BENCH_FANOUT_ROUNDS', QUICK ? 3 : 5);
const READ_ROUNDS = QUICK ? 2 : 3;
const PROFILE = (process.env.BENCH_DATASOURCES_PROFILE ?? (QUICK ? '0' : '1')) === '1';
const PROFILE_MIN = 1;
/** Which parts run (development of the script; the record needs all three). */
const PHASES = new Set((process.env.BENCH_DATASOURCES_PHASES ?? 'refresh,read,fanout').split(','));
const PERIOD_MS = 60_000;
const SPREAD_MS = 60_000;
const EXTRA_TICK_MS = 1_000;
const HEARTBEAT_MS = 60_000;
const CONNECT_CONCURRENCY = 32;
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const PG_DATABASE = 'signage_bench_datasources';
const MARKERS = { start: '<!-- datasources:start -->', end: '<!-- datasources:end -->' };
const GOALS = { lateMs: 10_000, cpu: 0.3, fanoutMs: 5_000, readMs: 5 };
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const PROFILE_DIR = join(root, 'bench', '.out', 'profiles');

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(QUICK ? 25 : 60);

// ---------------------------------------------------------------- CPU of a process and of PostgreSQL's backends

/** utime + stime of a process in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** utime + stime of the benchmark database's PostgreSQL backends (their command line names the database), by pid. */
function postgresTicks() {
  const ticks = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(PG_DATABASE)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!/^\d+ \(postgres/.test(stat)) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(entry, (Number(fields[11]) + Number(fields[12])) / CLK_TCK);
    } catch {
      // gone meanwhile
    }
  }
  return ticks;
}

/** Time the process was runnable but waiting for a core (`/proc/<pid>/schedstat`), in seconds: other work on the machine. */
const waitSeconds = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;

/** Starts a CPU window on the server (and PostgreSQL's backends); `end()` answers the shares of one core. */
function cpuWindow(server) {
  const pg = server.db === 'PostgreSQL';
  const t0 = performance.now();
  const s0 = cpuSeconds(server.pid);
  const p0 = pg ? postgresTicks() : undefined;
  const w0 = waitSeconds(server.pid);
  return {
    end() {
      const wall = (performance.now() - t0) / 1000;
      let postgres;
      if (pg) {
        postgres = 0;
        for (const [pid, t] of postgresTicks()) postgres += t - (p0.get(pid) ?? 0);
      }
      return {
        server: (cpuSeconds(server.pid) - s0) / wall,
        postgres: pg ? postgres / wall : undefined,
        waited: (waitSeconds(server.pid) - w0) / wall,
        seconds: wall,
        load: os.loadavg()[0],
      };
    },
  };
}

// ---------------------------------------------------------------- the feed server

/**
 * The remote of every seeded datasource: `GET /feed/<i>` answers a ~1 KB JSON object that differs from the previous
 * answer (a counter), without validators, so every refresh stores its document. Each arrival is logged per feed.
 */
function startFeedServer() {
  const arrivals = new Map();
  let served = 0;
  const filler = Array.from({ length: 12 }, (_, k) => ({ name: `item ${k}`, price: 1.5 + k, note: 'x'.repeat(40) }));
  const server = http.createServer((req, res) => {
    const at = Date.now();
    const m = /^\/feed\/(\d+)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    const i = Number(m[1]);
    const list = arrivals.get(i) ?? [];
    list.push(at);
    arrivals.set(i, list);
    served++;
    const body = JSON.stringify({ feed: i, n: list.length, at: new Date(at).toISOString(), items: filler });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        base: `http://127.0.0.1:${server.address().port}`,
        arrivals,
        served: () => served,
        bytes: Buffer.byteLength(JSON.stringify({ feed: 1000, n: 1, at: new Date().toISOString(), items: filler })),
        close: () =>
          new Promise((r) => {
            server.close(r);
            server.closeAllConnections();
          }),
      });
    });
  });
}

// ---------------------------------------------------------------- 1. refresh scheduling

/**
 * Every refresh's lateness from the feed server's log. Due times: feed i's first refresh is due at its seeded
 * `next_refresh_at` (t0 + (i − 1) · spread / N); after a refresh the product schedules the next one 60 s after that
 * refresh finished storing, which is after its request arrived here, so the next is taken as due 60 s after the
 * previous arrival: a lower bound of the true due time, so lateness is overstated by the product's own fetch-and-
 * store time (measured separately: arrival → `last_refreshed_at`). A refresh due before the window's end that has not
 * arrived by then counts as late by (end − due), at least. An arrival less than 60 s after the previous one is early:
 * twice within its period.
 */
function analyseRefreshes({ arrivals, t0, spreadMs, feeds, end }) {
  const late = [];
  const pendingLate = [];
  let made = 0;
  let expected = 0;
  let early = 0;
  let shortest = Infinity;
  const perTick = new Map();
  for (let i = 1; i <= feeds; i++) {
    const first = t0 + ((i - 1) * spreadMs) / feeds;
    expected += first <= end ? Math.floor((end - first) / PERIOD_MS) + 1 : 0;
    const list = (arrivals.get(i) ?? []).filter((a) => a >= t0 - 1_000 && a <= end);
    let due = first;
    let previous;
    for (const a of list) {
      made++;
      late.push(a - due);
      if (previous !== undefined) {
        shortest = Math.min(shortest, a - previous);
        if (a - previous < PERIOD_MS) early++;
      }
      // The cron tick is on the 5 s of the clock; a refresh's request leaves within the tick's run.
      const tick = Math.floor(a / 5_000) * 5_000;
      perTick.set(tick, (perTick.get(tick) ?? 0) + 1);
      previous = a;
      due = a + PERIOD_MS;
    }
    if (due < end) pendingLate.push(end - due);
  }
  const all = [...late, ...pendingLate];
  const ticks = [...perTick.values()];
  return {
    expected,
    made,
    early,
    shortestIntervalMs: Number.isFinite(shortest) ? shortest : undefined,
    pending: pendingLate.length,
    lateP50: percentile(late, 50),
    lateP99: percentile(late, 99),
    lateMax: late.length ? Math.max(...late) : Number.NaN,
    allP99: percentile(all, 99),
    allMax: all.length ? Math.max(...all) : Number.NaN,
    pendingMax: pendingLate.length ? Math.max(...pendingLate) : 0,
    over10s: all.filter((x) => x > GOALS.lateMs).length,
    perTickMax: ticks.length ? Math.max(...ticks) : 0,
    perTickMean: ticks.length ? ticks.reduce((s, x) => s + x, 0) / ticks.length : 0,
    perSecond: made / ((end - t0) / 1000),
  };
}

/** Arrival → `last_refreshed_at` (the product's fetch, parse and store after the request reached the feed server). */
async function storeTimes(server, feed) {
  const { feeds, errors } = ok(await request(server, 'GET', '/__bench/feeds'), 'GET /__bench/feeds').body;
  const gaps = [];
  let failing = 0;
  for (const [i, refreshed, errorCounter] of feeds) {
    if (errorCounter > 0) failing++;
    const list = feed.arrivals.get(i);
    if (!list?.length || refreshed === null) continue;
    gaps.push(refreshed - list[list.length - 1]);
  }
  return { p50: percentile(gaps, 50), p99: percentile(gaps, 99), max: gaps.length ? Math.max(...gaps) : Number.NaN, failing, errors };
}

/** One window: the feeds activated (due over the first minute), `minutes` measured, then a statement trace. */
async function refreshWindow(server, feed, { minutes, label, extraTicks = 0, profile }) {
  feed.arrivals.clear();
  if (extraTicks) ok(await request(server, 'POST', '/__bench/extra-ticks', { body: { everyMs: extraTicks } }), 'extra ticks');
  const { t0 } = ok(
    await request(server, 'POST', '/__bench/activate', { body: { startInMs: 2_000, spreadMs: SPREAD_MS } }),
    'activate',
  ).body;
  await sleep(Math.max(0, t0 - Date.now()));
  if (profile) ok(await request(server, 'POST', '/__bench/profile', { body: { action: 'start' } }), 'profile start');
  const cpu = cpuWindow(server);
  const end = t0 + minutes * 60_000;
  while (Date.now() < end) {
    await sleep(Math.min(15_000, end - Date.now()));
    const made = [...feed.arrivals.values()].reduce((s, l) => s + l.length, 0);
    log(`${server.db} ${label}: ${Math.round((Date.now() - t0) / 1000)} s, ${fmt(made)} refreshes so far`);
  }
  const usage = cpu.end();
  let profileSummary;
  if (profile) {
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = join(PROFILE_DIR, `datasources-${server.db}-${label.replace(/\W+/g, '-')}.cpuprofile`);
    ok(await request(server, 'POST', '/__bench/profile', { body: { action: 'stop', file } }), 'profile stop');
    profileSummary = { file, ...summariseProfile(file, 12) };
  }
  const r = analyseRefreshes({ arrivals: feed.arrivals, t0, spreadMs: SPREAD_MS, feeds: FEEDS, end });
  // Which statements a refresh runs (traced after the CPU window: wrapping the driver costs a little).
  const before = feed.served();
  const trace = ok(await request(server, 'POST', '/__bench/trace', { body: { ms: 10_000 } }), 'trace').body;
  trace.refreshes = feed.served() - before;
  ok(await request(server, 'POST', '/__bench/deactivate'), 'deactivate');
  if (extraTicks) ok(await request(server, 'POST', '/__bench/extra-ticks', { body: { everyMs: 0 } }), 'extra ticks off');
  // The refreshes under way finish (a refresh of this feed takes milliseconds; the lease is 2 minutes).
  await sleep(3_000);
  const stored = await storeTimes(server, feed);
  log(
    `${server.db} ${label}: ${fmt(r.made)} of ${fmt(r.expected)} expected refreshes (${fmt(r.perSecond, 1)}/s, at most ${r.perTickMax} in a 5 s tick), lateness p99 ${fmt(r.allP99 / 1000, 1)} s, max ${fmt(r.allMax / 1000, 1)} s (${fmt(r.pending)} due and not made at the end), ${r.early} early; server CPU ${(usage.server * 100).toFixed(1)} %, arrival → stored p50 ${fmt(stored.p50)} ms, ${stored.failing} feeds failing`,
  );
  return { label, minutes, extraTicks, t0, ...r, cpu: usage, stored, trace, profile: profileSummary };
}

// ---------------------------------------------------------------- 2. device read

async function deviceReads(server, { tokenSeed, customerId }) {
  const c = `customerId=${customerId}`;
  const ds = ok(
    await request(server, 'POST', `/api/datasource?${c}`, {
      body: { name: 'Bench reader', sourceType: 'INTERNAL', structureType: 'KEY_VALUE' },
    }),
    'POST /api/datasource',
    201,
  ).body;
  // A menu board's worth of data: ~10 KB of JSON.
  const document = {
    title: 'Bench menu',
    updated: new Date().toISOString(),
    rows: Array.from({ length: 60 }, (_, k) => ({
      id: `row-${k}`,
      name: `Dish number ${k}`,
      price: Math.round((4.5 + k * 0.35) * 100) / 100,
      allergens: ['gluten', 'milk', 'nuts'].slice(0, k % 4),
      description: 'Seasonal ingredients, cooked to order; ask the staff for today’s side. '.slice(0, 60 + (k % 30)),
    })),
  };
  ok(await request(server, 'PUT', `/api/datasource/${ds.id}/data?${c}`, { body: document }), 'PUT /api/datasource/{id}/data');
  const device = { authorization: `Bearer ${tokenSeed}-1` };
  const path = `/api/display/datasource/${ds.id}`;
  const first = ok(await request(server, 'GET', path, { headers: device }), `GET ${path}`);
  const etag = first.headers.etag;
  const notModified = await request(server, 'GET', path, { headers: { ...device, 'if-none-match': etag } });
  if (notModified.status !== 304) throw new Error(`GET ${path} with If-None-Match answered ${notModified.status}`);
  const cases = {
    status: { path: '/api/display/status', headers: device, status: 200 },
    full: { path, headers: device, status: 200 },
    notModified: { path, headers: { ...device, 'if-none-match': etag }, status: 304 },
  };
  // Interleaved rounds (each case a slice of the runs in turn), so a burst of other work on the machine falls on all three.
  const rounds = 5;
  const samples = { status: [], full: [], notModified: [] };
  for (let k = 0; k < rounds; k++) {
    for (const [name, x] of Object.entries(cases)) {
      const runs = await timedRuns(Math.ceil(READ_RUNS / rounds), k === 0 ? 50 : 5, async () =>
        ok(await request(server, 'GET', x.path, { headers: x.headers, sink: true }), `GET ${x.path}`, x.status),
      );
      samples[name].push(...runs.samples);
    }
  }
  const stats = (s) => ({ p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), count: s.length });
  const r = { bytes: first.bytes, etag, status: stats(samples.status), full: stats(samples.full), notModified: stats(samples.notModified) };
  log(
    `${server.db} device read: 200 (${fmt(r.bytes)} bytes) p50 ${fmt(r.full.p50, 2)} ms p95 ${fmt(r.full.p95, 2)} ms; 304 p50 ${fmt(r.notModified.p50, 2)} ms p95 ${fmt(r.notModified.p95, 2)} ms; GET /api/display/status p50 ${fmt(r.status.p50, 2)} ms p95 ${fmt(r.status.p95, 2)} ms`,
  );
  return r;
}

// ---------------------------------------------------------------- 3. fan-out

function startLoader() {
  const child = spawnNode(
    'datasources-loadgen',
    [join(root, 'bench', 'datasources-loadgen.mjs')],
    { ...process.env, NODE_ENV: 'production' },
    root,
    {
      cpu: LOADGEN_CPU,
      ipc: true,
    },
  );
  const waiting = new Map();
  child.on('message', (msg) => {
    const pending = waiting.get(msg.type);
    waiting.delete(msg.type);
    pending?.resolve(msg);
  });
  child.once('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`the load generator exited (${code}):\n${child.output}`));
    waiting.clear();
  });
  child.call = (msg, answer = msg.type) =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error(`the load generator exited:\n${child.output}`));
      waiting.set(answer, { resolve, reject });
      child.send(msg);
    });
  return child;
}

/** A slide in the tenant's root content folder with one text widget per datasource named. */
async function slideShowing(server, { customerId, rootGroupId, name, datasourceIds }) {
  const widgets = datasourceIds.map((id, k) => ({
    id: `ds-${k}`,
    type: 'datasource',
    x: 0,
    y: 100 * k,
    width: 600,
    height: 100,
    zIndex: k + 1,
    mode: 'text',
    datasourceId: id,
    field: 'n',
  }));
  return ok(
    await request(server, 'POST', `/api/content?customerId=${customerId}&contentGroupId=${rootGroupId}`, {
      body: { name, structureType: 'SLIDE', data: { Default: { pageData: { screenSize: { width: 1920, height: 1080 } }, widgets } } },
    }),
    'POST /api/content',
    201,
  ).body;
}

async function fanout(server, { tokenSeed, customerId, rootGroupId }) {
  const c = `customerId=${customerId}`;
  const create = async (name) =>
    ok(
      await request(server, 'POST', `/api/datasource?${c}`, { body: { name, sourceType: 'INTERNAL', structureType: 'KEY_VALUE' } }),
      'POST /api/datasource',
      201,
    ).body.id;
  const all = await create('Bench queue number');
  const one = await create('Bench room sign');
  const wide = await slideShowing(server, { customerId, rootGroupId, name: 'Bench queue board', datasourceIds: [all] });
  const narrow = await slideShowing(server, { customerId, rootGroupId, name: 'Bench room board', datasourceIds: [all, one] });
  // Every device shows the queue board; device 1 the room board, which shows both (so `all` still reaches every device).
  ok(await request(server, 'POST', '/__bench/assign', { body: { contentId: wide.id } }), 'assign');
  ok(await request(server, 'POST', '/__bench/assign-one', { body: { contentId: narrow.id, device: 1 } }), 'assign one');

  log(`${server.db}: connecting ${fmt(DEVICES)} devices`);
  const loader = startLoader();
  try {
    const t0 = performance.now();
    const connected = await loader.call(
      {
        type: 'connect',
        base: server.base,
        tokenSeed,
        from: 1,
        to: DEVICES,
        localAddress: '127.0.0.2',
        concurrency: CONNECT_CONCURRENCY,
        heartbeatMs: HEARTBEAT_MS,
      },
      'connected',
    );
    for (const e of connected.errors ?? []) log(`connect: ${e}`);
    if (connected.count !== DEVICES)
      throw new Error(`${connected.count} of ${DEVICES} devices connected (${connected.error ?? `${connected.failed} failed`})`);
    const connectSeconds = (performance.now() - t0) / 1000;
    log(`${server.db}: ${fmt(connected.count)} devices connected in ${connectSeconds.toFixed(1)} s`);
    await sleep(3_000);

    let value = 0;
    const round = async ({ id, expected, readOnChange }) => {
      await loader.call({ type: 'round', readOnChange });
      value++;
      const started = Date.now();
      ok(await request(server, 'POST', `/api/display/datasource/${id}/set?key=n&value=${value}`), 'POST set');
      const answeredMs = Date.now() - started;
      const deadline = Date.now() + 60_000;
      let s;
      for (;;) {
        s = await loader.call({ type: 'stats' });
        for (const e of s.errorsSeen) log(`load generator: ${e}`);
        if (s.told >= expected && (!readOnChange || s.reads + s.readErrors >= expected)) break;
        if (Date.now() > deadline) throw new Error(`after 60 s only ${s.told} of ${expected} devices were told (${s.reads} reads)`);
        await sleep(20);
      }
      return {
        devices: s.told,
        frames: s.frames,
        answeredMs,
        firstFrameMs: s.firstAt - started,
        lastFrameMs: s.lastAt - started,
        lastReadMs: readOnChange ? s.lastReadAt - started : undefined,
        reads: s.reads,
        notModified: s.notModified,
        readErrors: s.readErrors,
      };
    };
    const rounds = { all: [], one: [], allRead: [] };
    for (let k = 0; k < FANOUT_ROUNDS; k++) {
      rounds.all.push(await round({ id: all, expected: DEVICES, readOnChange: false }));
      await sleep(1_000);
      rounds.one.push(await round({ id: one, expected: 1, readOnChange: false }));
      await sleep(1_000);
    }
    for (let k = 0; k < READ_ROUNDS; k++) {
      rounds.allRead.push(await round({ id: all, expected: DEVICES, readOnChange: true }));
      await sleep(2_000);
    }
    const sum = (list, k) => ({
      p50: percentile(
        list.map((x) => x[k]),
        50,
      ),
      max: Math.max(...list.map((x) => x[k])),
    });
    const r = {
      connected: connected.count,
      connectSeconds,
      rounds,
      all: { last: sum(rounds.all, 'lastFrameMs'), first: sum(rounds.all, 'firstFrameMs'), answered: sum(rounds.all, 'answeredMs') },
      one: { last: sum(rounds.one, 'lastFrameMs'), answered: sum(rounds.one, 'answeredMs') },
      allRead: { last: sum(rounds.allRead, 'lastFrameMs'), read: sum(rounds.allRead, 'lastReadMs') },
      health: await loader.call({ type: 'stats' }),
    };
    log(
      `${server.db} fan-out to ${fmt(DEVICES)}: last frame p50 ${fmt(r.all.last.p50)} ms, max ${fmt(r.all.last.max)} ms (POST answered p50 ${fmt(r.all.answered.p50)} ms); to 1: p50 ${fmt(r.one.last.p50)} ms; with re-reads: last frame p50 ${fmt(r.allRead.last.p50)} ms, last read p50 ${fmt(r.allRead.read.p50)} ms`,
    );
    return r;
  } finally {
    if (loader.connected) loader.send({ type: 'stop' });
    await stopChild(loader);
  }
}

// ---------------------------------------------------------------- one database

async function runDatabase(db, databaseUrl, feed) {
  const tokenSeed = secret(24);
  const server = await startBenchServer({
    name: `datasources-${db}`,
    script: join(root, 'bench', 'datasources-server.ts'),
    cwd: root,
    env: {
      ...baseEnv,
      JOBS_ENABLED: 'true',
      ALLOW_PRIVATE_NETWORK_FETCH: 'true',
      BENCH_SEED_DEVICES: String(DEVICES),
      BENCH_TOKEN_SEED: tokenSeed,
      BENCH_FEEDS: String(FEEDS),
      BENCH_FEED_BASE: feed.base,
    },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-datasources-',
    nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ').filter(Boolean) : [],
    describe: (info) =>
      ` (seeded ${fmt(info.seed.feeds)} datasources and ${fmt(info.seed.devices)} devices in ${info.seed.seconds.toFixed(1)} s; job queue ${info.jobs ? 'on' : 'OFF'})`,
  });
  if (!server.info.jobs) throw new Error('the bench server started without its job queue (JOBS_ENABLED)');
  const { customerId, rootContentGroupId: rootGroupId } = server.info;
  const result = { db, seed: server.info.seed };
  try {
    // A seeded datasource as the API shows it (the seeding wrote what a create would).
    const sample = ok(
      await request(server, 'GET', `/api/v2/datasource?customerId=${customerId}&search=${encodeURIComponent('name=Bench feed 0001')}`),
      'GET /api/v2/datasource',
    ).body;
    const shown = sample.content?.[0];
    if (shown?.type !== 'JSON' || shown.refreshFrequency !== 60 || shown.remoteUrl !== `${feed.base}/feed/1`)
      throw new Error(`the seeded datasource reads ${JSON.stringify(shown)}`);

    // Idle baseline: the job queue runs (the refresh tick too), every datasource deactivated.
    await sleep(5_000);
    const idle = cpuWindow(server);
    await sleep(IDLE_S * 1000);
    result.idle = idle.end();
    log(`${db} idle (datasources deactivated): server CPU ${(result.idle.server * 100).toFixed(1)} %`);

    if (PHASES.has('refresh')) {
      result.refresh = await refreshWindow(server, feed, { minutes: REFRESH_MIN, label: 'product schedule' });
      if (EXTRA_MIN > 0) {
        await sleep(5_000);
        result.extra = await refreshWindow(server, feed, { minutes: EXTRA_MIN, label: 'extra ticks', extraTicks: EXTRA_TICK_MS });
      }
      if (PROFILE) {
        await sleep(5_000);
        result.profiled = await refreshWindow(server, feed, {
          minutes: PROFILE_MIN,
          label: 'profiled',
          extraTicks: EXTRA_TICK_MS,
          profile: true,
        });
      }
    }
    await sleep(3_000);
    if (PHASES.has('read')) {
      const usage = cpuWindow(server);
      result.read = await deviceReads(server, { tokenSeed, customerId });
      result.read.cpu = usage.end();
    }
    if (PHASES.has('fanout')) result.fanout = await fanout(server, { tokenSeed, customerId, rootGroupId });
    return result;
  } finally {
    await stopChild(server.child);
  }
}

// ---------------------------------------------------------------- the record

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter, feedBytes }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const pctOf = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)} %`);
  const s = (ms) => (ms === undefined || Number.isNaN(ms) ? '—' : `${fmt(ms / 1000, 1)} s`);
  const goal = (r, okay) => (r.db === 'PostgreSQL' ? (okay ? 'yes' : '**no**') : `(${okay ? 'yes' : 'no'}; information)`);
  push(
    MARKERS.start,
    '## Datasources (`npm run bench:datasources`, issue 30)',
    '',
    '_Written by scripts/bench-datasources.mjs into this marked section only. Each figure is compared with a baseline measured in the same run on the same machine. Goals are judged on PostgreSQL; PGlite is recorded for information._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)${QUICK ? ' — **quick mode** (BENCH_DATASOURCES_QUICK=1: shorter windows, fewer rounds)' : ''}`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; a machine shared with other work: 1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after${results.map((r) => `, ${r.idle.load.toFixed(2)} after the idle window and ${r.refresh.cpu.load.toFixed(2)} after the refresh window on ${r.db}`).join('')}`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/datasources-server.ts\` — the production \`createService\` (Hono app, device WebSocket, push feed) on \`@hono/node-server\` **with the job queue started as \`server/main.ts\` starts it** (\`startJobQueue\`, every module's jobs: \`datasources.refresh-due\` every 5 s with 16 slots, as deployed); \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, \`ALLOW_PRIVATE_NETWORK_FETCH=true\`. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}, the device load generator to core ${LOADGEN_CPU}; this script (feed server, HTTP client) and PostgreSQL are not pinned.` : 'No CPU pinning (taskset unavailable).'}`,
    `- Data, seeded set-based in the server: one tenant, ${fmt(FEEDS)} EXTERNAL JSON datasources (structure KEY_VALUE, \`refreshFrequency\` 60, GET \`http://127.0.0.1:<port>/feed/<i>\`, no conditional requests), ${fmt(DEVICES)} devices with access tokens.`,
    '',
    '### 1. Refresh scheduling',
    '',
    `Method: the feed server (in the script's process, 127.0.0.1) answers \`/feed/<i>\` with a ${fmt(feedBytes)}-byte JSON object that differs every time (a counter), so every refresh parses, stores its document and announces the change; it logs each request's arrival. The datasources are activated with \`next_refresh_at\` spread evenly over the first minute (feed i due at t0 + (i − 1) × 60 ms), then measured for ${REFRESH_MIN} min. **Lateness** of a refresh = its arrival − its due time; the first is due at the seeded time; each next one 60 s after the previous arrival (the product schedules it 60 s after that refresh *stored*, a little later, so this overstates lateness by the product's own fetch-and-store time, shown as "arrival → stored"). A refresh due before the window's end that had not arrived by then counts as late by at least (end − due) ("due, not made"). Expected = the due times within the window if every refresh were on time. **CPU** = utime + stime of the server process over the window ÷ wall time (share of one core); baseline: the same server, job queue running, every datasource deactivated, over ${IDLE_S} s.`,
    '',
    `| Database | window | refreshes made / expected | per s | most in one 5 s tick | lateness p50 | p99 (made) | max (made) | p99 incl. due, not made | max incl. due, not made | due, not made at the end | > 10 s late | twice within 60 s (shortest interval) | arrival → stored p50 / max | server CPU | idle baseline | ratio | PostgreSQL backends |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of results) {
    for (const w of [r.refresh, r.extra].filter(Boolean)) {
      push(
        `| ${r.db} | ${w.extraTicks ? `diagnostic: + a refresher ticked every ${w.extraTicks / 1000} s, ${w.minutes} min` : `product schedule, ${w.minutes} min`} | ${fmt(w.made)} / ${fmt(w.expected)} (${pctOf(w.made / w.expected)}) | ${fmt(w.perSecond, 1)} | ${fmt(w.perTickMax)} | ${s(w.lateP50)} | ${s(w.lateP99)} | ${s(w.lateMax)} | ${s(w.allP99)} | ${s(w.allMax)} | ${fmt(w.pending)} | ${fmt(w.over10s)} | ${fmt(w.early)} (${s(w.shortestIntervalMs)}) | ${fmt(w.stored.p50)} / ${fmt(w.stored.max)} ms | ${pctOf(w.cpu.server)}${w.profile ? ' (profiled)' : ''} | ${pctOf(r.idle.server)} | ${ratio(w.cpu.server / r.idle.server)} | ${pctOf(w.cpu.postgres)} (idle ${pctOf(r.idle.postgres)}) |`,
      );
    }
  }
  push(
    '',
    '**Goals** (the product schedule; PostgreSQL judged)',
    '',
    '| Database | no refresh more than 10 s late | server CPU < 30 % of one core | every datasource about once a minute, never twice within its period |',
    '|---|---|---|---|',
  );
  for (const r of results) {
    const w = r.refresh;
    const full = r.extra ? ` At the full rate (the diagnostic window, ${fmt(r.extra.perSecond, 1)}/s): ${pctOf(r.extra.cpu.server)}.` : '';
    push(
      `| ${r.db} | ${goal(r, w.over10s === 0)} — max ${s(w.allMax)} late, p99 ${s(w.allP99)}; ${fmt(w.over10s)} refreshes more than 10 s late | ${goal(r, w.cpu.server < GOALS.cpu && (!r.extra || r.extra.cpu.server < GOALS.cpu))} — ${pctOf(w.cpu.server)}, at the ${fmt(w.perSecond, 1)} refreshes/s the schedule reached of the ${fmt(FEEDS / 60, 1)}/s due.${full} | ${goal(r, w.made >= w.expected * 0.95 && w.early === 0)} — ${fmt(w.made)} of ${fmt(w.expected)} (${pctOf(w.made / w.expected)}), ${fmt(w.early)} twice within 60 s |`,
    );
  }
  push(
    '',
    '### 2. Device read (`GET /api/display/datasource/{id}`)',
    '',
    `Method: one client, sequential requests on one keep-alive connection with device 1's token, ${fmt(READ_RUNS)} of each case in 5 interleaved rounds (50 unmeasured first, 5 before each later slice); time until the whole answer arrived. An INTERNAL KEY_VALUE datasource holding a ~10 KB document (60 rows), written once with \`PUT /api/datasource/{id}/data\`. 304: \`If-None-Match\` with the ETag the 200 gave. Baseline: \`GET /api/display/status\` with the same token (the device authentication and one read of the device row).`,
    '',
    '| Database | case | bytes | p50 ms | p95 ms | p99 ms | p50 ÷ baseline | goal p50 ≤ 5 ms |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    const x = r.read;
    push(
      `| ${r.db} | 200, the document | ${fmt(x.bytes)} | ${fmt(x.full.p50, 2)} | ${fmt(x.full.p95, 2)} | ${fmt(x.full.p99, 2)} | ${ratio(x.full.p50 / x.status.p50)} | ${goal(r, x.full.p50 <= GOALS.readMs)} |`,
      `| ${r.db} | 304, If-None-Match | 0 | ${fmt(x.notModified.p50, 2)} | ${fmt(x.notModified.p95, 2)} | ${fmt(x.notModified.p99, 2)} | ${ratio(x.notModified.p50 / x.status.p50)} | ${goal(r, x.notModified.p50 <= GOALS.readMs)} |`,
      `| ${r.db} | baseline: \`GET /api/display/status\` | — | ${fmt(x.status.p50, 2)} | ${fmt(x.status.p95, 2)} | ${fmt(x.status.p99, 2)} | 1.00× | — |`,
    );
  }
  push(
    '',
    '### 3. Fan-out (`datasourceChanged`)',
    '',
    `Method: ${fmt(DEVICES)} devices connected over the device WebSocket from \`bench/datasources-loadgen.mjs\` (one process, ticket then \`GET /api/display/ws\`, heartbeat every 60 s). Every device shows a slide with a datasource widget of an INTERNAL datasource (\`device.content_id\` set in the database after the slide was created through the API, so its \`content_reference\` rows are the product's); device 1 shows a second slide that also uses another datasource. A round: \`POST /api/display/datasource/{id}/set?key=n&value=<i>\` as the administrator, timed from sending it to the last \`datasourceChanged\` frame received (the load generator's \`Date.now()\`, same clock). ${FANOUT_ROUNDS} rounds to all ${fmt(DEVICES)} alternating with ${FANOUT_ROUNDS} to the datasource only device 1 shows (the baseline: the same write and push to one device); then ${READ_ROUNDS} rounds in which every device reads the document again on its frame (\`GET /api/display/datasource/{id}\` with its ETag, 32 connections), as a player does.`,
    '',
    `| Database | to ${fmt(DEVICES)}: last frame p50 / max ms | first frame p50 ms | \`set\` answered p50 ms | baseline, to 1: last frame p50 / max ms | ratio (p50) | with re-reads: last frame p50 / max ms | last re-read done p50 / max ms | goal ≤ 5 s |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    const f = r.fanout;
    push(
      `| ${r.db} | ${fmt(f.all.last.p50)} / ${fmt(f.all.last.max)} | ${fmt(f.all.first.p50)} | ${fmt(f.all.answered.p50)} | ${fmt(f.one.last.p50)} / ${fmt(f.one.last.max)} | ${ratio(f.all.last.p50 / f.one.last.p50)} | ${fmt(f.allRead.last.p50)} / ${fmt(f.allRead.last.max)} | ${fmt(f.allRead.read.p50)} / ${fmt(f.allRead.read.max)} | ${goal(r, f.all.last.max <= GOALS.fanoutMs)} (max of ${FANOUT_ROUNDS}) |`,
    );
  }
  push('', '### Details and readings', '', ...readings(results), '', MARKERS.end);
  return lines.join('\n');
}

/** Server CPU ms a refresh above the idle baseline, over a window. */
function cpuPerRefresh(r, w) {
  return ((w.cpu.server - r.idle.server) * w.cpu.seconds * 1000) / Math.max(1, w.made);
}

function readings(results) {
  const out = [];
  const short = (text) =>
    `\`${text.replace(/"/g, '').replace(/`/g, "'").replace(/\|/g, '\\|').slice(0, 100)}${text.length > 100 ? '…' : ''}\``;
  for (const r of results) {
    const w = r.refresh;
    out.push(
      `- ${r.db}, refresh scheduling: every 5 s the tick claims as many due datasources as the instance has free slots (16), and while a claim filled every slot each finished refresh claims again at once, so the rate follows how fast refreshes finish, not the tick; ${fmt(FEEDS)} datasources due once a minute need ${fmt(FEEDS / 60, 1)} a second. Measured: ${fmt(w.perSecond, 1)} a second, at most ${fmt(w.perTickMax)} starting in one 5 s tick (mean ${fmt(w.perTickMean, 1)}); a refresh of this feed took ${fmt(w.stored.p50)} ms from its request's arrival to its \`last_refreshed_at\` (p50; max ${fmt(w.stored.max)} ms). The product schedules a datasource's next refresh one period after the last one was stored, so a late refresh moves the ones after it: fewer refreshes than the on-time count fit in the window when refreshes run late (${s2(w.allMax)} at most here). Server CPU a refresh: ${fmt(cpuPerRefresh(r, w), 1)} ms above the idle baseline${w.cpu.postgres === undefined ? '' : `; PostgreSQL's backends ${pctOf2(w.cpu.postgres)} of a core (idle ${pctOf2(r.idle.postgres)})`}; the server waited for a core (runnable, not running) ${pctOf2(w.cpu.waited)} of the window. Errors: ${w.stored.failing} datasources with a failure counted${w.stored.errors.length ? ` (${w.stored.errors.map((e) => `"${e.slice(0, 120)}"`).join('; ')})` : ''}.`,
    );
    if (r.extra) {
      const x = r.extra;
      out.push(
        `- ${r.db}, diagnostic window (not the product's schedule): a second refresher of the product (\`createRefresher\`, 16 slots) ticked every ${x.extraTicks / 1000} s by the bench server beside the job's tick: ${fmt(x.made)} of ${fmt(x.expected)} refreshes (${fmt(x.perSecond, 1)}/s), lateness p99 ${s2(x.allP99)}, max ${s2(x.allMax)}, ${fmt(x.early)} twice within 60 s; server CPU ${pctOf2(x.cpu.server)} (${fmt(cpuPerRefresh(r, x), 1)} ms a refresh above idle)${x.cpu.postgres === undefined ? '' : `, PostgreSQL's backends ${pctOf2(x.cpu.postgres)}`}. It shows the rate the database and the feeds allow when claims are not bound to the tick at all.`,
      );
    }
    if (w.trace?.kinds?.length) {
      const n = Math.max(1, w.trace.refreshes);
      out.push(
        `- ${r.db}, statements (every statement of the server's driver over 10 s after the window, \`driverTrace\`, while the backlog was still being worked off): ${fmt(w.trace.statements)} for ${fmt(w.trace.refreshes)} refreshes = ${fmt(w.trace.statements / n, 1)} a refresh: ${w.trace.kinds
          .slice(0, 8)
          .map((k) => `${fmt(k.count / n, 2)} × ${short(k.sql)}`)
          .join('; ')}.`,
      );
    }
    const p = r.profiled?.profile;
    if (p) {
      out.push(
        `- ${r.db}, where the CPU of refreshing goes: a V8 CPU profile of the server (node:inspector) over one more minute at the full rate (as the diagnostic window: ${fmt(r.profiled.made)} refreshes, ${fmt(r.profiled.perSecond, 1)}/s; ${fmt(p.busySeconds, 1)} s busy of ${fmt(p.seconds, 1)} s sampled), self time by package: ${p.packages
          .slice(0, 8)
          .map((x) => `${x.pkg} ${pctOf2(x.share)}`)
          .join(', ')}; top functions: ${p.functions
          .slice(0, 8)
          .map(
            (f) =>
              `\`${f.name}\` (${f.pkg}${f.where ? `, ${f.where.replace(/^.*\/(node_modules|server)\//, '')}` : ''}) ${pctOf2(f.share)}`,
          )
          .join(', ')}. (Profile file: \`${p.file.replace(`${root}/`, '')}\`, not committed.)`,
      );
    }
    const x = r.read;
    out.push(
      `- ${r.db}, device read: the 200 costs ${fmt(x.full.p50 - x.status.p50, 2)} ms more than the status route at p50 (the datasource row scoped to the device's customer, its stored hash, the document, and ${fmt(x.bytes)} bytes of JSON written); the 304 ${fmt(x.notModified.p50 - x.status.p50, 2)} ms (the row and the hash only; the document is not read). Over the read phase the server waited for a core (runnable, not running) ${pctOf2(x.cpu.waited)} of the time (1-minute load average ${x.cpu.load.toFixed(2)} at its end): on this shared machine the absolute figures move with the load, the ratios much less.`,
    );
    const f = r.fanout;
    out.push(
      `- ${r.db}, fan-out: ${fmt(f.connected)} devices connected in ${fmt(f.connectSeconds, 1)} s. The \`set\` answers after ${fmt(f.all.answered.p50)} ms (p50: the write, the content and devices that use the datasource found in the same transaction, ${Math.ceil(DEVICES / 200)} notifications of 200 device ids); the first device had its frame at ${fmt(f.all.first.p50)} ms and the last at ${fmt(f.all.last.p50)} ms (p50 of ${FANOUT_ROUNDS}). With every device reading the document again on its frame the last frame came at ${fmt(f.allRead.last.p50)} ms and the last read was done at ${fmt(f.allRead.read.p50)} ms (p50 of ${READ_ROUNDS}; ${fmt(f.rounds.allRead.reduce((sum, x) => sum + x.readErrors, 0))} read errors). Sockets open at the end: ${fmt(f.health.open)}.`,
    );
  }
  return out;
}
const s2 = (ms) => (ms === undefined || Number.isNaN(ms) ? '—' : `${fmt(ms / 1000, 1)} s`);
const pctOf2 = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)} %`);

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  log(
    `${fmt(FEEDS)} datasources, ${fmt(DEVICES)} devices${QUICK ? ' (quick mode)' : ''}; refresh window ${REFRESH_MIN} min${EXTRA_MIN ? `, diagnostic ${EXTRA_MIN} min` : ''}`,
  );
  const feed = await startFeedServer();
  try {
    const pgInfo = await preparePostgres({ database: PG_DATABASE });
    log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
    const results = [];
    if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url, feed));
    if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await runDatabase('PGlite', undefined, feed));
    const finishedAt = new Date();
    // The arrival logs are big and kept in the feed server; the results hold the analyses.
    saveResults(root, 'datasources', { startedAt, finishedAt, pgInfo, results });
    if (results.length === 0) throw new Error('no database was measured');
    if (!results.every((r) => r.refresh && r.read && r.fanout)) {
      log(
        `BENCH_DATASOURCES_PHASES=${[...PHASES].join(',')}: not every part ran, nothing written to ${OUT} (figures in bench/.out/datasources-results.json)`,
      );
      return;
    }
    writeSection(
      OUT,
      MARKERS,
      report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0], feedBytes: feed.bytes }),
    );
    log(`written to ${OUT}`);
  } finally {
    await feed.close();
  }
}

void runMain(main, watchdog);
