import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';
import type { Database, DatabaseHandle } from '@/server/db/client';

/** Request latency buckets, 5 ms … 10 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Statement buckets, 1 ms … 5 s: most statements are index lookups. */
const STATEMENT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** The methods a label may name; anything else is `other` (the label set stays bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A count read from the database when scraped. */
type CountReader = () => Promise<number>;
/** Waiting jobs by queue name, read when scraped. */
type QueueDepthReader = () => Promise<ReadonlyMap<string, number>>;

/**
 * The service's Prometheus metrics on a registry of its own (several services in one process, as in tests, never
 * share one). Labels carry only bounded values: route templates, methods, status codes, queue names, states.
 */
export type Metrics = {
  registry: Registry;
  contentType: string;
  /** The exposition (text format); the readers run now, so a scrape costs a few indexed statements. */
  exposition: () => Promise<string>;
  observeRequest: (request: { route: string; method: string; status: number; seconds: number }) => void;
  observeStatement: (seconds: number) => void;
  countDeliveredCommands: (count: number) => void;
  countAcceptedPlays: (count: number) => void;
  countJobFailure: (queue: string) => void;
  /** Adds this instance's connected devices (a socket endpoint's count); answers the function that removes it. */
  addConnectedDevices: (read: () => number) => () => void;
  readPendingCommands: (read: CountReader) => void;
  readQueueDepths: (read: QueueDepthReader | undefined) => void;
  /** The pool whose use `signage_db_pool_connections` reports (node-postgres; PGlite: its one connection). */
  readPool: (handle: DatabaseHandle) => void;
};

export function createMetrics(log: Logger): Metrics {
  const registry = new Registry();
  // Process memory, CPU, handles and event-loop lag under their usual names (process_*, nodejs_*), which ready-made
  // Node.js dashboards expect; the service's own metrics carry the signage_ prefix.
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'signage_http_requests_total',
    help: 'HTTP requests answered by the API, by route template, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'signage_http_request_duration_seconds',
    help: 'Time from receiving a request to its response headers, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const statementSeconds = new Histogram({
    name: 'signage_db_statement_duration_seconds',
    help: 'Time of each SQL statement on the PostgreSQL pool, from sending to its result',
    buckets: STATEMENT_BUCKETS,
    registers: [registry],
  });
  const delivered = new Counter({
    name: 'signage_device_commands_delivered_total',
    help: 'Device commands sent to devices (WebSocket push or heartbeat answer); a repeat after a reconnect counts again',
    registers: [registry],
  });
  const plays = new Counter({
    name: 'signage_proof_of_play_plays_accepted_total',
    help: 'Play events accepted and stored by the proof-of-play ingest',
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'signage_job_failures_total',
    help: 'Jobs that failed (they are retried as their queue says), by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });

  const deviceCounts = new Set<() => number>();
  new Gauge({
    name: 'signage_websocket_devices_connected',
    help: 'Devices with an open WebSocket to this instance',
    registers: [registry],
    collect() {
      let total = 0;
      for (const read of deviceCounts) total += read();
      this.set(total);
    },
  });

  let pendingCommands: CountReader | undefined;
  new Gauge({
    name: 'signage_device_commands_pending',
    help: 'Device commands not acknowledged and not expired (the whole database, the same on every instance)',
    registers: [registry],
    async collect() {
      this.reset();
      const count = await readSafely(pendingCommands, 'pending commands');
      if (count !== undefined) this.set(count);
    },
  });

  let queueDepths: QueueDepthReader | undefined;
  new Gauge({
    name: 'signage_job_queue_depth',
    help: 'Jobs waiting to run (created or retrying), by queue (the whole database)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const depths = await readSafely(queueDepths, 'job queue depth');
      for (const [queue, depth] of depths ?? []) this.set({ queue }, depth);
    },
  });

  let pool: DatabaseHandle | undefined;
  new Gauge({
    name: 'signage_db_pool_connections',
    help: 'Database connections of this instance by state: total, idle; waiting counts queries waiting for one (node-postgres only)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (pool?.pool) {
        this.set({ state: 'total' }, pool.pool.totalCount);
        this.set({ state: 'idle' }, pool.pool.idleCount);
        this.set({ state: 'waiting' }, pool.pool.waitingCount);
      } else if (pool?.pglite) {
        // PGlite is one embedded connection; it reports no idle or waiting state.
        this.set({ state: 'total' }, pool.pglite.closed ? 0 : 1);
      }
    },
  });

  // A reader that fails (the database away) leaves its metric out of this scrape instead of failing the scrape.
  async function readSafely<T>(read: (() => Promise<T>) | undefined, what: string): Promise<T | undefined> {
    if (!read) return undefined;
    try {
      return await read();
    } catch (err) {
      log.warn({ err }, `metrics: ${what} not read`);

      return undefined;
    }
  }

  return {
    registry,
    contentType: registry.contentType,
    exposition: () => registry.metrics(),
    observeRequest({ route, method, status, seconds }) {
      const labels = { route, method: METHODS.has(method) ? method : 'other' };
      requests.inc({ ...labels, status: String(status) });
      requestSeconds.observe(labels, seconds);
    },
    observeStatement: (seconds) => statementSeconds.observe(seconds),
    countDeliveredCommands: (count) => {
      if (count > 0) delivered.inc(count);
    },
    countAcceptedPlays: (count) => {
      if (count > 0) plays.inc(count);
    },
    countJobFailure: (queue) => jobFailures.inc({ queue }),
    addConnectedDevices(read) {
      deviceCounts.add(read);

      return () => deviceCounts.delete(read);
    },
    readPendingCommands(read) {
      pendingCommands = read;
    },
    readQueueDepths(read) {
      queueDepths = read;
    },
    readPool(handle) {
      pool = handle;
    },
  };
}

const byDatabase = new WeakMap<Database, Metrics>();

/**
 * Makes `metrics` the one that code holding `db` counts into (the socket endpoints, the job queue, services), so
 * the counters need no parameter through every layer; answers the function that removes it.
 */
export function installMetrics(db: Database, metrics: Metrics): () => void {
  byDatabase.set(db, metrics);

  return () => {
    if (byDatabase.get(db) === metrics) byDatabase.delete(db);
  };
}

/** The metrics installed for `db`; undefined where none are (scripts, some tests): nothing is counted. */
export function metricsOf(db: Database): Metrics | undefined {
  return byDatabase.get(db);
}
