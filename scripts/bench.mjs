#!/usr/bin/env node
// `npm run bench`: measures the API's serving paths and the query compiler, then rewrites
// docs/benchmarks.md. Everything runs on 127.0.0.1 with fixed durations and ends on its own.
//
//   1. GET /healthz and GET /api/v2/user/me through the production server (dist/server/main.mjs,
//      Next attached), the same Hono app on a bare @hono/node-server, and a bare node:http server.
//   2. The same routes on PGlite and on PostgreSQL (BENCH_DATABASE_URL / DATABASE_URL, or the local
//      Debian cluster with a fresh `signage_bench` database, dropped afterwards; skipped with a note when unavailable).
//   3. The search/select/sort compiler's cost against the time of GET /api/v2/user?search=… .
//   5. The idle cost of the job queue: CPU time of the idle production server, jobs on and JOBS_ENABLED=false.
//
// Options (environment): BENCH_DURATION (s per case, default 5), BENCH_WARMUP (s, default 2),
// BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (interleaved repetitions, default 3),
// BENCH_SKIP_PG=1, BENCH_DATABASE_URL, BENCH_OUT (default docs/benchmarks.md), BENCH_IDLE (s per idle measurement, 60).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  benchServerIdentity,
  cleanup,
  freePort,
  hasTaskset,
  installGuards,
  killNow,
  log,
  markedSections,
  passwordToken,
  preparePostgres,
  num,
  sleep,
  spawnNode as spawnServerNode,
  stopChild,
  tempDirs,
  waitForReady,
} from '../bench/lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = num('BENCH_DURATION', 5);
const WARMUP = num('BENCH_WARMUP', 2);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const ROUNDS = num('BENCH_ROUNDS', 3);
const IDLE_SECONDS = num('BENCH_IDLE', 60);
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const WATCHDOG_MS = 20 * 60_000;
const GOAL_PROD_VS_HONO = 0.9;
const GOAL_COMPILE_SHARE = 0.05;
/** Issue 11: GET /api/v2/user/me with the token cache, against the same server without it, in one run. */
const GOAL_CACHE_PGLITE = 5;
const GOAL_CACHE_PG = 3;
const SEED_USERS = 200;
const LIST_SEARCH = 'name:acme|email:acme,role∈EDITOR%2CVIEWER,createdDate>1700000000000';
const LIST_SELECT = 'id,name,email,customer(id,name)';
const LIST_SORT = 'name,asc';
const LIST_PATH = `/api/v2/user?${new URLSearchParams({ search: LIST_SEARCH, select: LIST_SELECT, sort: LIST_SORT })}`;

const { env: baseEnv, credentials } = benchServerIdentity();

const watchdog = installGuards(WATCHDOG_MS / 60_000);

/** Spawns `node args` from the repository root, pinned to the server core. */
const spawnNode = (name, args, env) => spawnServerNode(name, args, env, root);

// ---------------------------------------------------------------- servers

/**
 * kind: 'prod' | 'hono' | 'bare'. Returns { name, kind, db, port, base, child, token }.
 * The server is paused (SIGSTOP) until a case runs against it, so only the measured server uses CPU.
 */
async function startServer({ name, kind, databaseUrl, env = {}, meBody }) {
  const port = await freePort();
  const serverEnv = { ...baseEnv, ...env, PORT: String(port) };
  if (databaseUrl) serverEnv.DATABASE_URL = databaseUrl;
  if (kind !== 'bare') {
    const dataDir = mkdtempSync(join(os.tmpdir(), `signage-bench-${kind}-`));
    tempDirs.push(dataDir);
    serverEnv.DATA_DIR = dataDir;
  }
  let args;
  if (kind === 'prod') args = [join(root, 'dist', 'server', 'main.mjs')];
  else if (kind === 'hono') {
    args = ['--import', 'tsx', join(root, 'bench', 'hono-server.ts')];
    serverEnv.BENCH_SEED_USERS = String(SEED_USERS);
  } else {
    args = [join(root, 'bench', 'bare-server.mjs')];
    serverEnv.BENCH_ME_BODY = meBody ?? '';
  }
  const started = Date.now();
  const child = spawnNode(name, args, serverEnv);
  const base = `http://127.0.0.1:${port}`;
  await waitForReady(`${base}/readyz`, child);
  const server = { name, kind, db: databaseUrl ? 'PostgreSQL' : kind === 'bare' ? '—' : 'PGlite', port, base, child, token: undefined };
  if (kind !== 'bare') server.token = await passwordToken(base, credentials);
  log(`${name} ready on :${port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return server;
}

const pause = (server) => server.child.kill('SIGSTOP');
const resume = (server) => server.child.kill('SIGCONT');

// ---------------------------------------------------------------- load

function headersFor(server) {
  return server.token ? { authorization: `Bearer ${server.token}` } : {};
}

async function cannon(url, headers, duration, connections) {
  return autocannon({ url, headers, duration, connections, pipelining: 1, timeout: 10 });
}

/** One measurement: warm-up (discarded), then the timed run. The server runs only meanwhile. */
async function measure(server, path, connections = CONNECTIONS) {
  resume(server);
  try {
    await sleep(200);
    const url = `${server.base}${path}`;
    const headers = headersFor(server);
    await cannon(url, headers, WARMUP, connections);
    const r = await cannon(url, headers, DURATION, connections);
    return {
      rps: r.requests.average,
      total: r.requests.total,
      p50: r.latency.p50,
      p99: r.latency.p99,
      mean: r.latency.mean ?? r.latency.average,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
  } finally {
    pause(server);
  }
}

function combine(samples) {
  const avg = (k) => samples.reduce((s, x) => s + x[k], 0) / samples.length;
  return {
    rps: avg('rps'),
    rpsMin: Math.min(...samples.map((s) => s.rps)),
    rpsMax: Math.max(...samples.map((s) => s.rps)),
    p50: avg('p50'),
    p99: avg('p99'),
    mean: avg('mean'),
    non2xx: samples.reduce((s, x) => s + x.non2xx, 0),
    errors: samples.reduce((s, x) => s + x.errors, 0),
    rounds: samples.length,
  };
}

/** Runs every case ROUNDS times, interleaved (round 1 of all cases, then round 2, ...). */
async function runCases(cases) {
  const samples = new Map(cases.map((c) => [c.id, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of cases) {
      const s = await measure(c.server, c.path, c.connections);
      samples.get(c.id).push(s);
      log(
        `round ${round}/${ROUNDS} ${c.id}: ${Math.round(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms${s.non2xx || s.errors ? `, NON-2XX ${s.non2xx}, errors ${s.errors}` : ''}`,
      );
    }
  }
  return new Map(cases.map((c) => [c.id, combine(samples.get(c.id))]));
}

// ---------------------------------------------------------------- idle cost

/** Clock ticks per second of /proc's CPU times. */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, ms) process `pid` has used, from /proc (Linux); undefined elsewhere. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/**
 * Each server alone and idle (no request) for IDLE_SECONDS after 3 s to settle (timers that fell due while it was
 * paused): the CPU it used, per minute. What an idle job queue costs, against the same server with JOBS_ENABLED=false.
 */
async function idleCost(list) {
  const out = new Map();
  for (const [key, server] of list) {
    if (!server) continue;
    resume(server);
    try {
      await sleep(3000);
      const before = cpuMs(server.child.pid);
      await sleep(IDLE_SECONDS * 1000);
      const after = cpuMs(server.child.pid);
      if (before === undefined || after === undefined) return undefined;
      out.set(key, ((after - before) * 60) / IDLE_SECONDS);
      log(`idle ${key}: ${Math.round(out.get(key))} ms CPU per minute`);
    } finally {
      pause(server);
    }
  }
  return out;
}

// ---------------------------------------------------------------- PostgreSQL

// ---------------------------------------------------------------- compile cost

function compileCost() {
  return new Promise((resolve, reject) => {
    const child = spawnNode('compile-cost', ['--import', 'tsx', join(root, 'bench', 'compile-cost.ts')], {
      ...process.env,
      BENCH_SEARCH: LIST_SEARCH,
      BENCH_SELECT: LIST_SELECT,
      BENCH_SORT: LIST_SORT,
    });
    const timer = setTimeout(() => killNow(child), 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`compile-cost exited ${code}:\n${child.output}`));
      const line = child.output.trim().split('\n').pop();
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`compile-cost printed no result:\n${child.output}`));
      }
    });
  });
}

// ---------------------------------------------------------------- report

const fmt = (n, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '—' : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pct = (r) => (r === undefined ? '—' : `${(r * 100).toFixed(1)} %`);
const flag = (m) => (m.non2xx || m.errors ? ` ⚠ ${m.non2xx} non-2xx, ${m.errors} errors` : '');
const spread = (m) => (m.rounds > 1 ? ` (${fmt(m.rpsMin)}–${fmt(m.rpsMax)})` : '');

function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / '),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const notes = [];
  const loadBefore = os.loadavg()[0];

  if (!existsSync(join(root, '.next', 'BUILD_ID')) || !existsSync(join(root, 'dist', 'server', 'main.mjs'))) {
    log('no production build found: running npm run build');
    const r = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm run build failed (${r.status})`);
  }

  const pgInfo = await preparePostgres({ database: 'signage_bench', urlVariables: ['BENCH_DATABASE_URL', 'DATABASE_URL'] });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);

  // The load generator (this process) on core 0, every server on the last core.
  if (hasTaskset) spawnSync('taskset', ['-pc', LOADGEN_CPU, String(process.pid)], { stdio: 'ignore' });
  else notes.push('taskset unavailable or a single core: load generator and servers were not pinned to separate cores.');

  const servers = {};
  const start = async (key, options) => {
    servers[key] = await startServer(options);
    pause(servers[key]);
  };
  await start('prod', { name: 'production (Next attached)', kind: 'prod' });
  await start('prodNoJobs', { name: 'production, JOBS_ENABLED=false', kind: 'prod', env: { JOBS_ENABLED: 'false' } });
  await start('hono', { name: 'Hono on @hono/node-server', kind: 'hono' });
  await start('honoNoCache', { name: 'Hono, AUTH_CACHE_SIZE=0', kind: 'hono', env: { AUTH_CACHE_SIZE: '0' } });
  resume(servers.hono);
  const meRes = await fetch(`${servers.hono.base}/api/v2/user/me`, { headers: headersFor(servers.hono) });
  const meBody = await meRes.text();
  const listRes = await fetch(`${servers.hono.base}${LIST_PATH}`, { headers: headersFor(servers.hono) });
  const listBody = await listRes.json();
  pause(servers.hono);
  if (meRes.status !== 200) throw new Error(`GET /api/v2/user/me on the Hono server answered ${meRes.status}: ${meBody}`);
  if (listRes.status !== 200) throw new Error(`the list request answered ${listRes.status}: ${JSON.stringify(listBody)}`);
  await start('bare', { name: 'bare node:http', kind: 'bare', meBody });
  if (pgInfo.url) {
    try {
      await start('honoPg', { name: 'Hono on @hono/node-server', kind: 'hono', databaseUrl: pgInfo.url });
      await start('prodPg', { name: 'production (Next attached)', kind: 'prod', databaseUrl: pgInfo.url });
      await start('honoPgNoCache', {
        name: 'Hono, AUTH_CACHE_SIZE=0',
        kind: 'hono',
        databaseUrl: pgInfo.url,
        env: { AUTH_CACHE_SIZE: '0' },
      });
      await start('prodPgNoJobs', {
        name: 'production, JOBS_ENABLED=false',
        kind: 'prod',
        databaseUrl: pgInfo.url,
        env: { JOBS_ENABLED: 'false' },
      });
    } catch (err) {
      pgInfo.note = `skipped: a server on PostgreSQL did not start (${err.message.split('\n')[0]})`;
      for (const key of ['honoPg', 'prodPg', 'honoPgNoCache', 'prodPgNoJobs']) {
        if (servers[key]) await stopChild(servers[key].child);
        delete servers[key];
      }
      delete pgInfo.url;
    }
  }

  const cases = [];
  const add = (id, server, path, connections) => server && cases.push({ id, server, path, connections });
  for (const [route, path] of [
    ['health', '/healthz'],
    ['me', '/api/v2/user/me'],
  ]) {
    add(`${route}/prod`, servers.prod, path);
    add(`${route}/prodNoJobs`, servers.prodNoJobs, path);
    add(`${route}/hono`, servers.hono, path);
    add(`${route}/bare`, servers.bare, path);
    add(`${route}/honoPg`, servers.honoPg, path);
    add(`${route}/prodPg`, servers.prodPg, path);
  }
  add('me/honoNoCache', servers.honoNoCache, '/api/v2/user/me');
  add('me/honoPgNoCache', servers.honoPgNoCache, '/api/v2/user/me');
  add('list/hono', servers.hono, LIST_PATH);
  add('list1/hono', servers.hono, LIST_PATH, 1);
  add('list/honoPg', servers.honoPg, LIST_PATH);
  add('list1/honoPg', servers.honoPg, LIST_PATH, 1);
  log(
    `${cases.length} cases × ${ROUNDS} rounds × (${WARMUP} s warm-up + ${DURATION} s) ≈ ${Math.ceil((cases.length * ROUNDS * (WARMUP + DURATION + 0.5)) / 60)} min`,
  );

  const results = await runCases(cases);
  log(`idle cost of the job queue: ${IDLE_SECONDS} s per server`);
  const idle = await idleCost([
    ['prod', servers.prod],
    ['prodNoJobs', servers.prodNoJobs],
    ['prodPg', servers.prodPg],
    ['prodPgNoJobs', servers.prodPgNoJobs],
  ]);
  log('compile-cost micro-benchmark');
  const compile = await compileCost();
  const finishedAt = new Date();
  const loadAfter = os.loadavg()[0];
  await cleanup();

  // The media and content sections (scripts/bench-media.mjs, scripts/bench-content.mjs) stay as they were.
  const kept = markedSections(OUT);
  const own = report({
    startedAt,
    finishedAt,
    results,
    compile,
    idle,
    pgInfo,
    notes,
    listTotal: listBody.totalElements,
    meBytes: Buffer.byteLength(meBody),
    loadBefore,
    loadAfter,
    servers,
  });
  writeFileSync(OUT, kept ? `${own}\n${kept}\n` : own);
  log(`wrote ${OUT}`);
  const g = (id) => results.get(id);
  for (const route of ['health', 'me']) {
    const r = g(`${route}/prod`).rps / g(`${route}/hono`).rps;
    log(`${route}: production / bare Hono = ${pct(r)} (goal ≥ ${pct(GOAL_PROD_VS_HONO)}: ${r >= GOAL_PROD_VS_HONO ? 'met' : 'NOT met'})`);
  }
  for (const [on, off, goalRatio] of [
    ['me/hono', 'me/honoNoCache', GOAL_CACHE_PGLITE],
    ['me/honoPg', 'me/honoPgNoCache', GOAL_CACHE_PG],
  ]) {
    if (!g(on) || !g(off)) continue;
    const r = g(on).rps / g(off).rps;
    log(`${on}: token cache on / off = ${r.toFixed(1)}× (goal ≥ ${goalRatio}×: ${r >= goalRatio ? 'met' : 'NOT met'})`);
  }
}

function report({ startedAt, finishedAt, results, compile, idle, pgInfo, notes, listTotal, meBytes, loadBefore, loadAfter }) {
  const m = machine();
  const g = (id) => results.get(id);
  const lines = [];
  const push = (...l) => lines.push(...l);
  const goal = (ok) => (ok ? 'yes' : '**no**');

  push(
    '# Benchmarks',
    '',
    '_Generated by `npm run bench` (scripts/bench.mjs); rewritten on every run. Absolute numbers depend on the machine and on whatever else runs on it; compare the ratios, which are measured in the same run on the same machine._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}`,
    `- Node.js: ${m.node}`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- 1-minute load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (other work on the machine shows here)`,
    '',
    '## Method',
    '',
    `- Load generator: autocannon ${autocannonVersion()}, called programmatically in one process (no workers), ${CONNECTIONS} connections, no pipelining, keep-alive, all on 127.0.0.1.`,
    `- Each case: ${WARMUP} s warm-up (discarded), then ${DURATION} s measured. All cases run ${ROUNDS}× interleaved (round 1 of every case, then round 2, …); the tables show the mean over the rounds, with the lowest–highest req/s of the rounds in parentheses.`,
    hasTaskset
      ? `- CPU: the load generator is pinned to core ${LOADGEN_CPU}, every server to core ${SERVER_CPU} (\`taskset\`). Servers not under test are paused (SIGSTOP) so the measured one has its core to itself. PostgreSQL's own processes are not pinned and share both cores.`
      : '- CPU: not pinned (taskset unavailable or a single core).',
    "- req/s is autocannon's mean of per-second samples; p50/p99 are latencies in ms. Throughput is the figure compared; a ratio is this row's req/s divided by the baseline row's.",
    '- Servers, each with a fresh temporary `DATA_DIR` (PGlite) or the `signage_bench` database (PostgreSQL), `NODE_ENV=production`, `LOG_LEVEL=warn`:',
    "  - **production**: `node dist/server/main.mjs`, the custom server (API paths → Hono through `getRequestListener(app.fetch)`, the rest → Next), job queue enabled as deployed; a second instance with `JOBS_ENABLED=false` isolates the routing cost from the job queue's background work (section 5 measures that alone).",
    `  - **bare Hono**: \`bench/hono-server.ts\` — the same \`createApp(deps)\` on \`@hono/node-server\`'s \`serve()\`, opening, migrating and bootstrapping its database as \`server/main.ts\` does, no Next, no job queue; it also seeds ${SEED_USERS} users for section 3.`,
    `  - **bare node:http**: \`bench/bare-server.mjs\` — no framework, no database. \`/healthz\` answers \`{"status":"ok"}\`; \`/api/v2/user/me\` answers a **constant** JSON, the ${meBytes}-byte body the Hono server returned for the same administrator (same shape and size), without checking the token. It is the ceiling of Node's HTTP stack on this machine, not a comparable implementation.`,
    "- `GET /api/v2/user/me` sends `Authorization: Bearer <access_token>` from `POST /oauth/token` (password grant). With the token cache (the default, `AUTH_CACHE_SIZE=10000`) the verified token and the caller's own view come from memory; section 4 compares the same server with `AUTH_CACHE_SIZE=0`, where each request looks the token up and reads the user (two queries).",
    '',
  );
  if (notes.length) push(...notes.map((n) => `- Note: ${n}`), '');

  // Section 1
  push(
    '## 1. Serving path (PGlite)',
    '',
    `Goal: the production server reaches ≥ ${pct(GOAL_PROD_VS_HONO)} of the bare Hono server's throughput.`,
    '',
  );
  for (const [route, title] of [
    ['health', '`GET /healthz` (no database)'],
    ['me', '`GET /api/v2/user/me` (bearer token, token cache on)'],
  ]) {
    const hono = g(`${route}/hono`);
    const bare = g(`${route}/bare`);
    push(
      `### ${title}`,
      '',
      '| Server | req/s | p50 ms | p99 ms | vs bare Hono | vs node:http | goal met |',
      '|---|---:|---:|---:|---:|---:|---|',
    );
    for (const [key, label, isGoal] of [
      ['prod', 'production (Next attached, jobs on)', true],
      ['prodNoJobs', 'production (Next attached, JOBS_ENABLED=false)', true],
      ['hono', 'bare Hono (`serve()`) — baseline', false],
      ['bare', route === 'me' ? 'bare node:http (constant JSON)' : 'bare node:http', false],
    ]) {
      const r = g(`${route}/${key}`);
      if (!r) continue;
      const ratio = r.rps / hono.rps;
      push(
        `| ${label} | ${fmt(r.rps)}${spread(r)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${pct(ratio)} | ${pct(r.rps / bare.rps)} | ${isGoal ? goal(ratio >= GOAL_PROD_VS_HONO) : '—'}${flag(r)} |`,
      );
    }
    push('');
  }

  // Section 2
  push('## 2. PGlite and PostgreSQL', '');
  if (!pgInfo.url) {
    push(`PostgreSQL ${pgInfo.note}.`, '');
  } else {
    push(
      'Baseline: the same server on PGlite (from section 1, same run). PostgreSQL runs on the same machine over TCP on 127.0.0.1 (pool of 10), unpinned, so its backends compete with the load generator and the server for the two cores.',
      '',
    );
    for (const [route, title] of [
      ['health', '`GET /healthz`'],
      ['me', '`GET /api/v2/user/me`'],
    ]) {
      push(
        `### ${title}`,
        '',
        '| Server | Database | req/s | p50 ms | p99 ms | vs PGlite | production vs bare Hono | goal met (≥ 90 %) |',
        '|---|---|---:|---:|---:|---:|---:|---|',
      );
      for (const [key, label, db, base, peer] of [
        ['hono', 'bare Hono', 'PGlite', 'hono', undefined],
        ['honoPg', 'bare Hono', 'PostgreSQL', 'hono', undefined],
        ['prod', 'production', 'PGlite', 'prod', 'hono'],
        ['prodPg', 'production', 'PostgreSQL', 'prod', 'honoPg'],
      ]) {
        const r = g(`${route}/${key}`);
        if (!r) continue;
        const vsPeer = peer ? r.rps / g(`${route}/${peer}`).rps : undefined;
        push(
          `| ${label} | ${db} | ${fmt(r.rps)}${spread(r)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${pct(r.rps / g(`${route}/${base}`).rps)} | ${pct(vsPeer)} | ${peer ? goal(vsPeer >= GOAL_PROD_VS_HONO) : '—'}${flag(r)} |`,
        );
      }
      push('');
    }
  }

  // Section 3
  push(
    '## 3. Query compiler cost',
    '',
    `Request: \`GET ${decodeURIComponent(LIST_PATH).replace(/\|/g, '\\|')}\` (URL-encoded on the wire; \`%2C\` inside the search value is the encoded comma of the \`∈\` list) on the bare Hono server, ${SEED_USERS + 1} users, ${listTotal} match, page of 20.`,
    '',
    `In-process (\`bench/compile-cost.ts\`, on the server core, ${fmt(compile.iterations)} iterations after warm-up). **The compiler** — \`compileSearch\` + \`buildProjection\` + \`compileSort\` from scratch, i.e. a cache miss — costs **${fmt(compile.compilerMicros, 1)} µs** per request (alone: compileSearch ${fmt(compile.stages.compileSearch, 1)} µs, buildProjection ${fmt(compile.stages.buildProjection, 1)} µs, compileSort ${fmt(compile.stages.compileSort, 1)} µs). A repeated request hits the compile cache: **${fmt(compile.cachedMicros, 2)} µs**. Drizzle's rendering of the statement (\`PgDialect().sqlToQuery\`, ${compile.sqlLength} characters, ${compile.params} parameters), which every drizzle query pays, adds ${fmt(compile.stages.sqlToQuery, 1)} µs; compiler + assembly + rendering together: ${fmt(compile.totalMicros, 1)} µs. The goal is judged on the compiler's cache-miss cost; the last column shows the whole path including drizzle's rendering for comparison.`,
    '',
    `The request's time is read three ways: the mean latency under load (${CONNECTIONS} connections, includes queueing), the mean latency of one connection (no queueing), and the server time per request at saturation (1 / req/s: the server is one thread, so this is its whole CPU cost per request, database included on PGlite). The goal is judged on the strictest, the last.`,
    '',
    `| Database | connections | req/s | p50 ms | p99 ms | mean ms | compiler share of mean latency | compiler share of 1/(req/s) | goal met (< ${pct(GOAL_COMPILE_SHARE)}) | compiler + rendering share of 1/(req/s) | cache-hit share of 1/(req/s) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  );
  for (const [key, db] of [
    ['hono', 'PGlite'],
    ['honoPg', 'PostgreSQL'],
  ]) {
    for (const [prefix, conns] of [
      ['list', CONNECTIONS],
      ['list1', 1],
    ]) {
      const r = g(`${prefix}/${key}`);
      if (!r) continue;
      const shareMean = compile.compilerMicros / 1000 / r.mean;
      const shareService = (compile.compilerMicros / 1e6) * r.rps;
      const shareWithRendering = (compile.totalMicros / 1e6) * r.rps;
      const shareCached = (compile.cachedMicros / 1e6) * r.rps;
      const judged = conns === CONNECTIONS ? shareService : shareMean;
      push(
        `| ${db} | ${conns} | ${fmt(r.rps)}${spread(r)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.mean, 2)} | ${pct(shareMean)} | ${conns === CONNECTIONS ? pct(shareService) : '—'} | ${goal(judged < GOAL_COMPILE_SHARE)}${flag(r)} | ${conns === CONNECTIONS ? pct(shareWithRendering) : '—'} | ${conns === CONNECTIONS ? pct(shareCached) : '—'} |`,
      );
    }
  }
  push('', 'Generated SQL:', '', '```sql', compile.sql, '```', '');

  push(
    '## 4. Token cache (`GET /api/v2/user/me`)',
    '',
    `Baseline: the same bare Hono server with \`AUTH_CACHE_SIZE=0\` (every request looks its token up and reads the user, as before the cache), same run. Goal: ≥ ${GOAL_CACHE_PGLITE}× on PGlite, ≥ ${GOAL_CACHE_PG}× on PostgreSQL.`,
    '',
    '| Database | token cache | req/s | p50 ms | p99 ms | vs cache off | goal met |',
    '|---|---|---:|---:|---:|---:|---|',
  );
  for (const [db, on, off, goalRatio] of [
    ['PGlite', 'me/hono', 'me/honoNoCache', GOAL_CACHE_PGLITE],
    ['PostgreSQL', 'me/honoPg', 'me/honoPgNoCache', GOAL_CACHE_PG],
  ]) {
    const a = g(on);
    const b = g(off);
    if (!a || !b) continue;
    push(
      `| ${db} | off (\`AUTH_CACHE_SIZE=0\`) — baseline | ${fmt(b.rps)}${spread(b)} | ${fmt(b.p50)} | ${fmt(b.p99)} | 1.0× | —${flag(b)} |`,
    );
    push(
      `| ${db} | on (default) | ${fmt(a.rps)}${spread(a)} | ${fmt(a.p50)} | ${fmt(a.p99)} | ${(a.rps / b.rps).toFixed(1)}× | ${goal(a.rps / b.rps >= goalRatio)}${flag(a)} |`,
    );
  }
  push('');
  if (idle?.size) {
    push(
      '## 5. Idle cost of the job queue',
      '',
      `Each production server alone, paused servers aside, with no request for ${IDLE_SECONDS} s (after 3 s for timers that fell due while it was paused): the CPU time its process used (user + system, \`/proc/<pid>/stat\`), per minute. Baseline: the same server with \`JOBS_ENABLED=false\`, same run. On PGlite the database runs in that process; on PostgreSQL its backends' work is not counted. Jobs on includes the every-minute schedules' own work (mail delivery, the offline sweep, proof-of-play compaction) when a minute turns meanwhile.`,
      '',
      '| Database | production, jobs on: CPU ms per minute | `JOBS_ENABLED=false` — baseline | jobs on − off | share of one core |',
      '|---|---:|---:|---:|---:|',
    );
    for (const [db, on, off] of [
      ['PGlite', 'prod', 'prodNoJobs'],
      ['PostgreSQL', 'prodPg', 'prodPgNoJobs'],
    ]) {
      if (!idle.has(on) || !idle.has(off)) continue;
      const extra = idle.get(on) - idle.get(off);
      push(`| ${db} | ${fmt(idle.get(on))} | ${fmt(idle.get(off))} | ${fmt(extra)} | ${pct(extra / 60_000)} |`);
    }
    push('');
  }
  return `${lines.join('\n')}\n`;
}

function autocannonVersion() {
  try {
    return JSON.parse(
      execFileSync(process.execPath, ['-p', "JSON.stringify(require('autocannon/package.json').version)"], { cwd: root, encoding: 'utf8' }),
    );
  } catch {
    return '';
  }
}

main()
  .then(() => {
    clearTimeout(watchdog);
    process.exit(0);
  })
  .catch(async (err) => {
    process.stderr.write(`[bench] failed: ${err.stack ?? err.message}\n`);
    await cleanup();
    process.exit(1);
  });
