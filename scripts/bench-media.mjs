#!/usr/bin/env node
// `npm run bench:media` (and the second half of `npm run bench`): the media library's benchmarks, each
// against a baseline measured in the same run, written to the media section of docs/benchmarks.md
// (between <!-- media:start --> and <!-- media:end -->; the rest of the file is left as it is).
//
//   1. List: GET /api/v2/file with a typical search over 100 000 files in 1 000 folders, at 16
//      concurrent clients and one sequential client, against the same SQL run on the database in
//      the server process (+ JSON serialisation); the count trick (size=1&select=id) beside it.
//      On PGlite and on PostgreSQL (local Debian cluster or BENCH_DATABASE_URL; skipped when absent).
//   2. Upload: a 2 GiB file (and a smaller one) through the chunked part endpoint on local storage,
//      against `dd` writing the same number of bytes to the same file system; the server's peak RSS.
//   3. Download: full reads and random Range reads of that file, against reading it from disk.
//
// Options (environment): BENCH_MEDIA_QUICK=1 (small sizes, short runs), BENCH_MEDIA_FILES (100000),
// BENCH_MEDIA_FOLDERS (1000), BENCH_UPLOAD_MIB (2048), BENCH_UPLOAD_SMALL_MIB (256), BENCH_PART_MIB (32),
// BENCH_DURATION (s, 5), BENCH_WARMUP (s, 2), BENCH_ROUNDS (3), BENCH_MEDIA_CONNECTIONS (16),
// BENCH_SEQUENTIAL (requests of the one-client run, 200), BENCH_BASELINE_RUNS (200),
// BENCH_RANGE_READS (100), BENCH_RANGE_KIB (256), BENCH_MEDIA_ONLY (comma list of list,upload,download),
// BENCH_SKIP_PG=1, BENCH_DATABASE_URL, BENCH_OUT (docs/benchmarks.md).
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  averageRounds,
  benchCall,
  benchServerIdentity,
  cleanup,
  coldCaches,
  fmt,
  hasTaskset,
  indexSummary,
  installGuards,
  loadCase,
  log,
  machine,
  num,
  ok,
  pause,
  pct,
  percentile,
  preparePostgres,
  procStatus,
  ratio,
  request,
  resetPeakRss,
  resume,
  rssSampler,
  sequential,
  setLogPrefix,
  sleep,
  startBenchServer,
  stopChild,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-media');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_MEDIA_QUICK === '1';
const MiB = 2 ** 20;
const FILES = num('BENCH_MEDIA_FILES', QUICK ? 10_000 : 100_000);
const FOLDERS = num('BENCH_MEDIA_FOLDERS', 1000);
const UPLOAD_MIB = num('BENCH_UPLOAD_MIB', QUICK ? 256 : 2048);
const UPLOAD_SMALL_MIB = num('BENCH_UPLOAD_SMALL_MIB', QUICK ? 64 : 256);
const PART_MIB = num('BENCH_PART_MIB', 32);
const DURATION = num('BENCH_DURATION', QUICK ? 2 : 5);
const WARMUP = num('BENCH_WARMUP', QUICK ? 1 : 2);
const ROUNDS = num('BENCH_ROUNDS', QUICK ? 1 : 3);
const CONNECTIONS = num('BENCH_MEDIA_CONNECTIONS', 16);
const SEQUENTIAL = num('BENCH_SEQUENTIAL', QUICK ? 50 : 200);
const BASELINE_RUNS = num('BENCH_BASELINE_RUNS', QUICK ? 50 : 200);
const RANGE_READS = num('BENCH_RANGE_READS', 100);
const RANGE_KIB = num('BENCH_RANGE_KIB', 256);
const ONLY = new Set((process.env.BENCH_MEDIA_ONLY ?? 'list,upload,download').split(',').map((s) => s.trim()));
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const GOAL_LIST_RATIO = 2;
const GOAL_UPLOAD_SHARE = 0.7;
const GOAL_RSS_MIB = 300;
const START = '<!-- media:start -->';
const END = '<!-- media:end -->';

const { env: baseEnv, credentials } = benchServerIdentity();

const watchdog = installGuards(15);
// Whether this run may empty the page cache between disk measurements (root); said in the report.
const CACHES_DROPPABLE = coldCaches();

// ---------------------------------------------------------------- servers and requests

function startServer({ name, databaseUrl, seedFiles = 0 }) {
  return startBenchServer({
    name,
    script: join(root, 'bench', 'media-server.ts'),
    cwd: root,
    env: { ...baseEnv, BENCH_SEED_FILES: String(seedFiles), BENCH_SEED_FOLDERS: String(FOLDERS) },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-media-',
    describe: (info) => (info.seed ? ` (seeded ${info.seed.files} files in ${info.seed.seconds.toFixed(1)} s)` : ''),
  });
}

// ---------------------------------------------------------------- 1. list

const loadOptions = { warmup: WARMUP, duration: DURATION, connections: CONNECTIONS };

function baselineOf(server, path) {
  return benchCall(server, '/__bench/baseline', { path, authorization: `Bearer ${server.token}`, runs: BASELINE_RUNS });
}

function listPaths(server) {
  const folder = server.info.seed.level1FolderIds[0];
  const search = `tags:promo,name:sale,fileFolderPath:${folder}`;
  const q = (extra) => `/api/v2/file?${new URLSearchParams({ customerId: String(server.customerId), search, ...extra })}`;
  return { search, page: q({ size: '50' }), count: q({ size: '1', select: 'id' }) };
}

async function listBenchmark(pgInfo, notes) {
  const servers = [await startServer({ name: 'media server (PGlite)', seedFiles: FILES })];
  pause(servers[0]);
  if (pgInfo.url) {
    try {
      servers.push(await startServer({ name: 'media server (PostgreSQL)', databaseUrl: pgInfo.url, seedFiles: FILES }));
      pause(servers[1]);
    } catch (err) {
      notes.push(`PostgreSQL list benchmark skipped: the server did not start (${err.message.split('\n')[0]})`);
    }
  }
  const results = [];
  for (const server of servers) {
    const paths = listPaths(server);
    resume(server);
    const page = ok(await request(server, 'GET', paths.page), 'the list request');
    const count = ok(await request(server, 'GET', paths.count), 'the count request');
    pause(server);
    if (page.body.totalElements !== count.body.totalElements)
      notes.push(`${server.db}: page and count disagree (${page.body.totalElements} vs ${count.body.totalElements})`);
    log(`${server.db}: search matches ${page.body.totalElements} of ${FILES} files; page ${page.bytes} bytes`);
    results.push({
      server,
      paths,
      search: paths.search,
      total: page.body.totalElements,
      pageBytes: page.bytes,
      countBytes: count.bytes,
      load: { page: [], count: [] },
    });
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const r of results) {
      for (const kind of ['page', 'count']) {
        const s = await loadCase(r.server, r.paths[kind], loadOptions);
        r.load[kind].push(s);
        log(
          `round ${round}/${ROUNDS} ${r.server.db} ${kind}: ${Math.round(s.rps)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms${s.non2xx || s.errors ? `, NON-2XX ${s.non2xx}, errors ${s.errors}` : ''}`,
        );
      }
    }
  }
  for (const r of results) {
    r.seq = { page: await sequential(r.server, r.paths.page, SEQUENTIAL), count: await sequential(r.server, r.paths.count, SEQUENTIAL) };
    r.baseline = { page: await baselineOf(r.server, r.paths.page), count: await baselineOf(r.server, r.paths.count) };
    log(
      `${r.server.db}: one client p50 page ${r.seq.page.p50.toFixed(2)} ms, count ${r.seq.count.p50.toFixed(2)} ms; raw SQL + JSON p50 page ${r.baseline.page.p50.total.toFixed(2)} ms, count ${r.baseline.count.p50.total.toFixed(2)} ms`,
    );
    await stopChild(r.server.child);
  }
  for (const r of results) {
    for (const kind of ['page', 'count']) r.load[kind] = averageRounds(r.load[kind]);
  }
  return results;
}

// ---------------------------------------------------------------- 2. upload

function timed(fn) {
  const t0 = performance.now();
  const value = fn();
  return { value, ms: performance.now() - t0 };
}

function ddBaseline(dir, sizeMiB, fsync) {
  const file = join(dir, `dd-${process.pid}.bin`);
  coldCaches();
  const count = Math.ceil(sizeMiB / PART_MIB);
  const args = ['if=/dev/zero', `of=${file}`, `bs=${PART_MIB}M`, `count=${count}`, ...(fsync ? ['conv=fsync'] : []), 'status=none'];
  const { value: r, ms } = timed(() => spawnSync('dd', args, { encoding: 'utf8' }));
  if (r.status !== 0) throw new Error(`dd ${args.join(' ')} failed: ${r.stderr}`);
  const bytes = statSync(file).size;
  rmSync(file, { force: true });
  spawnSync('sync');
  return { command: `dd ${args.join(' ').replace(file, '<DATA_DIR>/dd.bin')}`, bytes, ms, mbps: bytes / MiB / (ms / 1000) };
}

async function upload(server, sizeMiB) {
  const size = sizeMiB * MiB;
  const totalChunks = Math.ceil(sizeMiB / PART_MIB);
  const cust = `customerId=${server.customerId}`;
  coldCaches();
  resetPeakRss(server.pid);
  const before = procStatus(server.pid);
  const stopSampling = rssSampler(server.pid);
  const t0 = performance.now();
  const init = ok(
    await request(server, 'POST', `/api/v2/file/upload/init?${cust}`, {
      body: { name: `bench-${sizeMiB}MiB.mp4`, size, totalChunks, contentType: 'video/mp4' },
    }),
    'upload init',
  );
  const { uploadId, maxChunkSize } = init.body;
  const t1 = performance.now();
  for (let n = 1; n <= totalChunks; n++) {
    const length = n < totalChunks ? maxChunkSize : size - (totalChunks - 1) * maxChunkSize;
    ok(await request(server, 'PUT', `/api/v2/file/upload/${uploadId}/part/${n}?${cust}`, { body: { stream: length } }), `part ${n}`);
  }
  const t2 = performance.now();
  const file = ok(await request(server, 'POST', `/api/v2/file/upload/${uploadId}/complete?${cust}`), 'upload complete').body;
  const t3 = performance.now();
  const sampledPeak = stopSampling();
  const after = procStatus(server.pid);
  const blob = join(server.dataDir, 'storage', 'customer', String(file.customerId ?? server.customerId), 'files', file.id);
  const { ms: syncMs } = timed(() => spawnSync('sync', ['-f', blob]));
  const stored = existsSync(blob) ? statSync(blob).size : undefined;
  if (stored !== size) throw new Error(`the uploaded blob ${blob} has ${stored} bytes, expected ${size}`);
  const mbps = (ms) => sizeMiB / (ms / 1000);
  return {
    sizeMiB,
    totalChunks,
    maxChunkSize,
    file,
    blob,
    ms: { init: t1 - t0, parts: t2 - t1, complete: t3 - t2, total: t3 - t0, sync: syncMs },
    mbps: { parts: mbps(t2 - t1), total: mbps(t3 - t0), durable: mbps(t3 - t0 + syncMs) },
    rss: { before: before.rssMiB, peak: after.hwmMiB, sampledPeak, after: after.rssMiB },
  };
}

/**
 * Both sizes on a PGlite-backed and (when available) a PostgreSQL-backed server: with PGlite the
 * embedded database lives in the server process and dominates its RSS; with PostgreSQL the RSS is
 * the Node process alone. `dd` runs once per size, before the API uploads.
 */
async function uploadBenchmark(pgInfo, notes) {
  const servers = [await startServer({ name: 'media server (PGlite, uploads)' })];
  pause(servers[0]);
  if (pgInfo.url) {
    try {
      servers.push(await startServer({ name: 'media server (PostgreSQL, uploads)', databaseUrl: pgInfo.url }));
      pause(servers[1]);
    } catch (err) {
      notes.push(`PostgreSQL upload benchmark skipped: the server did not start (${err.message.split('\n')[0]})`);
    }
  }
  const rows = [];
  if (pgInfo.checkpoint && !(await pgInfo.checkpoint()))
    notes.push('CHECKPOINT before the disk measurements was refused; PostgreSQL may have been writing back during them');
  for (const sizeMiB of [UPLOAD_SMALL_MIB, UPLOAD_MIB]) {
    // dd conv=fsync before and after the API uploads (interleaved), the baseline is over both runs.
    const ddFirst = ddBaseline(servers[0].dataDir, sizeMiB, true);
    const ddNoSync = ddBaseline(servers[0].dataDir, sizeMiB, false);
    const dd = { ...ddFirst, runs: [ddFirst.mbps] };
    const sized = [];
    for (const server of servers) {
      resume(server);
      try {
        await sleep(200);
        const api = await upload(server, sizeMiB);
        log(
          `upload ${sizeMiB} MiB (${server.db}): ${api.mbps.total.toFixed(0)} MiB/s (${api.mbps.durable.toFixed(0)} with sync); RSS idle ${api.rss.before.toFixed(0)} MiB, peak ${api.rss.peak.toFixed(0)} MiB`,
        );
        sized.push({ sizeMiB, db: server.db, server, dd, ddNoSync, api });
      } finally {
        pause(server);
      }
    }
    const ddLast = ddBaseline(servers[0].dataDir, sizeMiB, true);
    dd.runs.push(ddLast.mbps);
    dd.ms = ddFirst.ms + ddLast.ms;
    dd.mbps = (ddFirst.bytes + ddLast.bytes) / MiB / (dd.ms / 1000);
    log(
      `dd ${sizeMiB} MiB: conv=fsync ${dd.runs.map((x) => x.toFixed(0)).join(' and ')} MiB/s (${dd.mbps.toFixed(0)} over both), without ${ddNoSync.mbps.toFixed(0)} MiB/s`,
    );
    rows.push(...sized);
  }
  return { servers, rows };
}

// ---------------------------------------------------------------- 3. download

async function readDisk(file) {
  const t0 = performance.now();
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) bytes += chunk.length;
  return { bytes, ms: performance.now() - t0 };
}

async function readApi(server, path) {
  const t0 = performance.now();
  const res = ok(await request(server, 'GET', path, { sink: true }), `GET ${path}`);
  return { bytes: res.bytes, ms: performance.now() - t0 };
}

function offsets(size, length, count) {
  let x = 0x2545f491; // fixed seed: the same ranges every run
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, () => Math.floor(next() * (size - length)));
}

async function downloadBenchmark(server, uploaded) {
  resume(server);
  try {
    await sleep(200);
    return { db: server.db, ...(await downloadOf(server, uploaded)) };
  } finally {
    pause(server);
  }
}

async function downloadOf(server, uploaded) {
  const { file, blob, sizeMiB } = uploaded;
  const size = sizeMiB * MiB;
  const path = `/api/storage/customer/${file.customerId ?? server.customerId}/files/${file.id}`;
  const full = { disk: [], api: [] };
  // Both read from the disk, not from the page cache the upload left behind.
  for (let round = 0; round < 2; round++) {
    coldCaches();
    full.disk.push(await readDisk(blob));
    coldCaches();
    full.api.push(await readApi(server, path));
  }
  for (const r of full.api) if (r.bytes !== size) throw new Error(`GET ${path} sent ${r.bytes} bytes, expected ${size}`);
  const length = RANGE_KIB * 1024;
  const starts = offsets(size, length, RANGE_READS);
  const fh = await open(blob, 'r');
  const buf = Buffer.alloc(length);
  const disk = [];
  const api = [];
  try {
    for (const [i, start] of starts.entries()) {
      let t0 = performance.now();
      await fh.read(buf, 0, length, start);
      disk.push(performance.now() - t0);
      t0 = performance.now();
      const res = await request(server, 'GET', path, { headers: { range: `bytes=${start}-${start + length - 1}` } });
      api.push(performance.now() - t0);
      ok(res, `GET ${path} Range`, 206);
      if (res.bytes !== length || (i < 5 && !res.raw.equals(buf)))
        throw new Error(`the range ${start}+${length} came back wrong (${res.bytes} bytes)`);
    }
  } finally {
    await fh.close();
  }
  const mbps = (rs) => rs.reduce((s, r) => s + r.bytes, 0) / MiB / (rs.reduce((s, r) => s + r.ms, 0) / 1000);
  const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    sizeMiB,
    full: { disk: mbps(full.disk), api: mbps(full.api) },
    range: {
      length,
      count: starts.length,
      disk: { mean: mean(disk), p50: percentile(disk, 50), p99: percentile(disk, 99) },
      api: { mean: mean(api), p50: percentile(api, 50), p99: percentile(api, 99) },
    },
  };
}

// ---------------------------------------------------------------- report

function report({ startedAt, finishedAt, pgInfo, notes, list, uploads, download, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const goal = (okay) => (okay ? 'yes' : '**no**');
  push(
    START,
    '## Media library (`npm run bench:media`)',
    '',
    "_Written by scripts/bench-media.mjs into this marked section only (the rest of the file is scripts/bench.mjs's). Each figure is compared with a baseline measured in the same run on the same machine._",
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)${QUICK ? ' — **quick mode** (BENCH_MEDIA_QUICK=1: smaller data, shorter runs)' : ''}`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- 1-minute load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (other work on the machine shows here)`,
    `- Servers: \`bench/media-server.ts\` — the production \`createApp\` on \`@hono/node-server\` (as \`bench/hono-server.ts\`), \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, a fresh temporary \`DATA_DIR\` (PGlite data and local blob storage) on the same disk as the \`dd\` baseline. ${hasTaskset ? `Servers pinned to core ${SERVER_CPU}, the load generator / client (this script) to core ${LOADGEN_CPU} (\`taskset\`); servers not under test are paused (SIGSTOP). PostgreSQL's backends are not pinned.` : 'No CPU pinning (taskset unavailable).'}`,
    '',
  );
  if (notes.length) push(...notes.map((n) => `- Note: ${n}`), '');
  push(...summary({ list, uploads, download }), '');

  if (list) {
    const first = list[0];
    push(
      '### 1. List: `GET /api/v2/file` with a typical search',
      '',
      `Data: one tenant with ${fmt(FILES)} files in ${fmt(FOLDERS)} folders three levels deep (10 / 90 / ${fmt(FOLDERS - 100)}), seeded with \`generate_series\` SQL in the server process, then \`ANALYZE\`. Names are \`<word>-<word>-<n>.<ext>\` from 12 × 9 words, 0–2 tags of 16 per file.`,
      `Search: \`${first.search ?? listPaths(first.server).search}\` — tag + name contains + recursive folder (a top-level folder, about a tenth of the files); it matches **${fmt(first.total)}** files. Page: \`size=50\` (default projection \`*,creator\`, ${fmt(first.pageBytes)} bytes); count trick: \`size=1&select=id\` (${fmt(first.countBytes)} bytes).`,
      '',
      `- Under load: autocannon, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured, ${ROUNDS} interleaved rounds (mean; lowest–highest req/s in parentheses).`,
      `- One client: ${SEQUENTIAL} sequential requests on a keep-alive connection after 20 unmeasured ones (no queueing; what the goal compares).`,
      `- Baseline: the statements the API sent for the same request on \`file\` (captured once through drizzle's logger), run directly on the driver in the server process (PGlite \`query\` / node-postgres \`pool.query\`), ${BASELINE_RUNS} sequential runs after 20 unmeasured, p50 of (query + \`JSON.stringify\` of the rows). The API's token look-up and tenant-scope statements (prepared statements, not captured) are not part of the baseline.`,
      `- In-process app: the same request through \`app.fetch\` inside the server process (no socket, no HTTP parsing), ${BASELINE_RUNS} sequential runs — it separates the HTTP layer from the handler.`,
      `- Goal: API p50 (one client) ≤ ${GOAL_LIST_RATIO}× the baseline p50; the count trick not slower than the page (p50 one client, and req/s within 5 % noise).`,
      '',
      `| Database | Request | req/s at ${CONNECTIONS} | p50 ms at ${CONNECTIONS} | p99 ms at ${CONNECTIONS} | p50 ms, 1 client | p99 ms, 1 client | in-process app p50 ms | raw SQL p50 ms | + JSON p50 ms | API p50 / baseline | goal met |`,
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    );
    for (const r of list) {
      for (const kind of ['page', 'count']) {
        const l = r.load[kind];
        const b = r.baseline[kind];
        const s = r.seq[kind];
        const x = s.p50 / b.p50.total;
        const label = kind === 'page' ? '`size=50`' : '`size=1&select=id`';
        const warn = l.non2xx || l.errors ? ` ⚠ ${fmt(l.non2xx)} non-2xx, ${fmt(l.errors)} errors` : '';
        push(
          `| ${r.server.db} | ${label} | ${fmt(l.rps)} (${fmt(l.rpsMin)}–${fmt(l.rpsMax)}) | ${fmt(l.p50)} | ${fmt(l.p99)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${fmt(b.appInProcess.p50, 2)} | ${fmt(b.p50.query, 2)} | ${fmt(b.p50.total, 2)} | ${ratio(x)} | ${goal(x <= GOAL_LIST_RATIO)}${warn} |`,
        );
      }
    }
    push('', '| Database | count trick p50 (1 client) vs page | count trick req/s vs page | not slower |', '|---|---:|---:|---|');
    for (const r of list) {
      const p = r.seq.count.p50 / r.seq.page.p50;
      const q = r.load.count.rps / r.load.page.rps;
      push(`| ${r.server.db} | ${pct(p)} | ${pct(q)} | ${goal(p <= 1 && q >= 0.95)} |`);
    }
    push('', 'Index use (from EXPLAIN ANALYZE of the captured statements):', '');
    for (const r of list) {
      for (const kind of ['page', 'count'])
        push(`- ${r.server.db}, ${kind === 'page' ? 'page' : 'count trick'}: ${indexSummary(r.baseline[kind].plans.join('\n'), 'file')}`);
    }
    push(
      '',
      'Where one in-process page request spends its time (every statement the driver ran, prepared ones included; one traced run, so only indicative):',
      '',
    );
    for (const r of list) {
      const t = r.baseline.page.trace;
      if (!t) continue;
      push(
        `- ${r.server.db}: ${fmt(t.total, 2)} ms in all, ${t.statements.length} statements taking ${fmt(t.inDriver, 2)} ms in the driver: ${t.statements.map((q) => `\`${q.sql.slice(0, 60).replace(/`/g, "'")}…\` ${fmt(q.ms, 2)} ms`).join('; ')}`,
      );
    }
    push(
      '',
      `With ${CONNECTIONS} clients the p50 includes queueing behind the others (the server is one thread; on PGlite so is the database), so it is not the figure compared with a single raw query.`,
      '',
    );
    const b0 = first.baseline.page;
    push(
      `The page statement (the same text on both databases), parameters \`${JSON.stringify(b0.statements[0].params)}\`:`,
      '',
      '```sql',
      b0.statements.map((st) => st.sql).join(';\n'),
      '```',
      '',
    );
    for (const r of list) {
      for (const kind of ['page', 'count']) {
        push(
          `<details><summary>${r.server.db}, ${kind === 'page' ? 'page' : 'count trick'}: EXPLAIN (ANALYZE, BUFFERS)</summary>`,
          '',
          '```',
          r.baseline[kind].plans.join('\n\n'),
          '```',
          '',
          '</details>',
          '',
        );
      }
    }
  }

  if (uploads) {
    push(
      '### 2. Upload: chunked parts on local storage',
      '',
      `Client: this script, one connection, parts of ${PART_MIB} MiB sent in sequence (\`POST /api/v2/file/upload/init\`, \`PUT …/{id}/part/{n}\` with \`application/octet-stream\`, \`POST …/{id}/complete\`), each body generated from one random 1 MiB block repeated with back-pressure (no file-sized buffer). The server streams each part to its offset in the upload's one data file, computing CRC32 on the way, and \`complete\` renames that file into place (local store). Baseline: \`dd\` writing the same number of bytes into the first server's \`DATA_DIR\` (every \`DATA_DIR\` is on the same file system), exactly as shown; per size \`dd conv=fsync\` runs before and after the API uploads (interleaved) and its figure is over both runs (each run in parentheses), \`dd\` without fsync once; every measurement starts from a cold page cache (\`sync\` and \`/proc/sys/vm/drop_caches\`${CACHES_DROPPABLE ? '' : ' — not permitted in this run: `sync` only'}): without it, whichever 2 GiB upload ran second was up to 3× slower, whatever its database; before them the PostgreSQL cluster is checkpointed, so it is not writing back the list phase's 100,000 rows meanwhile. "API + sync" adds a \`sync -f\` of the finished blob, so it is as durable as \`dd conv=fsync\`; the goal compares those two.`,
      '',
      `Memory: the server's \`VmHWM\` (peak RSS) from \`/proc/<pid>/status\`, reset (\`clear_refs\` 5) right before each upload, beside the highest \`VmRSS\` sampled every 50 ms and the RSS just before the upload ("idle"). On PGlite the embedded database (its WebAssembly memory, about 650 MiB by itself) lives in the server process, so the under-300 MB goal can only be judged on the PostgreSQL-backed server, whose RSS is the Node process alone; "growth" (peak − idle) shows what the upload itself costs on both.`,
      `Goals: API + sync ≥ ${pct(GOAL_UPLOAD_SHARE)} of \`dd conv=fsync\`; peak RSS < ${GOAL_RSS_MIB} MB and flat with file size.`,
      '',
      '| File | Server DB | parts | dd conv=fsync MiB/s | dd (no fsync) MiB/s | API parts only MiB/s | API init→complete MiB/s | API + sync MiB/s | complete s | API + sync / dd conv=fsync | goal met (≥ 70 %) | RSS idle MiB | peak RSS MiB (sampled) | growth MiB | goal met (< 300 MB) |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|',
    );
    for (const r of uploads.rows) {
      const share = r.api.mbps.durable / r.dd.mbps;
      const peakMB = (r.api.rss.peak * MiB) / 1e6;
      push(
        `| ${fmt(r.sizeMiB)} MiB | ${r.db} | ${r.api.totalChunks} × ${fmt(r.api.maxChunkSize / MiB, 1)} MiB | ${fmt(r.dd.mbps)} (${r.dd.runs.map((x) => fmt(x)).join(', ')}) | ${fmt(r.ddNoSync.mbps)} | ${fmt(r.api.mbps.parts)} | ${fmt(r.api.mbps.total)} | ${fmt(r.api.mbps.durable)} | ${fmt(r.api.ms.complete / 1000, 2)} | ${pct(share)} | ${goal(share >= GOAL_UPLOAD_SHARE)} | ${fmt(r.api.rss.before)} | ${fmt(r.api.rss.peak)} (${fmt(r.api.rss.sampledPeak)}) | ${fmt(r.api.rss.peak - r.api.rss.before)} | ${r.db === 'PGlite' ? `${goal(peakMB < GOAL_RSS_MIB)} (embedded DB)` : goal(peakMB < GOAL_RSS_MIB)} |`,
      );
    }
    const ddCommands = [...new Set(uploads.rows.map((r) => r.dd.command))];
    push('', 'dd commands (conv=fsync; the no-fsync column drops `conv=fsync`):', '', ...ddCommands.map((c) => `- \`${c}\``), '');
    for (const db of [...new Set(uploads.rows.map((r) => r.db))]) {
      const rs = uploads.rows.filter((r) => r.db === db);
      if (rs.length < 2) continue;
      const [small, big] = rs;
      push(
        `- Flatness (${db}): peak RSS ${fmt(small.api.rss.peak)} MiB for ${fmt(small.sizeMiB)} MiB, ${fmt(big.api.rss.peak)} MiB for ${fmt(big.sizeMiB)} MiB (${ratio(big.api.rss.peak / small.api.rss.peak)} for ${ratio(big.sizeMiB / small.sizeMiB)} the bytes).`,
      );
    }
    push('');
  }

  if (download && download.length) {
    push(
      '### 3. Download: `GET /api/storage/customer/{c}/files/{id}`',
      '',
      `The ${fmt(download[0].sizeMiB)} MiB file from section 2, through the API (bearer token, one keep-alive connection, body counted and discarded) against the same blob read by this script from disk (\`fs.createReadStream\`, 64 KiB chunks). Full read: 2 interleaved rounds (disk, API, disk, API), MiB/s over both, each from a cold page cache (\`sync\` and \`/proc/sys/vm/drop_caches\` before every read${CACHES_DROPPABLE ? '' : ' — not permitted in this run, so the reads were partly cached'}). Range reads: ${download[0].range.count} reads of ${fmt(download[0].range.length / 1024)} KiB at the same pseudo-random offsets (\`Range: bytes=a-b\`; 206 checked, the first 5 compared byte for byte) against \`FileHandle.read\` (pread) of the same ranges, alternating; after the full reads the file is in the page cache, so these measure the per-request cost.`,
      '',
      '| Server DB | full read disk MiB/s | full read API MiB/s | API / disk | range disk p50 ms | range API p50 ms | range API mean ms | range API p99 ms | API / disk (p50) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const d of download) {
      push(
        `| ${d.db} | ${fmt(d.full.disk)} | ${fmt(d.full.api)} | ${pct(d.full.api / d.full.disk)} | ${fmt(d.range.disk.p50, 3)} | ${fmt(d.range.api.p50, 3)} | ${fmt(d.range.api.mean, 3)} | ${fmt(d.range.api.p99, 3)} | ${ratio(d.range.api.p50 / d.range.disk.p50)} |`,
      );
    }
    push(
      '',
      'No numeric goal is set for downloads; the ratios are the record. A range read through the API includes the HTTP round trip, the bearer-token look-up, the tenant-scope check and a query for the file row.',
      '',
    );
  }
  push(END);
  return lines.join('\n');
}

/** Goals at a glance: one line per goal and database, details in the sections below. */
function summary({ list, uploads, download }) {
  const yes = (okay) => (okay ? 'met' : '**not met**');
  const out = ['**Goals at a glance**', '', '| Goal | Database | Measured | Result |', '|---|---|---|---|'];
  for (const r of list ?? []) {
    const x = r.seq.page.p50 / r.baseline.page.p50.total;
    out.push(
      `| list: API p50 ≤ ${GOAL_LIST_RATIO}× raw SQL + JSON | ${r.server.db} | ${fmt(r.seq.page.p50, 2)} ms vs ${fmt(r.baseline.page.p50.total, 2)} ms = ${ratio(x)} | ${yes(x <= GOAL_LIST_RATIO)} |`,
    );
    const p = r.seq.count.p50 / r.seq.page.p50;
    const q = r.load.count.rps / r.load.page.rps;
    out.push(
      `| list: count trick not slower than the page | ${r.server.db} | p50 ${pct(p)} of the page's, req/s ${pct(q)} | ${yes(p <= 1 && q >= 0.95)} |`,
    );
  }
  const big = (uploads?.rows ?? []).filter((r) => r.sizeMiB === UPLOAD_MIB);
  for (const r of big) {
    const share = r.api.mbps.durable / r.dd.mbps;
    out.push(
      `| upload ${fmt(UPLOAD_MIB)} MiB ≥ ${pct(GOAL_UPLOAD_SHARE)} of dd conv=fsync | ${r.db} | ${fmt(r.api.mbps.durable)} vs ${fmt(r.dd.mbps)} MiB/s = ${pct(share)} (parts alone ${fmt(r.api.mbps.parts)} MiB/s, complete ${fmt(r.api.ms.complete / 1000, 1)} s) | ${yes(share >= GOAL_UPLOAD_SHARE)} |`,
    );
  }
  for (const db of [...new Set(big.map((r) => r.db))]) {
    const rs = (uploads?.rows ?? []).filter((r) => r.db === db);
    const peak = Math.max(...rs.map((r) => r.api.rss.peak));
    const growth = Math.max(...rs.map((r) => r.api.rss.peak - r.api.rss.before));
    const flat = rs.length < 2 || rs.at(-1).api.rss.peak <= rs[0].api.rss.peak * 1.1;
    const under = (peak * MiB) / 1e6 < GOAL_RSS_MIB;
    const verdict =
      db === 'PGlite'
        ? `${yes(flat)} for flatness; the < ${GOAL_RSS_MIB} MB bound cannot hold with the embedded database in the process`
        : yes(flat && under);
    out.push(
      `| upload: peak RSS < ${GOAL_RSS_MIB} MB, flat with size | ${db} | peak ${fmt(peak)} MiB, at most ${fmt(growth)} MiB above idle, ${rs.map((r) => `${fmt(r.api.rss.peak)} MiB at ${fmt(r.sizeMiB)} MiB`).join(', ')} | ${verdict} |`,
    );
  }
  for (const d of download ?? []) {
    out.push(
      `| download (no numeric goal) | ${d.db} | full read ${pct(d.full.api / d.full.disk)} of disk; range read p50 ${fmt(d.range.api.p50, 2)} ms vs ${fmt(d.range.disk.p50, 3)} ms | recorded |`,
    );
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  const notes = [];
  if (hasTaskset) spawnSync('taskset', ['-pc', LOADGEN_CPU, String(process.pid)], { stdio: 'ignore' });
  else notes.push('taskset unavailable or a single core: client and servers were not pinned.');

  let list;
  const pgInfo = await preparePostgres({ database: 'signage_bench_media' });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  if (ONLY.has('list')) list = await listBenchmark(pgInfo, notes);
  let uploads;
  let download;
  if (ONLY.has('upload') || ONLY.has('download')) {
    uploads = await uploadBenchmark(pgInfo, notes);
    if (ONLY.has('download')) {
      download = [];
      for (const r of uploads.rows.filter((x) => x.sizeMiB === UPLOAD_MIB)) {
        const d = await downloadBenchmark(r.server, r.api);
        download.push(d);
        log(
          `download ${d.sizeMiB} MiB (${d.db}): API ${d.full.api.toFixed(0)} MiB/s vs disk ${d.full.disk.toFixed(0)} MiB/s; range p50 ${d.range.api.p50.toFixed(2)} ms vs ${d.range.disk.p50.toFixed(3)} ms`,
        );
      }
    }
    for (const r of uploads.rows) rmSync(r.api.blob, { force: true });
    for (const server of uploads.servers) await stopChild(server.child);
    if (!ONLY.has('upload')) uploads = undefined;
  }
  const finishedAt = new Date();
  const loadAfter = os.loadavg()[0];
  await cleanup();
  writeSection(
    OUT,
    { start: START, end: END },
    report({ startedAt, finishedAt, pgInfo, notes, list, uploads, download, loadBefore, loadAfter }),
  );
  log(`wrote the media section of ${OUT}`);
}

main()
  .then(() => {
    clearTimeout(watchdog);
    process.exit(0);
  })
  .catch(async (err) => {
    process.stderr.write(`[bench-media] failed: ${err.stack ?? err.message}\n`);
    await cleanup();
    process.exit(1);
  });
