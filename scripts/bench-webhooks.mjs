#!/usr/bin/env node
// `npm run bench:webhooks` (and the last part of `npm run bench`): webhooks (issue 31) on PostgreSQL (local Debian
// cluster or BENCH_DATABASE_URL; the goals are judged there) and PGlite (recorded). Written to the webhooks section of
// docs/benchmarks.md (between <!-- webhooks:start --> and <!-- webhooks:end -->; the rest of the file is left as it is).
//
// The server (bench/webhooks-server.ts) runs the production service with its job queue, as deployed, so the webhook
// executor (woken by every accepted trigger, plus its 5 s tick) is the product's. Everything the measurements use is
// made through the API as the tenant's OWNER (keys, datasources, actions), except what only set-based SQL makes in
// time (the devices with their tokens, the 100 000 executions of the list).
//   1. Triggers: BENCH_WEBHOOKS_KEYS keys (50; a key allows 50 triggers a second), each with an enabled
//      INCREASE_VALUE_IN_DATASOURCE action of its own on an INTERNAL KEY_VALUE datasource of its own (`n` + 1: one
//      statement of effect, and a sum the script checks against the accepted triggers: each applied exactly once).
//      Open-loop load (bench/webhooks-loadgen.mjs, a process of its own on the load generator core) at
//      BENCH_WEBHOOKS_RATE (1 000) triggers a second rotating over the keys, warm-up then a measured window: accepted
//      per second, 429s, latency from each trigger's due time (p50, p99, max), the executor's backlog (unfinished
//      executions) during the window, at its end and the time until it drained. Baseline: `GET /healthz` at the same
//      rate for as long. Then (diagnostic) each at a fixed concurrency of 64: the capacity, trigger ÷ healthz.
//   2. Emergency: BENCH_WEBHOOKS_DEVICES (1 000) seeded devices connected over the device WebSocket
//      (bench/devices-loadgen.mjs, which counts `command` frames by name and arrival); ENABLE_EMERGENCY_ON_DEVICE_ALL
//      and DISABLE_EMERGENCY_ON_DEVICE_ALL actions; a round triggers one and times from sending the trigger to the last
//      device receiving its `emergency` command. Baseline: the console's batch command (`POST
//      /api/v2/device/emergency?emergencyStatus=`) to every device of the tenant, the same command path without a
//      webhook. Rounds interleave: webhook on, webhook off, batch on, batch off.
//   3. Executions list: BENCH_WEBHOOKS_EXECUTIONS (100 000) finished executions of one action seeded in SQL;
//      `GET /api/webhookEvent/actions/{actionId}/executions` page 0 and the last page (size 20), sequential keep-alive
//      requests in interleaved rounds, against `GET /api/webhookEvent/actions/{actionId}`; their statements run raw on
//      the driver and EXPLAIN ANALYZE.
//
// Options (environment): BENCH_WEBHOOKS_QUICK=1 (short windows, 200 devices, 20 000 executions, 2 rounds),
// BENCH_WEBHOOKS_RATE (1000), BENCH_WEBHOOKS_PGLITE_RATE (the same), BENCH_WEBHOOKS_KEYS (50), BENCH_WEBHOOKS_SECONDS
// (20), BENCH_WEBHOOKS_WARMUP (5), BENCH_WEBHOOKS_DEVICES (1000), BENCH_WEBHOOKS_ROUNDS (5), BENCH_WEBHOOKS_EXECUTIONS
// (100000), BENCH_WEBHOOKS_READ_RUNS (1000), BENCH_WEBHOOKS_PHASES (triggers,emergency,list: a subset while developing;
// nothing is written to BENCH_OUT then), BENCH_WEBHOOKS_PROFILE (1 by default, 0 in quick mode: one more trigger
// window at the rate with a V8 CPU profile of the server; its top frames go into the record), BENCH_SKIP_PG=1,
// BENCH_SKIP_PGLITE=1, BENCH_DATABASE_URL, BENCH_WEBHOOKS_DATABASE (signage_bench_webhooks: the local cluster's database
// and role), BENCH_OUT (docs/benchmarks.md).
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { summariseProfile } from '../bench/datasources-profile.mjs';
import {
  LOADGEN_CPU,
  SERVER_CPU,
  benchServerIdentity,
  cpuWindow,
  fmt,
  hasTaskset,
  indexSummary,
  installGuards,
  loadgenAll,
  loadgenStats,
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
  startLoadgen,
  stopChild,
  timedRuns,
  writeSection,
} from '../bench/lib.mjs';

setLogPrefix('bench-webhooks');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_WEBHOOKS_QUICK === '1';
const RATE = num('BENCH_WEBHOOKS_RATE', 1_000);
// PGlite (one connection, in the server's process) answers a few dozen triggers a second: at the full rate the open
// loop would only measure minutes of queue. Recorded at its own rate.
const PGLITE_RATE = num('BENCH_WEBHOOKS_PGLITE_RATE', 100);
const KEYS = num('BENCH_WEBHOOKS_KEYS', 50);
const WINDOW_S = num('BENCH_WEBHOOKS_SECONDS', QUICK ? 5 : 20);
const WARMUP_S = num('BENCH_WEBHOOKS_WARMUP', QUICK ? 2 : 5);
const CAPACITY_S = QUICK ? 5 : 10;
const CAPACITY_CONNECTIONS = 64;
const DEVICES = num('BENCH_WEBHOOKS_DEVICES', QUICK ? 200 : 1_000);
const ROUNDS = num('BENCH_WEBHOOKS_ROUNDS', QUICK ? 2 : 5);
const EXECUTIONS = num('BENCH_WEBHOOKS_EXECUTIONS', QUICK ? 20_000 : 100_000);
const READ_RUNS = num('BENCH_WEBHOOKS_READ_RUNS', QUICK ? 200 : 1_000);
const READ_ROUNDS = 5;
const PAGE_SIZE = 20;
const PROFILE = (process.env.BENCH_WEBHOOKS_PROFILE ?? (QUICK ? '0' : '1')) === '1';
const PROFILE_S = 10;
const PHASES = new Set((process.env.BENCH_WEBHOOKS_PHASES ?? 'triggers,emergency,list').split(','));
/** How long the executor's backlog may take to drain before the run goes on without it. */
const DRAIN_LIMIT_S = 900;
const CONNECT_CONCURRENCY = 32;
const HEARTBEAT_MS = 60_000;
const OUT = process.env.BENCH_OUT ?? join(root, 'docs', 'benchmarks.md');
// BENCH_WEBHOOKS_DATABASE: another name, so two runs on one cluster (two worktrees) do not drop each other's database.
const PG_DATABASE = process.env.BENCH_WEBHOOKS_DATABASE ?? 'signage_bench_webhooks';
const MARKERS = { start: '<!-- webhooks:start -->', end: '<!-- webhooks:end -->' };
const GOALS = { perSecond: 1_000, p99Ms: 50, emergencyMs: 2_000, listP50Ms: 20 };
const TRIGGER = '/public-api/integration/webhooks';
const ACTIONS = '/api/webhookEvent/actions';
const PROFILE_DIR = join(root, 'bench', '.out', 'profiles');
const OWNER_EMAIL = 'bench-owner@example.com';

const { env: baseEnv, credentials } = benchServerIdentity();
const watchdog = installGuards(QUICK ? 30 : 90);

// ---------------------------------------------------------------- set-up through the API

async function created(server, path, body, what) {
  return ok(await request(server, 'POST', path, { body }), what, 201).body;
}

/** The keys, datasources and count actions of the trigger phase, made as the owner; one trigger each checks them. */
async function setUpTriggers(owner) {
  const keys = [];
  const actions = [];
  for (let i = 1; i <= KEYS; i++) {
    const datasource = await created(
      owner,
      '/api/datasource',
      { name: `Bench counter ${i}`, sourceType: 'INTERNAL', structureType: 'KEY_VALUE' },
      'POST /api/datasource',
    );
    ok(await request(owner, 'PUT', `/api/datasource/${datasource.id}/data`, { body: { n: 0 } }), 'PUT /api/datasource/{id}/data');
    const key = await created(owner, '/api/webhooks/apikey', { name: `Bench key ${i}` }, 'POST /api/webhooks/apikey');
    const action = await created(
      owner,
      ACTIONS,
      {
        name: `Bench count ${i}`,
        eventId: `bench-count-${i}`,
        enabled: true,
        action: 'INCREASE_VALUE_IN_DATASOURCE',
        targetId: datasource.id,
        actionParams: { keySelector: 'n' },
      },
      `POST ${ACTIONS}`,
    );
    keys.push({ id: key.id, name: key.name, token: key.token });
    actions.push({ id: action.id, eventId: action.eventId, datasourceId: datasource.id });
  }
  return { keys, actions };
}

const triggerRequests = (setup) =>
  setup.keys.map((key, k) => ({
    method: 'POST',
    path: TRIGGER,
    headers: { 'x-webhook-apikey': key.token },
    body: { event_id: setup.actions[k].eventId },
  }));

/** One trigger by `key` (a request of its own: no bearer token), with the time it took. */
async function trigger(server, key, eventId) {
  const t0 = Date.now();
  const res = await fetch(`${server.base}${TRIGGER}`, {
    method: 'POST',
    headers: { 'x-webhook-apikey': key.token, 'content-type': 'application/json' },
    body: JSON.stringify({ event_id: eventId }),
  });
  const body = await res.json().catch(() => ({}));
  if (res.status !== 202) throw new Error(`trigger ${eventId} answered ${res.status}: ${JSON.stringify(body)}`);
  return { sentAt: t0, answeredMs: Date.now() - t0, executionId: body.executionId };
}

// ---------------------------------------------------------------- the executor's backlog

const backlog = async (server) => ok(await request(server, 'GET', '/__bench/backlog'), 'GET /__bench/backlog').body.unfinished;

/** Samples the backlog every `everyMs` until stopped: the highest and the samples. */
function backlogSampler(server, everyMs = 1_000) {
  let stopped = false;
  const samples = [];
  const done = (async () => {
    const t0 = Date.now();
    while (!stopped) {
      samples.push([Date.now() - t0, await backlog(server)]);
      await sleep(everyMs);
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return { max: Math.max(0, ...samples.map((s) => s[1])), samples };
  };
}

/** Waits until the server answers a database read within 100 ms three times running (requests a generator gave up on are done). */
async function settle(server) {
  const deadline = Date.now() + 300_000;
  let quick = 0;
  while (quick < 3 && Date.now() < deadline) {
    const t0 = Date.now();
    await backlog(server);
    quick = Date.now() - t0 < 100 ? quick + 1 : 0;
    await sleep(quick ? 100 : 1_000);
  }
}

/** Waits until no execution is unfinished; answers the ms it took (undefined past the limit) and the count at the start. */
async function drain(server, limitS = DRAIN_LIMIT_S) {
  const t0 = Date.now();
  const atStart = await backlog(server);
  let left = atStart;
  let reported = t0;
  while (left > 0) {
    if (Date.now() - t0 > limitS * 1000) {
      log(`${server.db}: ${fmt(left)} executions still unfinished after ${limitS} s`);
      return { atStart, ms: undefined, left };
    }
    await sleep(left > 1_000 ? 500 : 100);
    left = await backlog(server);
    if (Date.now() - reported > 15_000) {
      reported = Date.now();
      log(`${server.db}: draining, ${fmt(left)} executions unfinished`);
    }
  }
  return { atStart, ms: Date.now() - t0, left: 0 };
}

// ---------------------------------------------------------------- 1. triggers

async function loadRun(loadgen, server, spec) {
  const r = await loadgen.call({ type: 'run', base: server.base, sockets: 256, drainSeconds: 300, ...spec }, 'done');
  if (r.error) throw new Error(`the HTTP load generator failed: ${r.error}`);
  for (const e of r.errors ?? []) log(`load generator: ${e}`);
  return r;
}

/** Answers that arrived within the measured window, a second; of `status` only when given. */
const inWindow = (r, status) => (status === undefined ? r.answeredPerSecondInWindow : (r.statusesInWindow[status] ?? 0) / r.seconds);

const describeRun = (r) =>
  `${fmt(inWindow(r))}/s answered in the window; of the requests due in it (${Object.entries(r.statuses)
    .map(([s, n]) => `${s}: ${fmt(n)}`)
    .join(
      ', ',
    )}${r.timeouts ? `, ${fmt(r.timeouts)} unanswered` : ''}), p50 ${fmt(r.p50, 1)} ms, p99 ${fmt(r.p99, 1)} ms, max ${fmt(r.max)} ms`;

/** One measured trigger window at `rate` (open loop) or `concurrency` (closed), with the backlog and the CPU over it. */
async function triggerWindow(server, loadgen, setup, spec) {
  const since = Date.now() - 1_000;
  const sampler = backlogSampler(server);
  const database = server.db === 'PostgreSQL' ? PG_DATABASE : undefined;
  const whole = cpuWindow(server.pid, database);
  const cpu = cpuWindow(server.pid, database);
  const run = await loadRun(loadgen, server, { requests: triggerRequests(setup), ...spec });
  const usage = cpu.end();
  const atEnd = await backlog(server);
  const sampled = await sampler();
  const drained = await drain(server);
  await settle(server);
  // What the accepted triggers cost with their executions: the load, then the drain.
  const all = whole.end();
  const outcomes = ok(await request(server, 'POST', '/__bench/outcomes', { body: { since } }), 'outcomes').body;
  const ran = outcomes.byOutcome.SUCCEEDED?.executions ?? 0;
  const perTrigger = {
    serverMs: (all.server * all.seconds * 1000) / ran,
    postgresMs: all.postgres === undefined ? undefined : (all.postgres * all.seconds * 1000) / ran,
    waited: all.waited,
    executions: ran,
  };
  const r = {
    ...run,
    cpu: usage,
    perTrigger,
    backlog: { max: Math.max(sampled.max, atEnd), atEnd, samples: sampled.samples, drain: drained },
    outcomes,
  };
  log(
    `${server.db} triggers, ${spec.mode === 'open' ? `${fmt(spec.rate)}/s open loop` : `${spec.concurrency} connections`}: ${describeRun(r)}; backlog max ${fmt(r.backlog.max)}, ${fmt(atEnd)} at the end, drained in ${drained.ms === undefined ? '—' : `${fmt(drained.ms / 1000, 1)} s`}; server CPU ${(usage.server * 100).toFixed(0)} %; a trigger with its execution: ${fmt(perTrigger.serverMs, 2)} ms of server CPU, ${fmt(perTrigger.postgresMs, 2)} ms of PostgreSQL's`,
  );
  return r;
}

async function healthzWindow(server, loadgen, spec) {
  const cpu = cpuWindow(server.pid, server.db === 'PostgreSQL' ? PG_DATABASE : undefined);
  const run = await loadRun(loadgen, server, { requests: [{ method: 'GET', path: '/healthz' }], ...spec });
  const r = { ...run, cpu: cpu.end() };
  log(
    `${server.db} GET /healthz, ${spec.mode === 'open' ? `${fmt(spec.rate)}/s open loop` : `${spec.concurrency} connections`}: ${describeRun(r)}`,
  );
  return r;
}

/** The set-up of every phase: keys, datasources, count actions; each key fires its action once, which must run and add 1. */
async function setUp(server, owner) {
  const setup = await setUpTriggers(owner);
  setup.since = Date.now() - 1_000;
  for (let k = 0; k < setup.keys.length; k++) await trigger(server, setup.keys[k], setup.actions[k].eventId);
  await drain(server, 120);
  const smoke = ok(await request(server, 'POST', '/__bench/outcomes', { body: { since: setup.since } }), 'outcomes').body;
  if (smoke.byOutcome.SUCCEEDED?.executions !== setup.keys.length || smoke.datasourceTotal !== setup.keys.length)
    throw new Error(`the first trigger of each key did not all succeed: ${JSON.stringify(smoke)}`);
  log(`${server.db}: ${setup.keys.length} keys, datasources and count actions made; one trigger each ran`);
  return setup;
}

async function triggers(server, setup, rate) {
  const smokeSince = setup.since;
  let accepted = setup.keys.length;

  const loadgen = startLoadgen(root, 1, { file: 'webhooks-loadgen.mjs', name: 'http-loadgen' })[0];
  try {
    const open = { mode: 'open', rate, warmupSeconds: WARMUP_S, seconds: WINDOW_S };
    const result = { rate, keys: setup.keys.length };
    result.triggers = await triggerWindow(server, loadgen, setup, open);
    accepted += result.triggers.allStatuses[202] ?? 0;
    await sleep(2_000);
    result.healthz = await healthzWindow(server, loadgen, open);
    await sleep(2_000);

    // Capacity (diagnostic): a fixed number of requests in flight, as many as the server answers.
    const closed = { mode: 'closed', concurrency: CAPACITY_CONNECTIONS, warmupSeconds: 2, seconds: CAPACITY_S };
    result.capacity = await triggerWindow(server, loadgen, setup, closed);
    accepted += result.capacity.allStatuses[202] ?? 0;
    await sleep(2_000);
    result.capacityHealthz = await healthzWindow(server, loadgen, closed);

    // Which statements a trigger and its execution run (traced at a low rate: wrapping the driver costs a little).
    await sleep(2_000);
    const traceRate = 50;
    const tracing = fetch(`${server.base}/__bench/trace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 6_000 }),
    });
    await sleep(200);
    const traced = await loadRun(loadgen, server, {
      requests: triggerRequests(setup),
      mode: 'open',
      rate: traceRate,
      warmupSeconds: 0,
      seconds: 4,
    });
    accepted += traced.allStatuses[202] ?? 0;
    result.trace = { ...(await (await tracing).json()), triggers: traced.allStatuses[202] ?? 0 };
    await drain(server);

    if (PROFILE) {
      await sleep(2_000);
      mkdirSync(PROFILE_DIR, { recursive: true });
      const file = join(PROFILE_DIR, `webhooks-${server.db}-triggers.cpuprofile`);
      ok(await request(server, 'POST', '/__bench/profile', { body: { action: 'start' } }), 'profile start');
      const profiled = await loadRun(loadgen, server, {
        requests: triggerRequests(setup),
        mode: 'open',
        rate,
        warmupSeconds: 0,
        seconds: PROFILE_S,
      });
      // The executor's share too: the profile runs on until the backlog drained (at most a minute).
      const drained = await drain(server, 60);
      ok(await request(server, 'POST', '/__bench/profile', { body: { action: 'stop', file } }), 'profile stop');
      accepted += profiled.allStatuses[202] ?? 0;
      result.profile = { file, run: profiled, drainedMs: drained.ms, ...summariseProfile(file, 12) };
      await drain(server);
    }
    // Every accepted trigger ran once: the counters hold exactly as many increments.
    const total = ok(await request(server, 'POST', '/__bench/outcomes', { body: { since: smokeSince } }), 'outcomes').body;
    result.check = { accepted, succeeded: total.byOutcome.SUCCEEDED?.executions ?? 0, datasourceTotal: total.datasourceTotal, total };
    log(
      `${server.db}: ${fmt(accepted)} triggers accepted, ${fmt(result.check.succeeded)} executions succeeded, the counters add up to ${fmt(total.datasourceTotal)}${total.failures.length ? `; failures: ${total.failures.join('; ')}` : ''}`,
    );
    return result;
  } finally {
    if (loadgen.connected) loadgen.send({ type: 'stop' });
    await stopChild(loadgen);
  }
}

// ---------------------------------------------------------------- 2. emergency to every device

async function emergency(server, owner, setup, tokenSeed) {
  const on = await created(
    owner,
    ACTIONS,
    { name: 'Bench emergency on', eventId: 'bench-emergency-on', enabled: true, action: 'ENABLE_EMERGENCY_ON_DEVICE_ALL' },
    `POST ${ACTIONS}`,
  );
  const off = await created(
    owner,
    ACTIONS,
    { name: 'Bench emergency off', eventId: 'bench-emergency-off', enabled: true, action: 'DISABLE_EMERGENCY_ON_DEVICE_ALL' },
    `POST ${ACTIONS}`,
  );
  const key = setup.keys[0];
  log(`${server.db}: connecting ${fmt(DEVICES)} devices`);
  const workers = startLoadgen(root, 1);
  try {
    const t0 = performance.now();
    const [connected] = await loadgenAll(
      workers,
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

    const round = async ({ via, status }) => {
      await loadgenStats(workers, true);
      let sentAt;
      let answeredMs;
      let executionId;
      if (via === 'webhook') {
        ({ sentAt, answeredMs, executionId } = await trigger(server, key, status ? on.eventId : off.eventId));
      } else {
        sentAt = Date.now();
        const path = `/api/v2/device/emergency?customerId=${server.customerId}&emergencyStatus=${status}`;
        const res = ok(await request(owner, 'POST', path), 'POST /api/v2/device/emergency');
        answeredMs = Date.now() - sentAt;
        if (res.body.updated !== DEVICES) throw new Error(`the batch command reached ${res.body.updated} devices, expected ${DEVICES}`);
      }
      const deadline = Date.now() + 60_000;
      let seen;
      for (;;) {
        seen = await loadgenStats(workers);
        if ((seen.byName.emergency?.count ?? 0) >= DEVICES) break;
        if (Date.now() > deadline)
          throw new Error(`after 60 s only ${seen.byName.emergency?.count ?? 0} of ${DEVICES} devices had the emergency command`);
        await sleep(20);
      }
      const r = {
        via,
        status,
        answeredMs,
        firstMs: seen.byName.emergency.firstAt - sentAt,
        lastMs: seen.byName.emergency.lastAt - sentAt,
        devices: seen.byName.emergency.count,
      };
      if (executionId) {
        const actionId = status ? on.id : off.id;
        const page = ok(await request(owner, 'GET', `${ACTIONS}/${actionId}/executions?size=5`), 'executions').body;
        const execution = page.content.find((e) => e.id === executionId);
        if (execution?.outcome !== 'SUCCEEDED' || execution.affected !== DEVICES)
          throw new Error(`the emergency execution reads ${JSON.stringify(execution)}`);
        // Both are the database's now(): the trigger's transaction and the execution's (which the effect ran in).
        r.queuedMs = execution.startedAt - execution.receivedAt;
        r.startedMs = execution.startedAt - sentAt;
      }
      return r;
    };
    const rounds = [];
    for (let k = 0; k < ROUNDS; k++) {
      for (const step of [
        { via: 'webhook', status: true },
        { via: 'webhook', status: false },
        { via: 'batch', status: true },
        { via: 'batch', status: false },
      ]) {
        const r = await round(step);
        rounds.push({ round: k + 1, ...r });
        log(
          `${server.db} emergency ${step.status ? 'on' : 'off'} by ${step.via}, round ${k + 1}: last device at ${fmt(r.lastMs)} ms (first ${fmt(r.firstMs)} ms, answered ${fmt(r.answeredMs)} ms${r.startedMs === undefined ? '' : `, execution's transaction began at ${fmt(r.startedMs)} ms`})`,
        );
        await sleep(1_000);
      }
    }
    // Where a round's time goes (diagnostic, not among the rounds above: wrapping the driver costs a little): every
    // statement of the server's driver during one more round each way.
    const traced = {};
    for (const step of [
      { via: 'webhook', status: true },
      { via: 'batch', status: true },
      { via: 'webhook', status: false },
      { via: 'batch', status: false },
    ]) {
      const tracing = fetch(`${server.base}/__bench/trace`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 3_000 }),
      });
      await sleep(100);
      const r = await round(step);
      const trace = await (await tracing).json();
      if (step.status)
        traced[step.via] = { ...r, statements: trace.statements, kinds: trace.kinds.sort((a, b) => b.ms - a.ms).slice(0, 8) };
      await sleep(1_000);
    }
    const health = await loadgenStats(workers);
    return {
      traced,
      connected: connected.count,
      connectSeconds,
      rounds,
      health: { open: health.open, closes: health.closes, errorFrames: health.errorFrames },
    };
  } finally {
    for (const w of workers) if (w.connected) w.send({ type: 'stop' });
    await Promise.all(workers.map((w) => stopChild(w)));
  }
}

// ---------------------------------------------------------------- 3. executions list

async function executionsList(server, owner, setup) {
  const action = await created(
    owner,
    ACTIONS,
    {
      name: 'Bench history',
      eventId: 'bench-history',
      enabled: false,
      action: 'INCREASE_VALUE_IN_DATASOURCE',
      targetId: setup.actions[0].datasourceId,
      actionParams: { keySelector: 'n' },
    },
    `POST ${ACTIONS}`,
  );
  const key = setup.keys[0];
  const seeded = ok(
    await request(server, 'POST', '/__bench/seed-executions', {
      body: { actionId: action.id, count: EXECUTIONS, apiKeyId: key.id, keyName: key.name },
    }),
    'seed executions',
  ).body;
  log(`${server.db}: ${fmt(seeded.seeded)} executions seeded in ${seeded.seconds.toFixed(1)} s`);
  const lastPage = Math.ceil(EXECUTIONS / PAGE_SIZE) - 1;
  const cases = {
    action: { path: `${ACTIONS}/${action.id}`, table: 'webhook_action' },
    first: { path: `${ACTIONS}/${action.id}/executions?page=0&size=${PAGE_SIZE}`, table: 'webhook_execution', match: 'action_id' },
    deep: { path: `${ACTIONS}/${action.id}/executions?page=${lastPage}&size=${PAGE_SIZE}`, table: 'webhook_execution', match: 'action_id' },
  };
  const sample = ok(await request(owner, 'GET', cases.deep.path), `GET ${cases.deep.path}`).body;
  if (sample.totalElements !== EXECUTIONS || sample.content.length !== PAGE_SIZE)
    throw new Error(`the last page reads totalElements ${sample.totalElements}, ${sample.content?.length} items`);
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const bytes = {};
  for (let k = 0; k < READ_ROUNDS; k++) {
    for (const [name, x] of Object.entries(cases)) {
      const runs = await timedRuns(Math.ceil(READ_RUNS / READ_ROUNDS), k === 0 ? 20 : 5, async () => {
        const res = ok(await request(owner, 'GET', x.path, { sink: true }), `GET ${x.path}`);
        bytes[name] = res.bytes;
      });
      samples[name].push(...runs.samples);
    }
  }
  const stats = (s) => ({ p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), count: s.length });
  const r = { executions: EXECUTIONS, seedSeconds: seeded.seconds, lastPage, actionId: action.id, bytes };
  for (const [name, x] of Object.entries(cases)) {
    r[name] = stats(samples[name]);
    const b = ok(
      await request(server, 'POST', '/__bench/baseline', {
        body: { path: x.path, authorization: `Bearer ${owner.token}`, runs: 100, table: x.table, match: x.match },
      }),
      'baseline',
    ).body;
    if (b.error) throw new Error(`baseline of ${x.path}: ${b.error}`);
    r[name].raw = {
      p50: b.p50,
      appInProcess: b.appInProcess,
      statements: b.statements.map((s) => s.sql),
      plans: b.plans,
      otherStatements: b.otherStatements,
    };
  }
  r.windowCount = {};
  for (const [name, offset] of [
    ['first', 0],
    ['deep', lastPage * PAGE_SIZE],
  ])
    r.windowCount[name] = ok(
      await request(server, 'POST', '/__bench/window-count', { body: { actionId: action.id, offset, limit: PAGE_SIZE, runs: 30 } }),
      'window count',
    ).body;
  log(
    `${server.db} executions list (${fmt(EXECUTIONS)}): page 0 p50 ${fmt(r.first.p50, 2)} ms, page ${fmt(lastPage)} p50 ${fmt(r.deep.p50, 2)} ms; GET the action p50 ${fmt(r.action.p50, 2)} ms; raw SQL p50 ${fmt(r.first.raw.p50.total, 2)} / ${fmt(r.deep.raw.p50.total, 2)} ms (findPage's window count: ${fmt(r.windowCount.first.p50, 2)} / ${fmt(r.windowCount.deep.p50, 2)} ms)`,
  );
  return r;
}

// ---------------------------------------------------------------- one database

async function runDatabase(db, databaseUrl) {
  const tokenSeed = secret(24);
  const server = await startBenchServer({
    name: `webhooks-${db}`,
    script: join(root, 'bench', 'webhooks-server.ts'),
    cwd: root,
    env: {
      ...baseEnv,
      JOBS_ENABLED: 'true',
      BENCH_SEED_DEVICES: String(DEVICES),
      BENCH_TOKEN_SEED: tokenSeed,
      BENCH_OWNER_EMAIL: OWNER_EMAIL,
    },
    credentials,
    databaseUrl,
    tempPrefix: 'signage-bench-webhooks-',
    describe: (info) =>
      ` (seeded ${fmt(info.seed.devices)} devices in ${info.seed.seconds.toFixed(1)} s; job queue ${info.jobs ? 'on' : 'OFF'})`,
  });
  if (!server.info.jobs) throw new Error('the bench server started without its job queue (JOBS_ENABLED)');
  const owner = { ...server, token: await passwordToken(server.base, { ...credentials, email: OWNER_EMAIL }) };
  const result = { db, seed: server.info.seed, loadBefore: os.loadavg()[0] };
  try {
    await sleep(3_000);
    const setup = await setUp(server, owner);
    if (PHASES.has('triggers')) {
      result.triggers = await triggers(server, setup, db === 'PGlite' ? PGLITE_RATE : RATE);
      result.loadAfterTriggers = os.loadavg()[0];
    }
    if (PHASES.has('emergency')) {
      await sleep(3_000);
      result.emergency = await emergency(server, owner, setup, tokenSeed);
      result.loadAfterEmergency = os.loadavg()[0];
    }
    if (PHASES.has('list')) {
      await sleep(3_000);
      result.list = await executionsList(server, owner, setup);
      result.loadAfterList = os.loadavg()[0];
    }
    return result;
  } finally {
    await stopChild(server.child);
  }
}

// ---------------------------------------------------------------- the record

const ms = (x, digits = 0) => (x === undefined || x === null || Number.isNaN(x) ? '—' : `${fmt(x, digits)}`);
const pctOf = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)} %`);
const statusList = (s) =>
  Object.entries(s)
    .map(([code, n]) => `${code === '0' ? 'connection error' : code}: ${fmt(n)}`)
    .join(', ');
/** A ratio; large ones without decimals. */
const times = (x) => (x >= 100 ? `${fmt(x)}×` : ratio(x));
const seconds = (x) => (x === undefined || Number.isNaN(x) ? '—' : `${fmt(x / 1000, 1)} s`);

function summary(list, key) {
  const values = list.map((x) => x[key]).filter((x) => x !== undefined);
  return {
    p50: percentile(values, 50),
    max: values.length ? Math.max(...values) : Number.NaN,
    min: values.length ? Math.min(...values) : Number.NaN,
  };
}

function report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter }) {
  const m = machine();
  const lines = [];
  const push = (...l) => lines.push(...l);
  const goal = (r, okay) => (r.db === 'PostgreSQL' ? (okay ? 'yes' : '**no**') : `(${okay ? 'yes' : 'no'}; information)`);
  const loads = results
    .map(
      (r) =>
        `${r.db}: ${r.loadBefore.toFixed(2)} at its start, ${r.loadAfterTriggers.toFixed(2)} after the triggers, ${r.loadAfterEmergency.toFixed(2)} after the emergency rounds, ${r.loadAfterList.toFixed(2)} after the list`,
    )
    .join('; ');
  push(
    MARKERS.start,
    '## Webhooks (`npm run bench:webhooks`, issue 31)',
    '',
    '_Written by scripts/bench-webhooks.mjs into this marked section only. Each figure is compared with a baseline measured in the same run on the same machine. Goals are judged on PostgreSQL; PGlite is recorded for information._',
    '',
    `- Date: ${startedAt.toISOString()} (run took ${Math.round((finishedAt - startedAt) / 1000)} s)${QUICK ? ' — **quick mode** (BENCH_WEBHOOKS_QUICK=1: short windows, fewer devices, executions and rounds)' : ''}`,
    `- Machine: ${m.cpu}, ${m.memory} RAM, ${m.os}; Node.js ${m.node}; **a machine shared with other work** — 1-minute load average ${loadBefore.toFixed(2)} before the run, ${loadAfter.toFixed(2)} after; ${loads}`,
    `- PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`,
    `- Server: \`bench/webhooks-server.ts\` — the production \`createService\` (Hono app, device WebSocket, push feed) on \`@hono/node-server\` **with the job queue started as \`server/main.ts\` starts it** (every module's jobs; the webhook executor woken by each accepted trigger, half the database pool (5 of 10) of executions at a time while the event loop is less than a quarter busy, plus \`webhooks.execute-due\` every 5 s); \`NODE_ENV=production\`, \`LOG_LEVEL=warn\`. ${hasTaskset ? `Server pinned to core ${SERVER_CPU}, the load generators (\`bench/webhooks-loadgen.mjs\`, \`bench/devices-loadgen.mjs\`) to core ${LOADGEN_CPU}; this script and PostgreSQL are not pinned.` : 'No CPU pinning (taskset unavailable).'}`,
    `- Data: one tenant ("Bench Webhooks") with an OWNER, who makes through the API (\`POST /api/webhooks/apikey\`, \`POST /api/datasource\`, \`POST ${ACTIONS}\`) ${fmt(KEYS)} webhook API keys, ${fmt(KEYS)} INTERNAL KEY_VALUE datasources holding \`{"n": 0}\` and ${fmt(KEYS)} enabled INCREASE_VALUE_IN_DATASOURCE actions (\`keySelector: n\`), key i firing action i, which adds 1 to datasource i; ${fmt(DEVICES)} devices with access tokens and ${fmt(EXECUTIONS)} finished executions of one more action are seeded set-based in SQL.`,
    '',
    '**Goals at a glance**',
    '',
    '| Goal | Database | Measured | Baseline (same run) | Result |',
    '|---|---|---|---|---|',
  );
  for (const r of results) {
    const t = r.triggers.triggers;
    const h = r.triggers.healthz;
    const accepted = inWindow(t, 202);
    push(
      `| ≥ ${fmt(GOALS.perSecond)} triggers/s accepted, p99 ≤ ${GOALS.p99Ms} ms | ${r.db} | ${fmt(accepted)}/s accepted of ${fmt(r.triggers.rate)}/s offered, p99 ${ms(t.p99, 1)} ms (p50 ${ms(t.p50, 1)}, max ${ms(t.max)}); at most ${fmt(r.triggers.capacity.perSecond)}/s with ${CAPACITY_CONNECTIONS} in flight | \`GET /healthz\` at the same rate: ${fmt(inWindow(h))}/s, p99 ${ms(h.p99, 1)} ms (triggers ${ratio(accepted / inWindow(h))} of its rate, ${times(t.p99 / h.p99)} its p99) | ${goal(r, accepted >= GOALS.perSecond * 0.99 && t.p99 <= GOALS.p99Ms && (t.statuses[429] ?? 0) === 0)} |`,
    );
    const e = r.emergency;
    const webOn = summary(
      e.rounds.filter((x) => x.via === 'webhook' && x.status),
      'lastMs',
    );
    const batchOn = summary(
      e.rounds.filter((x) => x.via === 'batch' && x.status),
      'lastMs',
    );
    push(
      `| ENABLE_EMERGENCY_ON_DEVICE_ALL reaches ${fmt(DEVICES)} connected devices ≤ ${fmt(GOALS.emergencyMs)} ms | ${r.db} | last device p50 ${ms(webOn.p50)} ms, max ${ms(webOn.max)} ms (${ROUNDS} rounds) | batch command \`emergency\`: p50 ${ms(batchOn.p50)} ms (${ratio(webOn.p50 / batchOn.p50)}) | ${goal(r, webOn.max <= GOALS.emergencyMs)} |`,
    );
    const l = r.list;
    push(
      `| executions list p50 ≤ ${GOALS.listP50Ms} ms with ${fmt(EXECUTIONS)} executions | ${r.db} | page 0: ${ms(l.first.p50, 2)} ms; page ${fmt(l.lastPage)}: ${ms(l.deep.p50, 2)} ms | \`GET ${ACTIONS}/{actionId}\`: ${ms(l.action.p50, 2)} ms (${ratio(l.first.p50 / l.action.p50)} / ${ratio(l.deep.p50 / l.action.p50)}) | ${goal(r, l.first.p50 <= GOALS.listP50Ms && l.deep.p50 <= GOALS.listP50Ms)} |`,
    );
  }

  push(
    '',
    '### 1. Triggers under load',
    '',
    `Method: \`bench/webhooks-loadgen.mjs\` sends \`POST ${TRIGGER}\` (\`X-Webhook-Apikey\`, JSON \`{"event_id": "bench-count-<i>"}\`) rotating over the ${fmt(KEYS)} keys, so each key sees 1/${fmt(KEYS)} of the rate (a key allows 50 a second). **Open loop**: request i is due at t0 + i ÷ rate whatever the answers do, on up to 256 keep-alive connections; its latency runs from its due time to the end of its answer, so a server that falls behind shows as latency. ${WARMUP_S} s warm-up (not counted), then ${WINDOW_S} s measured: the requests due in the window. A trigger is answered after its execution row is committed (the queue entry) and this process's executor is woken; the executor claims due executions 8 at a time and runs each in one transaction (key, action, the effect, the finish). **Backlog** = unfinished executions, sampled every second during the window and at its end; "drained" = from the end of the load until none was unfinished. Baseline: \`GET /healthz\` from the same generator at the same rate for as long (the server's cheapest route, no database). CPU = utime + stime ÷ wall time from the start of the warm-up until the last answer (share of one core). Throughput = answers that arrived within the window; latencies = of the requests due in it, however late they were answered (a generator gives up after 300 s). The last columns: the same with a fixed ${CAPACITY_CONNECTIONS} requests in flight for ${CAPACITY_S} s (closed loop: as many as the server answers, a diagnostic of its capacity).`,
    '',
    '| Database | case | offered/s | answered in the window/s | requests due in the window: answers | p50 ms | p99 ms | max ms | server CPU | PostgreSQL backends | backlog max | unfinished at the end | drained in | capacity, 64 in flight: answered/s (p50 / p99 ms) |',
    '|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    const x = r.triggers;
    const t = x.triggers;
    const h = x.healthz;
    push(
      `| ${r.db} | triggers | ${fmt(x.rate)} | ${fmt(inWindow(t))} (202: ${fmt(inWindow(t, 202))}) | ${statusList(t.statuses)}${t.timeouts ? `, unanswered after 300 s: ${fmt(t.timeouts)}` : ''} | ${ms(t.p50, 1)} | ${ms(t.p99, 1)} | ${ms(t.max)} | ${pctOf(t.cpu.server)} | ${pctOf(t.cpu.postgres)} | ${fmt(t.backlog.max)} | ${fmt(t.backlog.atEnd)} | ${seconds(t.backlog.drain.ms)} | ${fmt(x.capacity.perSecond)} (${ms(x.capacity.p50, 1)} / ${ms(x.capacity.p99, 1)}), ${statusList(x.capacity.statuses)}; drained in ${seconds(x.capacity.backlog.drain.ms)} |`,
      `| ${r.db} | baseline: \`GET /healthz\` | ${fmt(x.rate)} | ${fmt(inWindow(h))} | ${statusList(h.statuses)}${h.timeouts ? `, unanswered after 300 s: ${fmt(h.timeouts)}` : ''} | ${ms(h.p50, 1)} | ${ms(h.p99, 1)} | ${ms(h.max)} | ${pctOf(h.cpu.server)} | ${pctOf(h.cpu.postgres)} | — | — | — | ${fmt(x.capacityHealthz.perSecond)} (${ms(x.capacityHealthz.p50, 1)} / ${ms(x.capacityHealthz.p99, 1)}) |`,
      `| ${r.db} | ratio triggers ÷ baseline | | ${ratio(inWindow(t) / inWindow(h))} | | ${times(t.p50 / h.p50)} | ${times(t.p99 / h.p99)} | | | | | | | ${ratio(x.capacity.perSecond / x.capacityHealthz.perSecond)} |`,
    );
  }

  push(
    '',
    '### 2. Emergency to every connected device',
    '',
    `Method: ${fmt(DEVICES)} seeded devices connected over the device WebSocket from \`bench/devices-loadgen.mjs\` (one process, ticket then \`GET /api/display/ws\`, heartbeat every 60 s; each \`command\` frame acknowledged at once and counted by name with its arrival time). Two enabled actions, ENABLE_EMERGENCY_ON_DEVICE_ALL and DISABLE_EMERGENCY_ON_DEVICE_ALL. A round sends one trigger (\`POST ${TRIGGER}\`, one key) and is timed from sending it to the last device receiving its \`emergency\` command frame (the load generator's \`Date.now()\`, same clock). Baseline: the console's batch command \`POST /api/v2/device/emergency?emergencyStatus=true|false\` as the owner, every device of the tenant — the same command path (\`sendDeviceCommand\`: the devices' state, one command row each, the audit entry, the announcement) without the webhook's queue. ${ROUNDS} rounds of: webhook on, webhook off, batch on, batch off (1 s apart). For the webhook, the execution's own \`receivedAt\` and \`startedAt\` (the database's \`now()\` of the trigger's transaction and of the execution's, in which the effect runs) show how long it was queued.`,
    '',
    '| Database | command | last device p50 ms | max ms | min ms | first device p50 ms | answered p50 ms | received → execution began p50 ms | trigger sent → execution began p50 ms | ratio webhook ÷ batch (p50 last) | goal ≤ 2 s (max) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    const e = r.emergency;
    for (const status of [true, false]) {
      const web = e.rounds.filter((x) => x.via === 'webhook' && x.status === status);
      const batch = e.rounds.filter((x) => x.via === 'batch' && x.status === status);
      const w = { last: summary(web, 'lastMs'), first: summary(web, 'firstMs'), answered: summary(web, 'answeredMs') };
      const b = { last: summary(batch, 'lastMs'), first: summary(batch, 'firstMs'), answered: summary(batch, 'answeredMs') };
      const name = status ? 'ENABLE' : 'DISABLE';
      push(
        `| ${r.db} | webhook ${name}_EMERGENCY_ON_DEVICE_ALL | ${ms(w.last.p50)} | ${ms(w.last.max)} | ${ms(w.last.min)} | ${ms(w.first.p50)} | ${ms(w.answered.p50)} | ${ms(summary(web, 'queuedMs').p50)} | ${ms(summary(web, 'startedMs').p50)} | ${ratio(w.last.p50 / b.last.p50)} | ${goal(r, w.last.max <= GOALS.emergencyMs)} |`,
        `| ${r.db} | baseline: batch \`emergency\` ${status} | ${ms(b.last.p50)} | ${ms(b.last.max)} | ${ms(b.last.min)} | ${ms(b.first.p50)} | ${ms(b.answered.p50)} | — | — | 1.00× | — |`,
      );
    }
  }

  push(
    '',
    '### 3. Executions list',
    '',
    `Method: ${fmt(EXECUTIONS)} finished executions of one action (one a second back from now; every 50th FAILED) inserted with one \`generate_series\` statement per 20 000 and \`VACUUM ANALYZE\`d. One client, sequential requests on one keep-alive connection as the owner, ${fmt(READ_RUNS)} of each case in ${READ_ROUNDS} interleaved rounds (20 unmeasured first, 5 before each later slice); time until the whole answer arrived. Pages of ${PAGE_SIZE}: page 0 (the newest) and the last page. Baseline: \`GET ${ACTIONS}/{actionId}\` (the action the list first reads). "Raw SQL": the request's statements on its table captured in the server and run directly on the driver, plus \`JSON.stringify\` (bench/server-lib.ts \`baseline\`, 100 runs). "Before": the statement \`findPage\` built for this list until this benchmark (\`count(*) over ()\` of every execution of the action, the page by row address), run raw the same way on the same data, 30 runs.`,
    '',
    "| Database | request | bytes | p50 ms | p95 ms | p99 ms | ÷ baseline (p50) | raw SQL + JSON p50 ms | in-process app p50 ms | before: findPage's window count, raw SQL + JSON p50 ms | goal p50 ≤ 20 ms |",
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  );
  for (const r of results) {
    const l = r.list;
    const row = (label, x, bytes, before, goalCell) =>
      `| ${r.db} | ${label} | ${fmt(bytes)} | ${ms(x.p50, 2)} | ${ms(x.p95, 2)} | ${ms(x.p99, 2)} | ${ratio(x.p50 / l.action.p50)} | ${ms(x.raw.p50.total, 2)} | ${ms(x.raw.appInProcess.p50, 2)} | ${before === undefined ? '—' : ms(before.p50, 2)} | ${goalCell} |`;
    push(
      row('executions, page 0', l.first, l.bytes.first, l.windowCount.first, goal(r, l.first.p50 <= GOALS.listP50Ms)),
      row(
        `executions, page ${fmt(l.lastPage)} (the last)`,
        l.deep,
        l.bytes.deep,
        l.windowCount.deep,
        goal(r, l.deep.p50 <= GOALS.listP50Ms),
      ),
      row('baseline: the action', l.action, l.bytes.action, undefined, '—'),
    );
  }
  push('', 'Plans (EXPLAIN ANALYZE of the list statement, indexes read):', '');
  for (const r of results)
    for (const [label, x] of [
      ['page 0', r.list.first],
      [`page ${fmt(r.list.lastPage)}`, r.list.deep],
    ])
      push(`- ${r.db}, ${label}: ${x.raw.plans.map((p) => indexSummary(p, 'webhook_execution')).join(' / ')}`);
  for (const r of results)
    for (const [label, x] of [
      ['page 0', r.list.first],
      [`page ${fmt(r.list.lastPage)}`, r.list.deep],
    ])
      push(
        '',
        `<details><summary>${r.db}, executions ${label}: the statement and EXPLAIN (ANALYZE, BUFFERS)</summary>`,
        '',
        '```sql',
        ...x.raw.statements,
        '```',
        '',
        '```',
        ...x.raw.plans,
        '```',
        '',
        '</details>',
      );

  for (const r of results)
    push(
      '',
      `<details><summary>${r.db}, before: findPage's window count, page ${fmt(r.list.lastPage)}: EXPLAIN (ANALYZE, BUFFERS)</summary>`,
      '',
      '```',
      r.list.windowCount.deep.plan,
      '```',
      '',
      '</details>',
    );
  push('', '### Details and readings', '', ...readings(results), '', MARKERS.end);
  return lines.join('\n');
}

function readings(results) {
  const out = [];
  const short = (text) =>
    `\`${text.replace(/"/g, '').replace(/`/g, "'").replace(/\|/g, '\\|').slice(0, 100)}${text.length > 100 ? '…' : ''}\``;
  for (const r of results) {
    const x = r.triggers;
    const t = x.triggers;
    out.push(
      `- ${r.db}, triggers: the server waited for a core (runnable, not running) ${pctOf(t.cpu.waited)} of the window (load average ${t.cpu.load.toFixed(2)} at its end); the generator sent at most ${fmt(t.sendLagMaxMs, 1)} ms after a request's due time and had at most ${fmt(t.maxInFlight)} requests in flight. Every accepted trigger ran once: ${fmt(x.check.accepted)} triggers answered 202 over the whole phase (the first of each key, the windows, the trace${x.profile ? ', the profiled window' : ''}; answers a generator gave up waiting for are not among them), ${fmt(x.check.succeeded)} executions SUCCEEDED, and the ${fmt(KEYS)} counters add up to ${fmt(x.check.datasourceTotal)}${x.check.total.failures.length ? `; failures: ${x.check.total.failures.map((f) => `"${String(f).slice(0, 120)}"`).join('; ')}` : ''}.`,
    );
    const cost = x.capacity.perTrigger;
    out.push(
      `- ${r.db}, why: an accepted trigger with its execution cost the server ${fmt(cost.serverMs, 2)} ms of CPU${cost.postgresMs === undefined ? '' : ` and PostgreSQL's backends ${fmt(cost.postgresMs, 2)} ms`} (the capacity window: CPU from its start until its backlog drained ÷ the ${fmt(cost.executions)} executions that ran; the server waited for a core ${pctOf(cost.waited)} of that time; at the offered rate: ${fmt(t.perTrigger.serverMs, 2)} ms${t.perTrigger.postgresMs === undefined ? '' : ` and ${fmt(t.perTrigger.postgresMs, 2)} ms`}). One core of this machine serves at most ${fmt(1000 / cost.serverMs)} a second that way; ${fmt(GOALS.perSecond)} a second needs about ${fmt((GOALS.perSecond * cost.serverMs) / 1000, 1)} cores for the server${cost.postgresMs === undefined ? '' : ` and ${fmt((GOALS.perSecond * cost.postgresMs) / 1000, 1)} for PostgreSQL`} — the machine has 2, shared. Accepting comes first: the backlog grew during the load and was worked off after it (the executor takes what the triggers leave of the core).`,
    );
    const perTrigger = x.trace.triggers > 0 ? x.trace.statements / x.trace.triggers : Number.NaN;
    out.push(
      `- ${r.db}, statements (every statement of the server's driver over 6 s around ${fmt(x.trace.triggers)} triggers at 50/s and their executions, \`driverTrace\`): ${fmt(x.trace.statements)} = ${fmt(perTrigger, 1)} a trigger with its execution: ${x.trace.kinds
        .slice(0, 20)
        .map((k) => `${fmt(k.count / Math.max(1, x.trace.triggers), 2)} × ${short(k.sql)}`)
        .join('; ')}.`,
    );
    if (x.profile) {
      const p = x.profile;
      out.push(
        `- ${r.db}, where the server's CPU goes at ${fmt(x.rate)} triggers a second: a V8 CPU profile (node:inspector) over ${PROFILE_S} s of load and the drain after it (${fmt(inWindow(p.run))}/s answered, p99 ${ms(p.run.p99, 1)} ms; ${fmt(p.busySeconds, 1)} s busy of ${fmt(p.seconds, 1)} s sampled), self time by package: ${p.packages
          .slice(0, 8)
          .map((k) => `${k.pkg} ${pctOf(k.share)}`)
          .join(', ')}; top functions: ${p.functions
          .slice(0, 8)
          .map((f) => `\`${f.name}\` (${f.pkg}${f.where ? `, ${f.where.replace(/\|/g, '\\|')}` : ''}) ${pctOf(f.share)}`)
          .join(', ')}. (Profile file: \`${p.file.replace(`${root}/`, '')}\`, not committed.)`,
      );
    }
    const e = r.emergency;
    out.push(
      `- ${r.db}, emergency: ${fmt(e.connected)} devices connected in ${fmt(e.connectSeconds, 1)} s; sockets open at the end ${fmt(e.health.open)}, closed by the server ${fmt(e.health.closes)}, error frames ${fmt(e.health.errorFrames)}. Every round: ${e.rounds
        .map((x) => `${x.via} ${x.status ? 'on' : 'off'} ${fmt(x.lastMs)}`)
        .join(', ')} ms.`,
    );
    const kinds = (t) => t.kinds.map((k) => `${k.count} × ${short(k.sql)} ${fmt(k.ms)} ms`).join('; ');
    out.push(
      `- ${r.db}, emergency, where the time goes (one more round each way with every statement of the server's driver over 3 s, \`driverTrace\`; the devices' heartbeats and acknowledgements run meanwhile; by time): webhook ON, last device at ${fmt(e.traced.webhook.lastMs)} ms — ${kinds(e.traced.webhook)}. Batch ON, last device at ${fmt(e.traced.batch.lastMs)} ms — ${kinds(e.traced.batch)}.`,
    );
    const l = r.list;
    out.push(
      `- ${r.db}, executions list: seeding ${fmt(l.executions)} executions took ${fmt(l.seedSeconds, 1)} s. Statements besides the list's own (the auth layer's, the action's visibility check): ${l.first.raw.otherStatements}.`,
    );
  }
  return out;
}

// ---------------------------------------------------------------- main

async function main() {
  const startedAt = new Date();
  const loadBefore = os.loadavg()[0];
  log(
    `${fmt(KEYS)} keys at ${fmt(RATE)} triggers/s for ${WINDOW_S} s, ${fmt(DEVICES)} devices, ${fmt(EXECUTIONS)} executions${QUICK ? ' (quick mode)' : ''}; load average ${loadBefore.toFixed(2)}`,
  );
  const pgInfo = await preparePostgres({ database: PG_DATABASE });
  log(`PostgreSQL: ${pgInfo.url ? `${pgInfo.version}, ${pgInfo.note}` : pgInfo.note}`);
  const results = [];
  if (pgInfo.url) results.push(await runDatabase('PostgreSQL', pgInfo.url));
  if (process.env.BENCH_SKIP_PGLITE !== '1') results.push(await runDatabase('PGlite', undefined));
  const finishedAt = new Date();
  saveResults(root, 'webhooks', { startedAt, finishedAt, pgInfo, results });
  if (results.length === 0) throw new Error('no database was measured');
  if (!results.every((r) => r.triggers && r.emergency && r.list)) {
    log(
      `BENCH_WEBHOOKS_PHASES=${[...PHASES].join(',')}: not every part ran, nothing written to ${OUT} (figures in bench/.out/webhooks-results.json)`,
    );
    return;
  }
  writeSection(OUT, MARKERS, report({ startedAt, finishedAt, pgInfo, results, loadBefore, loadAfter: os.loadavg()[0] }));
  log(`written to ${OUT}`);
}

void runMain(main, watchdog);
