// Process, PostgreSQL and measuring helpers shared by the scripts/bench*.mjs scripts: pinning to cores,
// pausing, clean-up on exit, the watchdog, the benchmark servers (bench/*-server.ts), the requests made to
// them and the simulated devices (bench/devices-loadgen.mjs) work the same in all.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import pg from 'pg';

let logPrefix = 'bench';
/** Names the script in every log line (`[bench]`, `[bench-media]`). */
export function setLogPrefix(prefix) {
  logPrefix = prefix;
}
export const log = (msg) => process.stdout.write(`[${logPrefix}] ${msg}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const secret = (bytes) => randomBytes(bytes).toString('base64url');
export const num = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

// ---------------------------------------------------------------- processes and clean-up

const children = new Set();
export const tempDirs = [];
export const cleanupActions = [];
let cleanedUp = false;

export function killNow(child, signal = 'SIGKILL') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill('SIGCONT');
    child.kill(signal);
  } catch {
    // already gone
  }
}

export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => killNow(child, 'SIGKILL'), 8_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    killNow(child, 'SIGTERM');
  });
}

export async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  await Promise.all([...children].map((c) => stopChild(c)));
  for (const action of cleanupActions) {
    try {
      await action();
    } catch (err) {
      log(`clean-up step failed: ${err.message}`);
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

/** Runs a script's `main`: a failure is logged and sets exit code 1; the watchdog is stopped and everything cleaned up either way. */
export function runMain(main, watchdog) {
  return main()
    .catch((err) => {
      log(`failed: ${err.stack ?? err.message}`);
      process.exitCode = 1;
    })
    .finally(async () => {
      clearTimeout(watchdog);
      await cleanup();
    });
}

/** The raw figures of a run as JSON in bench/.out/<name>-results.json (not committed), for a look beyond the report. */
export function saveResults(root, name, { startedAt, finishedAt, pgInfo, results }) {
  mkdirSync(join(root, 'bench', '.out'), { recursive: true });
  writeFileSync(
    join(root, 'bench', '.out', `${name}-results.json`),
    JSON.stringify({ startedAt, finishedAt, pgInfo: { version: pgInfo.version, note: pgInfo.note }, results }, null, 2),
  );
}

/** Clean-up on exit, SIGINT/SIGTERM and after `minutes` (the watchdog). */
export function installGuards(minutes) {
  process.on('exit', () => {
    for (const c of children) killNow(c);
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      log(`${signal}: stopping`);
      cleanup().finally(() => process.exit(130));
    });
  }
  const watchdog = setTimeout(() => {
    log(`watchdog: still running after ${minutes} min, aborting`);
    cleanup().finally(() => process.exit(2));
  }, minutes * 60_000);
  watchdog.unref();
  return watchdog;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export const hasTaskset = process.platform === 'linux' && os.cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
export const SERVER_CPU = String(os.cpus().length - 1);
export const LOADGEN_CPU = '0';

/**
 * Spawns `node args` pinned to the server core (or `cpu`; taskset execs, so the pid is node's); output kept
 * for errors. `ipc: true` opens an IPC channel (`child.send`, `'message'`), as `fork` would.
 */
export function spawnNode(name, args, env, cwd, { cpu = SERVER_CPU, ipc = false } = {}) {
  const [cmd, argv] = hasTaskset ? ['taskset', ['-c', cpu, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])] });
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk.toString()).slice(-16_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.benchName = name;
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function waitForReady(url, child, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.benchName} exited (${child.exitCode}) before it was ready:\n${child.output}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s:\n${child.output}`);
}

export const pause = (server) => server.child.kill('SIGSTOP');
export const resume = (server) => server.child.kill('SIGCONT');

// ---------------------------------------------------------------- CPU of a process and of PostgreSQL's backends

let clockTicks;
/** utime + stime of a process in seconds (`/proc/<pid>/stat`). */
export function cpuSeconds(pid) {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** utime + stime of the PostgreSQL backends serving `database` (their command line names it), in seconds, by pid. */
export function postgresCpu(database) {
  const seconds = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(database)) continue;
      if (!/^\d+ \(postgres/.test(readFileSync(`/proc/${entry}/stat`, 'utf8'))) continue;
      seconds.set(entry, cpuSeconds(entry));
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/** Time a process was runnable but waiting for a core (`/proc/<pid>/schedstat`), in seconds: other work on the machine. */
export const waitSeconds = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;

/**
 * Starts a CPU window on a process (and, with `database`, on that database's PostgreSQL backends); `end()` answers
 * their CPU as shares of one core, the share of the time the process waited for a core, and the load average.
 */
export function cpuWindow(pid, database) {
  const t0 = performance.now();
  const s0 = cpuSeconds(pid);
  const p0 = database ? postgresCpu(database) : undefined;
  const w0 = waitSeconds(pid);
  return {
    end() {
      const wall = (performance.now() - t0) / 1000;
      let postgres;
      if (p0) {
        postgres = 0;
        for (const [backend, t] of postgresCpu(database)) postgres += t - (p0.get(backend) ?? 0);
      }
      return {
        server: (cpuSeconds(pid) - s0) / wall,
        postgres: p0 ? postgres / wall : undefined,
        waited: (waitSeconds(pid) - w0) / wall,
        seconds: wall,
        load: os.loadavg()[0],
      };
    },
  };
}

// ---------------------------------------------------------------- memory of a process

export function procStatus(pid) {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  return { rssMiB: kib('VmRSS') / 1024, hwmMiB: kib('VmHWM') / 1024 };
}

/**
 * Writes dirty pages back and empties the page cache, so each disk measurement starts from the same
 * state (measured: without it, whichever 2 GiB upload ran second was up to 3× slower, whatever the
 * server). Needs root; answers false when the cache could not be dropped (sync still ran).
 */
export function coldCaches() {
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** Resets VmHWM (peak RSS) to the current RSS; answers false when the kernel refuses. */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS every `ms` until stopped; answers the highest sample. */
export function rssSampler(pid, ms = 50) {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, procStatus(pid).rssMiB);
    } catch {
      // process gone
    }
  }, ms);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/**
 * The environment every benchmark server starts with (production mode, fresh secrets, an administrator
 * of the script's own, no inherited database, URL or bucket) and the credentials its clients sign in with.
 */
export function benchServerIdentity() {
  const credentials = { email: 'bench-admin@example.com', password: `Bench-${secret(12)}`, clientSecret: secret(24) };
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    ADMIN_EMAIL: credentials.email,
    ADMIN_PASSWORD: credentials.password,
    AUTH_SECRET: secret(40),
    OAUTH_DEFAULT_CLIENT_SECRET: credentials.clientSecret,
    OAUTH_SHORT_LIVED_CLIENT_SECRET: secret(24),
    LOG_LEVEL: 'warn',
  };
  for (const key of ['DATABASE_URL', 'PUBLIC_URL', 'NEXTAUTH_URL', 'S3_BUCKET']) delete env[key];
  return { env, credentials };
}

/** An access token from the password grant of `default-client` (what the benchmark clients send). */
export async function passwordToken(base, { clientSecret, email, password }) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`default-client:${clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 200 || !body.access_token) throw new Error(`POST ${base}/oauth/token answered ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

// ---------------------------------------------------------------- PostgreSQL

/**
 * The first of `urlVariables` that is set (BENCH_DATABASE_URL by default), or the first local Debian
 * cluster with a fresh `database` (own role of the same name, so the two benchmark scripts never drop
 * each other's). The database is dropped again by the clean-up.
 */
export async function preparePostgres({ database, urlVariables = ['BENCH_DATABASE_URL'] }) {
  if (process.env.BENCH_SKIP_PG === '1') return { note: 'skipped: BENCH_SKIP_PG=1' };
  const variable = urlVariables.find((name) => process.env[name]);
  const given = variable && process.env[variable];
  if (given) {
    const version = await pgVersion(given).catch((err) => ({ error: err.message }));
    if (version.error) return { note: `skipped: ${variable} did not answer (${version.error})` };
    // CHECKPOINT needs superuser or pg_checkpoint; without it the measurements just go on.
    const checkpoint = async () => {
      const client = new pg.Client({ connectionString: given, connectionTimeoutMillis: 5_000 });
      try {
        await client.connect();
        await client.query('CHECKPOINT');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    };
    return { url: given, version, checkpoint, note: `the database from ${variable}` };
  }
  if (spawnSync('pg_lsclusters', ['-h']).status !== 0)
    return { note: `skipped: no ${urlVariables.join('/')} and no local PostgreSQL cluster (pg_lsclusters not found)` };
  const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' }).trim().split('\n')[0];
  if (!line) return { note: 'skipped: no local PostgreSQL cluster' };
  const [ver, cluster, port, status] = line.split(/\s+/);
  let startedByUs = false;
  if (status !== 'online') {
    log(`starting PostgreSQL cluster ${ver}/${cluster}`);
    const r = spawnSync('pg_ctlcluster', [ver, cluster, 'start'], { encoding: 'utf8' });
    if (r.status !== 0) return { note: `skipped: pg_ctlcluster ${ver} ${cluster} start failed: ${(r.stderr || r.stdout).trim()}` };
    startedByUs = true;
    cleanupActions.push(async () => spawnSync('pg_ctlcluster', [ver, cluster, 'stop']));
  }
  const psql = (script) =>
    spawnSync('su', ['postgres', '-c', `psql -p ${port} -v ON_ERROR_STOP=1 -q`], { input: script, encoding: 'utf8', cwd: '/' });
  const drop = [
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid();`,
    `DROP DATABASE IF EXISTS ${database};`,
  ].join('\n');
  const password = secret(18);
  const r = psql(
    [
      drop,
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${database}') THEN CREATE ROLE ${database} LOGIN; END IF; END $$;`,
      `ALTER ROLE ${database} WITH LOGIN PASSWORD '${password}';`,
      `CREATE DATABASE ${database} OWNER ${database};`,
    ].join('\n'),
  );
  if (r.status !== 0) return { note: `skipped: creating the ${database} database failed: ${(r.stderr || r.stdout).trim()}` };
  cleanupActions.unshift(async () => psql(drop));
  const url = `postgres://${database}:${password}@127.0.0.1:${port}/${database}`;
  const version = await pgVersion(url).catch((err) => ({ error: err.message }));
  if (version.error) return { note: `skipped: cannot connect to ${database} (${version.error})` };
  // Disk measurements first let the cluster write back what earlier phases left (the seeded list data):
  // a checkpoint running during an upload or download measured the database's writes, not ours.
  const checkpoint = async () => psql('CHECKPOINT;').status === 0;
  return {
    url,
    version,
    checkpoint,
    note: `local cluster ${ver}/${cluster}${startedByUs ? ' (started for the run, stopped afterwards)' : ' (already running)'}, fresh database ${database} (dropped afterwards)`,
  };
}

export async function pgVersion(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query('show server_version');
    return rows[0].server_version;
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- figures

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
export const fmt = (n, digits = 0) =>
  n === undefined || n === null || Number.isNaN(n)
    ? '—'
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const pct = (r) => (r === undefined || Number.isNaN(r) ? '—' : `${(r * 100).toFixed(1)} %`);
export const ratio = (r) => (r === undefined || Number.isNaN(r) ? '—' : `${r.toFixed(2)}×`);

/** The uuid bench/server-lib.ts's `benchUuid` seeds row `text` with: its md5 with the version-4 and variant bits set. */
export function benchUuid(text) {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

/**
 * The sections other scripts wrote into `file` between their `<!-- name:start -->` and `<!-- name:end -->`
 * markers, joined: scripts/bench.mjs rewrites the file and puts them back after its own part.
 */
export function markedSections(file) {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/<!-- ([\w-]+):start -->[\s\S]*?<!-- \1:end -->/g)].map((m) => m[0]).join('\n\n');
}

/** The Markdown of `section` between the `start` and `end` markers of `file` (appended when they are missing). */
export function writeSection(file, { start, end }, section) {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a >= 0 && b > a) text = `${text.slice(0, a)}${section}${text.slice(b + end.length)}`;
  else text = `${text.replace(/\s*$/, '')}\n\n${section}\n`;
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}

/** The indexes a plan reads and whether it falls back to a sequential scan of `table`. */
export function indexSummary(plan, table) {
  const used = [...plan.matchAll(/(Bitmap Index Scan on|Index Scan using|Index Only Scan using|Index Scan Backward using) (\w+)/g)].map(
    (m) => `${m[2]} (${m[1].replace(/ (on|using)$/, '')})`,
  );
  const seq = new RegExp(`Seq Scan on ${table}\\b`).test(plan);
  const and = /BitmapAnd/.test(plan) ? ', combined with BitmapAnd' : '';
  // An index read whole and filtered afterwards is as bad as a sequential scan.
  const removed = Math.max(0, ...[...plan.matchAll(/Rows Removed by Filter: (\d+)/g)].map((m) => Number(m[1])));
  const filtered = removed >= 1000 ? `; **${removed.toLocaleString('en-US')} rows removed by a filter**` : '';
  return `${used.length ? [...new Set(used)].join(', ') : 'no index'}${and}${seq ? `; **sequential scan on ${table}**` : '; no sequential scan'}${filtered}`;
}

// ---------------------------------------------------------------- benchmark servers and requests

/**
 * Starts a benchmark server (`node --import tsx <script>`, pinned to the server core) with a fresh temporary
 * `DATA_DIR`, waits for `/readyz` and its JSON start line (`{"benchServer":…}`), signs in. `env` is the
 * whole environment (benchServerIdentity's plus the script's seeding variables); `databaseUrl` selects
 * PostgreSQL; `nodeArgs` go before the script (`--cpu-prof` to profile it). Answers
 * `{ name, db, base, child, pid, dataDir, token, info, customerId }`.
 */
export async function startBenchServer({
  name,
  script,
  cwd,
  env,
  credentials,
  databaseUrl,
  tempPrefix = 'signage-bench-',
  describe = () => '',
  nodeArgs = [],
}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(os.tmpdir(), tempPrefix));
  tempDirs.push(dataDir);
  const childEnv = { ...env, PORT: String(port), DATA_DIR: dataDir };
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  const started = Date.now();
  const child = spawnNode(name, [...nodeArgs, '--import', 'tsx', script], childEnv, cwd);
  const base = `http://127.0.0.1:${port}`;
  await waitForReady(`${base}/readyz`, child, 600_000);
  let info;
  for (let i = 0; i < 40 && !info; i++) {
    const line = child.output.split('\n').find((l, i, all) => l.startsWith('{"benchServer"') && i < all.length - 1);
    info = line && JSON.parse(line);
    if (!info) await sleep(50);
  }
  if (!info) throw new Error(`${name} printed no start line:\n${child.output}`);
  const token = await passwordToken(base, credentials);
  const server = {
    name,
    db: databaseUrl ? 'PostgreSQL' : 'PGlite',
    base,
    child,
    pid: info.pid,
    dataDir,
    token,
    info,
    customerId: info.customerId,
  };
  log(`${name} ready on :${port} in ${((Date.now() - started) / 1000).toFixed(1)} s${describe(info)}`);
  return server;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One HTTP request over a keep-alive connection (one socket: requests are sequential). `body`: an object
 * (JSON), or `{ stream: n }` to send n generated bytes; `sink: true` counts the response bytes instead of
 * keeping them.
 */
export async function request(server, method, path, options = {}) {
  try {
    return await requestOnce(server, method, path, options);
  } catch (err) {
    // A kept-alive socket the server closed meanwhile (its idle timeout ran out while it was paused): the
    // request never reached it, so it is sent again on a new connection (Node's documented pattern).
    if (!err.reusedSocket || err.code !== 'ECONNRESET') throw err;
    return requestOnce(server, method, path, options);
  }
}

function requestOnce(server, method, path, { body, headers = {}, sink = false } = {}) {
  return new Promise((resolve, reject) => {
    const h = { authorization: `Bearer ${server.token}`, ...headers };
    let payload;
    if (Buffer.isBuffer(body)) {
      // Already JSON (serialised before the clock started).
      payload = body;
      h['content-type'] = 'application/json';
      h['content-length'] = payload.length;
    } else if (body && body.stream === undefined) {
      payload = Buffer.from(JSON.stringify(body));
      h['content-type'] = 'application/json';
      h['content-length'] = payload.length;
    } else if (body) {
      h['content-type'] = 'application/octet-stream';
      h['content-length'] = body.stream;
    }
    const req = http.request(`${server.base}${path}`, { method, headers: h, agent }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => {
        bytes += c.length;
        if (!sink) chunks.push(c);
      });
      res.on('end', () => {
        const text = sink ? '' : Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, bytes, body: json, text, raw: sink ? undefined : Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
    if (payload) req.end(payload);
    else if (body) writeGenerated(req, body.stream).catch(reject);
    else req.end();
  });
}

// A generated request body: one random MiB repeated, written with back-pressure (never the whole body in memory).
let block;
async function writeGenerated(stream, bytes) {
  block ??= randomBytes(2 ** 20);
  let left = bytes;
  while (left > 0) {
    const n = Math.min(left, block.length);
    left -= n;
    if (!stream.write(n === block.length ? block : block.subarray(0, n))) await new Promise((r) => stream.once('drain', r));
  }
  stream.end();
}

export const ok = (res, what, status = 200) => {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 500)}`);
  return res;
};

/**
 * `GET path` under load (autocannon from this process): `warmup` s discarded, then `duration` s measured; the
 * server resumed meanwhile. `clientHeaders(k)`: the headers of connection k (a client of its own, e.g. one
 * device's token each) instead of the administrator's token. `statuses`: answers by status code.
 */
export async function loadCase(server, path, { warmup, duration, connections, clientHeaders }) {
  resume(server);
  try {
    await sleep(200);
    const options = {
      url: `${server.base}${path}`,
      headers: { authorization: `Bearer ${server.token}` },
      connections,
      pipelining: 1,
      timeout: 20,
    };
    const run = (seconds) => {
      let k = 0;
      return autocannon({
        ...options,
        duration: seconds,
        ...(clientHeaders ? { setupClient: (client) => client.setHeaders(clientHeaders(k++ % connections)) } : {}),
      });
    };
    await run(warmup);
    const r = await run(duration);
    const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]));
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, statuses };
  } finally {
    pause(server);
  }
}

/** The mean of interleaved rounds of loadCase, with the lowest and highest req/s. */
export function averageRounds(rounds) {
  const avg = (k) => rounds.reduce((s, x) => s + x[k], 0) / rounds.length;
  const rps = rounds.map((x) => x.rps);
  return {
    rps: avg('rps'),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    p50: avg('p50'),
    p99: avg('p99'),
    non2xx: avg('non2xx'),
    errors: avg('errors'),
  };
}

/** `fn(i)` `count` times in sequence after `warm` unmeasured runs: p50, p95, p99 and mean of its ms, and every sample. */
export async function timedRuns(count, warm, fn) {
  for (let i = 0; i < warm; i++) await fn(i);
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await fn(warm + i);
    times.push(performance.now() - t0);
  }
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    mean: times.reduce((s, x) => s + x, 0) / times.length,
    count,
    samples: times,
  };
}

/** One client, one `GET path` at a time on a keep-alive connection (no queueing), after 20 unmeasured. */
export async function sequential(server, path, count) {
  resume(server);
  try {
    return await timedRuns(count, Math.min(20, count), async () => ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`));
  } finally {
    pause(server);
  }
}

/** `POST endpoint` of a benchmark server (its in-process measurements), resumed meanwhile. */
export async function benchCall(server, endpoint, body) {
  resume(server);
  try {
    const res = await request(server, 'POST', endpoint, { body });
    if (res.status !== 200 || !res.body || res.body.error) throw new Error(`${endpoint}: ${res.status} ${res.text.slice(0, 1000)}`);
    return res.body;
  } finally {
    pause(server);
  }
}

// ---------------------------------------------------------------- simulated devices (bench/devices-loadgen.mjs)

/**
 * `count` load generator processes (bench/devices-loadgen.mjs, or `file` of bench/) pinned to the load generator
 * core, each driven over IPC: `child.call(msg, answerType)` sends `msg` and answers the first message of `answerType`.
 */
export function startLoadgen(root, count, { file = 'devices-loadgen.mjs', name = 'loadgen' } = {}) {
  const workers = [];
  for (let w = 0; w < count; w++) {
    const child = spawnNode(`${name}-${w + 1}`, [join(root, 'bench', file)], { ...process.env, NODE_ENV: 'production' }, root, {
      cpu: LOADGEN_CPU,
      ipc: true,
    });
    const waiting = new Map();
    child.on('message', (msg) => {
      const pending = waiting.get(msg.type);
      waiting.delete(msg.type);
      pending?.resolve(msg);
    });
    child.once('exit', (code) => {
      for (const pending of waiting.values()) pending.reject(new Error(`${child.benchName} exited (${code}):\n${child.output}`));
      waiting.clear();
    });
    child.call = (msg, answer) =>
      new Promise((resolve, reject) => {
        if (child.exitCode !== null) return reject(new Error(`${child.benchName} exited:\n${child.output}`));
        waiting.set(answer, { resolve, reject });
        child.send(msg);
      });
    workers.push(child);
  }
  return workers;
}

/** `msg` to every load generator; their answers of type `answer`. */
export const loadgenAll = (workers, msg, answer) => Promise.all(workers.map((w) => w.call(msg, answer)));

/** The load generators' counters summed (first and last arrival times: earliest and latest); `reset` zeroes them. */
export async function loadgenStats(workers, reset = false) {
  const answers = await loadgenAll(workers, { type: 'stats', reset }, 'stats');
  const sum = (k) => answers.reduce((s, a) => s + a[k], 0);
  const times = (k) => answers.map((a) => a[k]).filter((x) => x !== null);
  const first = (k) => (times(k).length ? Math.min(...times(k)) : null);
  const last = (k) => (times(k).length ? Math.max(...times(k)) : null);
  for (const a of answers) for (const e of a.errorsSeen) log(`load generator: ${e}`);
  return {
    open: sum('open'),
    heartbeats: sum('heartbeats'),
    commands: sum('commands'),
    acks: sum('acks'),
    errors: sum('errors'),
    errorFrames: sum('errorFrames'),
    closes: sum('closes'),
    firstCommandAt: first('firstCommandAt'),
    lastCommandAt: last('lastCommandAt'),
    manifestChanged: sum('manifestChanged'),
    manifestDevices: sum('manifestDevices'),
    firstManifestAt: first('firstManifestAt'),
    lastManifestAt: last('lastManifestAt'),
    byName: mergeByName(answers.map((a) => a.byName ?? {})),
    rssMiB: sum('rssMiB'),
  };
}

/** The load generators' command counts by name summed, with the earliest first and the latest last arrival. */
function mergeByName(list) {
  const merged = {};
  for (const byName of list)
    for (const [name, x] of Object.entries(byName)) {
      const m = (merged[name] ??= { count: 0, firstAt: x.firstAt, lastAt: x.lastAt });
      m.count += x.count;
      m.firstAt = Math.min(m.firstAt, x.firstAt);
      m.lastAt = Math.max(m.lastAt, x.lastAt);
    }
  return merged;
}
