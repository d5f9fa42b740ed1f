import { nextCronTime } from './cron';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { v4 as uuidv4, v5 as uuidv5 } from 'uuid';
import type { DatabaseHandle } from '@/server/db/client';
import { listenToChannel, notifyChannel, type NotificationFeed } from '@/server/db/notification-feed';
import { metricsOf } from '@/server/metrics/metrics';
import { JobRunner, type ClaimedJob, type JobStore } from './runner';

/**
 * The durable job queue (pg-boss 10) on the service's own database. On PostgreSQL it uses its
 * own small pool; on PGlite it shares the one embedded instance through a tiny adapter, since
 * only one connection exists and the workers must live in the server process.
 *
 * pg-boss stores, claims (SKIP LOCKED), retries and expires the jobs; when to look for them is the runner's
 * (server/jobs/runner.ts): pg-boss's own polling workers and its cron clock are not used.
 */
export type JobQueue = {
  boss: PgBoss;
  /** Creates each job's queue (pg-boss needs it before send/fetch), then runs them: workers, schedules, wake-ups. */
  register: (jobs: JobDefinition[]) => Promise<void>;
  /** Sends a job; this instance's worker and (NOTIFY) every other instance's wake for it. Null: a duplicate. */
  send: (name: string, data?: object, options?: PgBoss.SendOptions) => Promise<string | null>;
  /** Nothing is fetched, probed or run, and no wake-up is due (diagnostics and tests). */
  isIdle: () => boolean;
  /**
   * Aborted when `stop` begins: a job that waits between steps (the offline sweep) ends early, and the modules' side
   * workers (given it in their JobDeps) claim no more.
   */
  stopping: AbortSignal;
  /** Claims no more jobs; the running ones get `timeoutMs` (default 10 s) to finish, then are handed back (retried). */
  stop: (timeoutMs?: number) => Promise<void>;
};

const SCHEMA = 'pgboss';
/** Wakes the workers of every instance on the database: `<instance> <queue>` (an instance ignores its own). */
const WAKE_CHANNEL = 'signage_jobs';
/** Maintenance (expiring jobs whose worker died, archiving, deleting) every 10 minutes instead of pg-boss's 2. */
const MAINTENANCE_SECONDS = 600;
const STOP_TIMEOUT_MS = 10_000;
/** The advisory lock around creating the queues ("QUEU" in ASCII; beside the migrations' "SIGN", server/db/client.ts). */
const QUEUE_SETUP_LOCK_KEY = 0x51554555;
/** The UUIDv5 namespace of scheduledRunId. */
const SCHEDULED_RUN_NAMESPACE = 'b0f8c6f2-3a4e-4d7e-9a51-5c2f0e6d8a17';

function pgliteAdapter(pglite: PGlite): { executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values) {
      try {
        if (values && values.length > 0) {
          const result = await pglite.query(text, values);

          return { rows: result.rows };
        }
        // pg-boss sends multi-statement blocks without parameters: exec runs them all.
        const results = await pglite.exec(text);

        return { rows: results.flatMap((r) => r.rows) };
      } catch (err) {
        // One connection: a block that failed inside BEGIN would leave every later query aborted.
        if (pglite.isInTransaction()) await pglite.exec('ROLLBACK').catch(() => undefined);
        throw err;
      }
    },
  };
}

export async function startJobQueue(handle: DatabaseHandle, log: Logger, databaseUrl?: string): Promise<JobQueue> {
  // No cron clock (`schedule: false`): the runner fires schedules itself. Maintenance stays pg-boss's.
  const common = { schema: SCHEMA, schedule: false, supervise: true, maintenanceIntervalSeconds: MAINTENANCE_SECONDS };
  const options: PgBoss.ConstructorOptions =
    handle.driver === 'pglite' ? { ...common, db: pgliteAdapter(handle.pglite!) } : { ...common, connectionString: databaseUrl, max: 3 };
  const boss = new PgBoss(options);
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();

  const instance = uuidv4();
  const metrics = metricsOf(handle.db);
  metrics?.readQueueDepths(() => queueDepths(handle));
  let runner: JobRunner | undefined;
  let feed: NotificationFeed | undefined;
  const stopping = new AbortController();

  return {
    boss,
    async register(jobs) {
      const createQueues = async () => {
        for (const job of jobs) {
          await boss.createQueue(job.name);
          // A schedule pg-boss's own cron clock kept (before the runner fired them): an older instance must not send it too.
          if (job.cron) await boss.unschedule(job.name);
        }
      };
      // Each queue is a partition of pg-boss's job table: instances creating them at once on a fresh PostgreSQL
      // database attach partitions in interleaved order and deadlock (one instance then fails to start; found by the
      // cluster test). One instance at a time: the others wait, then find the queues there. PGlite has one process.
      if (handle.driver === 'pglite') await createQueues();
      else
        await handle.db.transaction(async (tx) => {
          // Held by this transaction (another connection than pg-boss's) until pg-boss has created every queue.
          await tx.execute(sql`select pg_advisory_xact_lock(${QUEUE_SETUP_LOCK_KEY})`);
          await createQueues();
        });
      const started = new JobRunner(
        jobStore(boss, handle),
        jobs.map((job) => ({
          name: job.name,
          run: (data) => job.run(data as object, stopping.signal),
          nextFire: job.cron ? (after: number) => nextScheduledRun(job.name, job.cron!, after) : undefined,
        })),
        log,
      );
      runner = started;
      started.start();
      // Listening after the start: the feed's first `live` probes again, catching what was sent in between.
      feed = await listenToChannel(
        handle,
        WAKE_CHANNEL,
        {
          message: (payload) => {
            const [from, name] = payload.split(' ');
            if (from !== instance && name) started.wake(name);
          },
          live: (live) => started.setLive(live),
        },
        log,
      );
    },
    async send(name, data = {}, sendOptions = {}) {
      const id = await boss.send(name, data, sendOptions);
      if (id) {
        runner?.wake(name);
        await notifyChannel(handle.db, WAKE_CHANNEL, [`${instance} ${name}`]).catch((err: unknown) =>
          log.warn({ err, job: name }, 'job wake-up not sent'),
        );
      }

      return id;
    },
    isIdle: () => runner?.idle ?? true,
    stopping: stopping.signal,
    async stop(timeoutMs = STOP_TIMEOUT_MS) {
      stopping.abort();
      if (runner) {
        await runner.stop(timeoutMs);
        // Jobs still running are handed back (retried here or elsewhere), as pg-boss's own workers do on a stop.
        for (const { name, id } of runner.active.values())
          await boss.fail(name, id, { message: 'stopped while active' }).catch(() => undefined);
      }
      await feed?.stop();
      metrics?.readQueueDepths(undefined);
      // No pg-boss worker runs (the runner fetches), so nothing is left for it to wait for: its shortest wait.
      await boss.stop({ graceful: true, timeout: 1_000 });
    },
  };
}

export type JobDefinition<T extends object = object> = {
  name: string;
  /** Cron schedule (UTC) for recurring jobs. */
  cron?: string;
  /** `stopping`: aborted when the instance stops; a long job ends at its next step (the rest is the next run's). */
  run: (data: T, stopping: AbortSignal) => Promise<void>;
};

/** The id of the run of schedule `name` at `fireAt`: the same in every instance, so the job table keeps one. */
export function scheduledRunId(name: string, fireAt: number): string {
  return uuidv5(`${name}@${new Date(fireAt).toISOString()}`, SCHEDULED_RUN_NAMESPACE);
}

/** A job's schedule (UTC) fires again; one that never would is a programming error, found at the start. */
function nextScheduledRun(name: string, cron: string, after: number): number {
  const next = nextCronTime(cron, after);
  if (next === undefined) throw new Error(`The schedule of job ${name} (${cron}) never fires`);
  return next;
}

function jobStore(boss: PgBoss, handle: DatabaseHandle): JobStore {
  return {
    async fetch(name) {
      const jobs = (await boss.fetch(name, { batchSize: 1 })) as unknown as Array<{
        id: string;
        data: unknown;
        expireInSeconds?: number | string;
      }>;

      return jobs.map((job): ClaimedJob => ({
        id: job.id,
        data: job.data,
        expireInSeconds: job.expireInSeconds === undefined ? undefined : Number(job.expireInSeconds),
      }));
    },
    async complete(name, id) {
      await boss.complete(name, id);
    },
    async fail(name, id, error) {
      metricsOf(handle.db)?.countJobFailure(name);
      await boss.fail(name, id, error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) });
    },
    async pending() {
      // The earliest waiting job of each queue, relative to the database's clock (no skew between instances).
      const result = await handle.db.execute(sql`select name, (extract(epoch from min(start_after) - now()) * 1000)::float8 as delay
        from ${sql.identifier(SCHEMA)}.job where state < 'active' group by name`);
      const rows = (result as unknown as { rows: Array<{ name: string; delay: number | string }> }).rows;

      return new Map(rows.map((row) => [row.name, Number(row.delay)]));
    },
    async sendScheduled(name, fireAt) {
      await boss.send(name, {}, { id: scheduledRunId(name, fireAt) });
    },
  };
}

/**
 * Jobs waiting to run (created or retrying, due or not) by queue: one grouped count over the index pg-boss keeps for
 * fetching (`name, start_after … where state < 'active'`), read when the metrics are scraped.
 */
async function queueDepths(handle: DatabaseHandle): Promise<Map<string, number>> {
  const result = await handle.db.execute(
    sql`select name, count(*)::int as depth from ${sql.identifier(SCHEMA)}.job where state < 'active' group by name`,
  );
  // Both drivers answer `{ rows }`; drizzle's execute types the result per driver.
  const rows = (result as unknown as { rows: Array<{ name: string; depth: number | string }> }).rows;

  return new Map(rows.map((row) => [row.name, Number(row.depth)]));
}
