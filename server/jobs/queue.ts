import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '@/server/db/client';

/**
 * The durable job queue (pg-boss 10) on the service's own database. On PostgreSQL it uses its
 * own small pool; on PGlite it shares the one embedded instance through a tiny adapter, since
 * only one connection exists and the workers must live in the server process.
 */
export type JobQueue = {
  boss: PgBoss;
  stop: () => Promise<void>;
};

export function pgliteAdapter(pglite: PGlite): { executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }> } {
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
  const options: PgBoss.ConstructorOptions =
    handle.driver === 'pglite'
      ? { db: pgliteAdapter(handle.pglite!), schema: 'pgboss' }
      : { connectionString: databaseUrl, schema: 'pgboss', max: 3 };
  const boss = new PgBoss(options);
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();

  return {
    boss,
    stop: () => boss.stop({ graceful: true, timeout: 10_000 }),
  };
}

export type JobDefinition<T extends object = object> = {
  name: string;
  /** Cron schedule (UTC) for recurring jobs. */
  cron?: string;
  run: (data: T) => Promise<void>;
};

/** Creates each queue (pg-boss needs it before send/work), schedules cron jobs and starts one worker each. */
export async function registerJobs(queue: JobQueue, jobs: JobDefinition[], log: Logger, pollingIntervalSeconds = 2): Promise<void> {
  for (const job of jobs) {
    await queue.boss.createQueue(job.name);
    if (job.cron) await queue.boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
    await queue.boss.work(job.name, { pollingIntervalSeconds }, async (batch) => {
      for (const item of batch) {
        const started = performance.now();
        try {
          await job.run(item.data as object);
        } catch (err) {
          log.error({ err, job: job.name, id: item.id }, 'job failed');
          throw err; // pg-boss records the failure and retries per its policy
        }
        // Debug: periodic jobs (mail every minute) would fill the log; failures are logged above.
        log.debug({ job: job.name, id: item.id, ms: Math.round(performance.now() - started) }, 'job done');
      }
    });
  }
}
