#!/usr/bin/env node
// `npm run bench:cluster` (issue 34): two production server processes on one PostgreSQL database and one bucket,
// behind the cluster test's reverse proxy (server/test/cluster/test-proxy.ts, the settings of
// docs/deploying/nginx.conf), with 5 000 WebSocket screens on each. Written to the cluster section of
// docs/benchmarks.md (between <!-- cluster:start --> and <!-- cluster:end -->).
//
//   1. connect: BENCH_DEVICES (10 000) seeded screens (bench/devices-loadgen.mjs, two processes) connect through
//      the proxy, which spreads them over the instances; each instance's own GET /metrics says how many it holds;
//   2. batch: `POST /api/v2/device/restart` for every screen of the tenant, through the proxy, BENCH_ROUNDS (4)
//      times; the time from sending it to the last `device_command.acknowledged_at` (goal ≤ 2 s). The first round is
//      reported on its own: it is the first time the instances' and load generators' code for commands and
//      acknowledgements runs (not yet optimised by V8), which a fleet meets once per deployment;
//   3. failover: SIGKILL one instance, then at once the same batch command; the time until every screen is connected
//      to the survivor (goal ≤ 30 s; the screens reconnect as the player does, back-off with jitter) and until every
//      command of the batch is acknowledged (goal: none lost);
//   4. memory: each instance's highest RSS over the run (goal < 1 GiB);
//   5. the proxy's cost: the CPU and RSS of a proxy process beside the instances' CPU in the same windows.
//
// The proxy runs as two processes of 5 000 screens each (a process may hold 20 000 open files here and a proxied
// screen holds two sockets), both in front of both instances. Needs the production build (built when missing) and a
// PostgreSQL server where a database may be created: BENCH_CLUSTER_SERVER_URL, else DATABASE_URL, else the local
// default postgres://postgres:postgres@127.0.0.1:5432/postgres.
// Options: BENCH_DEVICES (10000), BENCH_ROUNDS (3), BENCH_CONNECT_CONCURRENCY (32 per load generator), BENCH_OUT.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  cpuSeconds,
  fmt,
  installGuards,
  loadgenAll,
  loadgenStats,
  log,
  machine,
  num,
  passwordToken,
  percentile,
  pgVersion,
  ratio,
  rssSampler,
  runMain,
  saveResults,
  secret,
  setLogPrefix,
  sleep,
  startLoadgen,
  writeSection,
} from '../bench/lib.mjs';
import { ensureProductionBuild } from './production-build.mjs';

setLogPrefix('bench-cluster');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEVICES = num('BENCH_DEVICES', 10_000);
const ROUNDS = Math.max(2, num('BENCH_ROUNDS', 4));
const CONCURRENCY = num('BENCH_CONNECT_CONCURRENCY', 32);
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
const GOALS = { batchMs: 2_000, failoverS: 30, rssMiB: 1024 };
const SERVER_URL =
  process.env.BENCH_CLUSTER_SERVER_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const METRICS_TOKEN = secret(24);

/** A tsx child of bench/ with an IPC channel (`call(msg, answerType)`), its output kept for errors. */
function tsxChild(file, env, { ipc = false } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', file)], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
  });
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk.toString()).slice(-16_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.call = (msg, answer, timeoutMs = 600_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${file}: no ${answer} within ${timeoutMs / 1000} s:\n${child.output}`)), timeoutMs);
      const onMessage = (m) => {
        if (m.type !== answer) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`${file} exited (${code}):\n${child.output}`)));
      if (msg) child.send(msg);
    });
  process.on('exit', () => child.kill('SIGKILL'));
  return child;
}

/** The one JSON line a child prints when it is up. */
function firstJsonLine(child, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within ${timeoutMs / 1000} s:\n${child.output}`)), timeoutMs);
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited (${code}) before it was up:\n${child.output}`)));
  });
}

/** Screens an instance holds, from its own GET /metrics (`signage_websocket_devices_connected`). */
async function connectedOn(instance) {
  try {
    const res = await fetch(`${instance.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(5_000),
    });
    const text = await res.text();
    const match = /^signage_websocket_devices_connected(?:\{[^}]*\})? (\d+)/m.exec(text);
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The batch command to every screen of the tenant, through the proxy; sent again when the proxy found no instance. */
async function batch(cluster, token) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${cluster.url}/api/v2/device/restart?customerId=${cluster.customerId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await res.json().catch(() => ({}));
    if (res.status === 200) return body;
    if (attempt >= 5 || res.status < 500) throw new Error(`POST /api/v2/device/restart answered ${res.status}: ${JSON.stringify(body)}`);
    await sleep(200);
  }
}

/** Waits until `expected` restart commands issued since `since` are acknowledged; answers when the last one was. */
async function lastAck(db, cluster, since, expected, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query(
      `select count(acknowledged_at)::int as acked, (extract(epoch from max(acknowledged_at)) * 1000)::float8 as last_ack
         from device_command where customer_id = $1 and name = 'restart' and issued_at >= to_timestamp($2::float8 / 1000)`,
      [cluster.customerId, since],
    );
    const { acked, last_ack: lastAckAt } = rows[0];
    if (acked >= expected) return { acked, lastAckAt: Number(lastAckAt) };
    if (Date.now() > deadline) return { acked, lastAckAt: undefined };
    await sleep(acked > expected * 0.9 ? 20 : 100);
  }
}

async function main() {
  const startedAt = new Date().toISOString();
  if ((await ensureProductionBuild('bench-cluster')) !== 0) throw new Error('the production build failed');
  const version = await pgVersion(SERVER_URL).catch((err) => {
    log(`skipped: no PostgreSQL server answered at ${new URL(SERVER_URL).host} (${err.message})`);
    return undefined;
  });
  if (!version) return;
  log(`PostgreSQL ${version} at ${new URL(SERVER_URL).host}; ${fmt(DEVICES)} screens over 2 instances`);
  const tokenSeed = secret(24);
  const server = tsxChild(
    'cluster-server.ts',
    {
      BENCH_CLUSTER_SERVER_URL: SERVER_URL,
      BENCH_SEED_DEVICES: String(DEVICES),
      BENCH_TOKEN_SEED: tokenSeed,
      BENCH_METRICS_TOKEN: METRICS_TOKEN,
    },
    { ipc: true },
  );
  const cluster = await server.call(undefined, 'ready', 600_000);
  const [a, b] = cluster.instances;
  log(
    `instances ${cluster.instances.map((i) => `${i.name} (pid ${i.pid})`).join(', ')} behind ${cluster.url}; seeded in ${cluster.seed.seconds.toFixed(1)} s`,
  );
  const proxy2 = tsxChild('cluster-proxy.ts', { BENCH_PROXY_BACKENDS: cluster.instances.map((i) => `${i.name}=${i.url}`).join(',') });
  const { proxy: proxy2Url } = await firstJsonLine(proxy2);
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  const results = { devices: DEVICES, machine: machine(), postgres: version };
  const rss = Object.fromEntries(cluster.instances.map((i) => [i.name, rssSampler(i.pid, 200)]));
  const proxyRss = rssSampler(proxy2.pid, 200);
  const cpuOf = (pid) => {
    try {
      return cpuSeconds(pid);
    } catch {
      return Number.NaN;
    }
  };
  const cpuSnapshot = () => ({ a: cpuOf(a.pid), b: cpuOf(b.pid), proxy: cpuOf(proxy2.pid), t: performance.now() });
  const cpuBetween = (s0, s1) => {
    const wall = (s1.t - s0.t) / 1000;
    return { a: (s1.a - s0.a) / wall, b: (s1.b - s0.b) / wall, proxy: (s1.proxy - s0.proxy) / wall, seconds: wall };
  };

  try {
    // 1. connect
    const workers = startLoadgen(root, 2);
    const half = Math.ceil(DEVICES / 2);
    const c0 = cpuSnapshot();
    const t0 = performance.now();
    const connected = await Promise.all(
      workers.map((w, k) =>
        w.call(
          {
            type: 'connect',
            base: k === 0 ? cluster.url : proxy2Url,
            tokenSeed,
            from: k * half + 1,
            to: Math.min(DEVICES, (k + 1) * half),
            localAddress: `127.0.0.${k + 2}`,
            concurrency: CONCURRENCY,
            heartbeatMs: 60_000,
            deadlineMs: 900_000,
            reconnect: true,
          },
          'connected',
        ),
      ),
    );
    const connectSeconds = (performance.now() - t0) / 1000;
    const count = connected.reduce((s, c) => s + c.count, 0);
    for (const c of connected) for (const e of c.errors ?? []) log(`connect: ${e}`);
    if (count !== DEVICES) throw new Error(`${count} of ${DEVICES} screens connected`);
    const spread = { [a.name]: await connectedOn(a), [b.name]: await connectedOn(b) };
    results.connect = { seconds: connectSeconds, perSecond: count / connectSeconds, spread, cpu: cpuBetween(c0, cpuSnapshot()) };
    log(`connected ${fmt(count)} in ${connectSeconds.toFixed(1)} s (${fmt(results.connect.perSecond)}/s): ${JSON.stringify(spread)}`);

    // 2. batch rounds
    const token = await passwordToken(cluster.url, cluster.admin);
    results.batches = [];
    for (let round = 1; round <= ROUNDS; round++) {
      await sleep(2_000);
      await loadgenStats(workers, true);
      const s0 = cpuSnapshot();
      const since = Date.now() - 1;
      const sent = Date.now();
      const answer = await batch(cluster, token);
      const answeredMs = Date.now() - sent;
      const acked = await lastAck(db, cluster, since, DEVICES, 60_000);
      const seen = await loadgenStats(workers);
      const r = {
        targeted: answer.updated,
        answeredMs,
        acked: acked.acked,
        lastAckMs: acked.lastAckAt - sent,
        firstCommandMs: seen.firstCommandAt - sent,
        lastCommandMs: seen.lastCommandAt - sent,
      };
      await sleep(500);
      r.cpu = cpuBetween(s0, cpuSnapshot());
      results.batches.push(r);
      log(
        `batch ${round}: answered ${answeredMs} ms, commands received ${fmt(r.firstCommandMs)}–${fmt(r.lastCommandMs)} ms, ${fmt(r.acked)} acknowledged, the last ${fmt(r.lastAckMs)} ms after the request`,
      );
    }

    // 3. failover
    await sleep(2_000);
    await loadgenStats(workers, true);
    const f0 = cpuSnapshot();
    const rssBeforeKill = rss[a.name]();
    const killedAt = Date.now();
    const killed = await server.call({ type: 'kill', name: a.name }, 'killed');
    const since = Date.now() - 1;
    const sent = Date.now();
    const answer = await batch(cluster, token);
    let allBackMs;
    let onSurvivor;
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const stats = await loadgenStats(workers);
      onSurvivor = await connectedOn(b);
      if (stats.open === DEVICES && onSurvivor === DEVICES) {
        allBackMs = Date.now() - killedAt;
        break;
      }
      await sleep(250);
    }
    const acked = await lastAck(db, cluster, since, DEVICES, 120_000);
    const after = await loadgenStats(workers);
    results.failover = {
      killed,
      held: spread[a.name],
      allBackMs,
      onSurvivor,
      targeted: answer.updated,
      acked: acked.acked,
      lastAckMs: acked.lastAckAt === undefined ? undefined : acked.lastAckAt - sent,
      reconnects: (await loadgenAll(workers, { type: 'stats' }, 'stats')).reduce((s, x) => s + x.reconnects, 0),
      commands: after.commands,
      cpu: cpuBetween(f0, cpuSnapshot()),
    };
    log(
      `failover: ${a.name} killed holding ${fmt(spread[a.name])}; all ${fmt(DEVICES)} on ${b.name} after ${fmt(allBackMs)} ms; batch sent after the kill: ${fmt(acked.acked)} of ${fmt(DEVICES)} acknowledged (last ${fmt(results.failover.lastAckMs)} ms)`,
    );

    // 4. and 5.
    results.rssMiB = { [a.name]: rssBeforeKill, [b.name]: rss[b.name]() };
    results.proxy = { rssMiB: proxyRss(), cpuSeconds: cpuOf(proxy2.pid) };
    results.loadgenRssMiB = after.rssMiB;
  } finally {
    await db.end().catch(() => undefined);
    proxy2.kill('SIGTERM');
    await server.call({ type: 'stop' }, 'never', 60_000).catch(() => undefined);
  }
  const finishedAt = new Date().toISOString();
  saveResults(root, 'cluster', { startedAt, finishedAt, pgInfo: { version, note: SERVER_URL.replace(/:[^:@/]*@/, ':…@') }, results });
  writeSection(OUT, { start: '<!-- cluster:start -->', end: '<!-- cluster:end -->' }, report(results, { startedAt, a, b }));
  log(`written to ${OUT}`);
}

function report(r, { startedAt, a, b }) {
  const [first, ...warm] = r.batches;
  const warmAcks = warm.map((x) => x.lastAckMs);
  const p50 = percentile(warmAcks, 50);
  const worst = Math.max(...warmAcks);
  const maxRss = Math.max(...Object.values(r.rssMiB));
  const instancesCpu = (cpu) => (Number.isNaN(cpu.a) ? 0 : cpu.a) + (Number.isNaN(cpu.b) ? 0 : cpu.b);
  const proxyShare = (cpu) => cpu.proxy / Math.max(1e-9, instancesCpu(cpu));
  const met = (ok) => (ok ? 'yes' : '**no**');
  const batchCpu = r.batches.at(-1).cpu;
  return [
    '<!-- cluster:start -->',
    '## Two instances behind a proxy (`npm run bench:cluster`, issue 34)',
    '',
    `_Written by scripts/bench-cluster.mjs into this marked section only; run ${startedAt}._`,
    '',
    `- Machine: ${r.machine.cpu}, ${r.machine.memory} RAM, ${r.machine.os}; Node.js ${r.machine.node}; PostgreSQL ${r.postgres} on the same machine. Nothing pinned: the two instances, the two proxy processes, the two load generators and PostgreSQL share the two cores.`,
    `- Setup: the cluster test's launcher (server/test/cluster/launcher.ts): two production server processes (\`npm start\`'s build, \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`, heartbeat 60 s) on one fresh PostgreSQL database and the S3 protocol server, behind the test proxy (server/test/cluster/test-proxy.ts, the settings of docs/deploying/nginx.conf) run as two processes of ${fmt(r.devices / 2)} screens each, each proxy round-robin over both instances. ${fmt(r.devices)} screens seeded, connected by bench/devices-loadgen.mjs (two processes; ticket, WebSocket, \`hello\`, heartbeats, every \`command\` acknowledged at once, reconnecting like the web player).`,
    '',
    '| Goal | Measured | Met |',
    '|---|---|---|',
    `| a batch command to all ${fmt(r.devices)} acknowledged ≤ 2 s after the request | rounds 2–${r.batches.length}: last acknowledgement p50 ${fmt(p50)} ms, worst ${fmt(worst)} ms (${warm.map((x) => `${fmt(x.lastAckMs)}`).join(', ')} ms; the POST answered in ${warm.map((x) => fmt(x.answeredMs)).join(', ')} ms; the last screen received its command at ${warm.map((x) => fmt(x.lastCommandMs)).join(', ')} ms) | ${met(worst <= GOALS.batchMs)} |`,
    `| the same, the first batch after the instances started | ${fmt(first.lastAckMs)} ms (the POST answered in ${fmt(first.answeredMs)} ms, the last screen received its command at ${fmt(first.lastCommandMs)} ms): the code for commands and acknowledgements runs for the first time in every process, not yet optimised | ${met(first.lastAckMs <= GOALS.batchMs)} |`,
    `| SIGKILL one instance: its screens on the other ≤ 30 s | instance ${a.name} killed holding ${fmt(r.failover.held)} screens; all ${fmt(r.devices)} connected to ${b.name} (its own /metrics) ${r.failover.allBackMs === undefined ? '**not within 120 s**' : `${(r.failover.allBackMs / 1000).toFixed(1)} s`} after the kill (${fmt(r.failover.reconnects)} reconnections) | ${met(r.failover.allBackMs !== undefined && r.failover.allBackMs <= GOALS.failoverS * 1000)} |`,
    `| 0 commands lost | a batch to all ${fmt(r.devices)} sent right after the kill: ${fmt(r.failover.acked)} acknowledged, the last ${fmt(r.failover.lastAckMs)} ms after the request (the killed instance's screens got theirs once reconnected) | ${met(r.failover.acked === r.devices)} |`,
    `| RSS of each instance < 1 GiB | highest over the run: ${a.name} ${fmt(r.rssMiB[a.name])} MiB (until it was killed), ${b.name} ${fmt(r.rssMiB[b.name])} MiB (ending with all ${fmt(r.devices)} screens) | ${met(maxRss < GOALS.rssMiB)} |`,
    '',
    `**Connecting**: ${fmt(r.devices)} screens in ${r.connect.seconds.toFixed(1)} s (${fmt(r.connect.perSecond)} a second), spread ${Object.entries(
      r.connect.spread,
    )
      .map(([n, v]) => `${n} ${fmt(v)}`)
      .join(', ')}.`,
    '',
    `**The proxy's cost** (one of the two proxy processes, ${fmt(r.devices / 2)} screens): highest RSS ${fmt(r.proxy.rssMiB)} MiB; CPU while connecting ${(r.connect.cpu.proxy * 100).toFixed(1)} % of a core against the instances' ${(instancesCpu(r.connect.cpu) * 100).toFixed(1)} % together (${ratio(proxyShare(r.connect.cpu))}); in the last batch window ${(batchCpu.proxy * 100).toFixed(1)} % against ${(instancesCpu(batchCpu) * 100).toFixed(1)} % (${ratio(proxyShare(batchCpu))}); during the failover ${(r.failover.cpu.proxy * 100).toFixed(1)} % against the survivor's ${(instancesCpu(r.failover.cpu) * 100).toFixed(1)} % (${ratio(proxyShare(r.failover.cpu))}). The other proxy process (in the launcher's process, beside the S3 server) carries the same load, so the two together cost about twice these shares. The proxy is the test's own Node proxy, not nginx: nginx forwards the same bytes for less.`,
    '',
    `**Reading.** The batch's time is its delivery: the POST answers in ${fmt(
      percentile(
        r.batches.map((x) => x.answeredMs),
        50,
      ),
    )} ms (p50; ${fmt(r.devices)} command rows and the notices written), the last acknowledgement is stored ${fmt(
      percentile(
        r.batches.map((x) => x.lastAckMs - x.lastCommandMs),
        50,
      ),
    )} ms (p50) after the last screen received its command, and the ${fmt(
      percentile(
        r.batches.map((x) => x.lastCommandMs - x.firstCommandMs),
        50,
      ),
    )} ms (p50) between the first and the last screen receiving its command are the instances writing ${fmt(r.devices / 2)} frames each, the proxies relaying them and the load generators reading them, all on the same two cores. Failover is bounded by reconnecting: the survivor takes ${fmt(r.failover.held)} tickets and upgrades at once (the screens' back-off spreads them) while serving its own screens.`,
    '<!-- cluster:end -->',
  ].join('\n');
}

const watchdog = installGuards(45);
runMain(main, watchdog);
