// HTTP load generator of scripts/bench-webhooks.mjs, in a process of its own (pinned to the load generator core) so
// the server's CPU is measured alone. Requests rotate over a list (each trigger key with its own event id, or one
// GET), on keep-alive connections (at most `sockets` open; requests beyond wait for one, and that wait counts).
//   open loop: request i is due at t0 + i / rate whatever the answers do; its latency runs from its due time to the
//     end of its answer, so a server that falls behind shows as latency (no coordinated omission);
//   closed loop: `concurrency` requests in flight, each sent when the one before it was answered (the capacity).
// A run: `warmupSeconds` unmeasured, then `seconds` measured (the requests due, or sent, in that window: their
// latencies and statuses), then the answers still outstanding are awaited (at most `drainSeconds`; those left count as
// timeouts). Throughput: the answers that arrived within the window (`statusesInWindow`), whatever was due. Driven over IPC:
//   {type:'run', base, mode:'open'|'closed', rate, concurrency, sockets, warmupSeconds, seconds, drainSeconds,
//    requests:[{method, path, headers, body}]} → {type:'done', …};  {type:'stop'} → exits.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? null;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function send(agent, base, spec) {
  return new Promise((resolve) => {
    const req = http.request(`${base}${spec.path}`, { method: spec.method, agent, headers: spec.headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] }));
      res.on('error', (err) => resolve({ status: 0, error: err.message }));
    });
    req.on('error', (err) => resolve({ status: 0, error: err.message }));
    req.end(spec.payload);
  });
}

async function run(msg) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: msg.sockets ?? 256, keepAliveMsecs: 30_000 });
  const specs = msg.requests.map((r) => {
    const payload = r.body === undefined ? undefined : Buffer.from(JSON.stringify(r.body));
    const headers = { ...(r.headers ?? {}) };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    return { method: r.method ?? 'GET', path: r.path, headers, payload };
  });
  const warmupMs = msg.warmupSeconds * 1000;
  const windowMs = msg.seconds * 1000;
  const t0 = performance.now();
  const measuredFrom = t0 + warmupMs;
  const measuredTo = measuredFrom + windowMs;
  const measured = [];
  const statuses = {};
  const allStatuses = {};
  const statusesInWindow = {};
  const errors = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let k = 0;
  let answeredInWindow = 0;
  const outstanding = new Set();

  const fire = (dueAt) => {
    const spec = specs[k++ % specs.length];
    const counted = dueAt >= measuredFrom && dueAt < measuredTo;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const p = send(agent, msg.base, spec).then((r) => {
      const end = performance.now();
      inFlight--;
      outstanding.delete(p);
      if (end >= measuredFrom && end < measuredTo) {
        answeredInWindow++;
        statusesInWindow[r.status] = (statusesInWindow[r.status] ?? 0) + 1;
      }
      allStatuses[r.status] = (allStatuses[r.status] ?? 0) + 1;
      if (!counted) return;
      measured.push(end - dueAt);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.error && errors.length < 5) errors.push(r.error);
    });
    outstanding.add(p);
    return p;
  };

  let lagMax = 0;
  if (msg.mode === 'open') {
    const interval = 1000 / msg.rate;
    let next = t0;
    while (next < measuredTo) {
      const now = performance.now();
      // Everything due by now goes out (timers fire at best every millisecond); how late the sending ran is kept.
      while (next <= now && next < measuredTo) {
        lagMax = Math.max(lagMax, now - next);
        void fire(next);
        next += interval;
      }
      await sleep(Math.max(0, Math.min(1, next - performance.now())));
    }
  } else {
    const worker = async () => {
      while (performance.now() < measuredTo) await fire(performance.now());
    };
    await Promise.all(Array.from({ length: msg.concurrency }, worker));
  }
  const drainDeadline = performance.now() + (msg.drainSeconds ?? 60) * 1000;
  while (outstanding.size > 0 && performance.now() < drainDeadline) await sleep(20);
  const timeouts = outstanding.size;
  agent.destroy();
  const sorted = measured.sort((a, b) => a - b);
  const sent = sorted.length + timeouts;

  return {
    type: 'done',
    mode: msg.mode,
    rate: msg.rate,
    concurrency: msg.concurrency,
    seconds: msg.seconds,
    sent,
    answered: sorted.length,
    timeouts,
    statuses,
    allStatuses,
    statusesInWindow,
    errors,
    perSecond: sorted.length / msg.seconds,
    answeredPerSecondInWindow: answeredInWindow / msg.seconds,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
    mean: sorted.length ? sorted.reduce((s, x) => s + x, 0) / sorted.length : null,
    maxInFlight,
    sendLagMaxMs: lagMax,
  };
}

process.on('message', (msg) => {
  if (msg.type === 'run')
    run(msg).then(
      (r) => process.send(r),
      (err) => process.send({ type: 'done', error: err.stack ?? err.message }),
    );
  else if (msg.type === 'stop') process.exit(0);
});
process.on('disconnect', () => process.exit(0));
