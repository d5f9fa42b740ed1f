import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthTokenFamilies } from '@/server/modules/oauth/oauth.table';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { moduleJobs } from '@/server/composition';
import { scheduledRunId, startJobQueue, type JobDefinition, type JobQueue } from './queue';
import { RUNNER_TIMING } from './runner';

/*
 * The job queue on the test's database (PGlite, or PostgreSQL with DATABASE_URL), as several instances of the
 * service would run it. The periodic probe is set to ten minutes, so a job that runs within a test was woken: by its
 * local send, by another instance's (NOTIFY), or by the timer its start time armed, never by a poll.
 */

const silent = createLogger('silent');
const CLEANUP = 'auth.remove-expired-tokens';
const runs = new Map<string, number>();
const attempts = new Map<string, number>();

const testJobs = (): JobDefinition[] => [
  moduleJobs({ db: t.db, config: t.config, log: silent }).find((job) => job.name === CLEANUP)!,
  {
    name: 'test.count',
    run: async (data) => {
      const { key } = data as { key: string };
      runs.set(key, (runs.get(key) ?? 0) + 1);
    },
  },
  {
    name: 'test.flaky',
    run: async (data) => {
      const { key } = data as { key: string };
      attempts.set(key, (attempts.get(key) ?? 0) + 1);
      if (attempts.get(key) === 1) throw new Error('first attempt fails');
    },
  },
];

let t: TestContext;
const queues: JobQueue[] = [];
let a: JobQueue;
let b: JobQueue;
/** A third instance that only sends: it runs none of these jobs. */
let sender: JobQueue;
const saved = { ...RUNNER_TIMING };

beforeAll(async () => {
  Object.assign(RUNNER_TIMING, { probeMinMs: 600_000, probeMaxMs: 600_000, probeMaxDeafMs: 600_000 });
  t = await createTestContext();
  for (const jobs of [testJobs(), testJobs(), []]) {
    const queue = await startJobQueue(t.handle, silent, t.databaseUrl);
    await queue.register(jobs);
    queues.push(queue);
  }
  [a, b, sender] = queues as [JobQueue, JobQueue, JobQueue];
}, 60_000);
afterAll(async () => {
  for (const queue of queues) await queue.stop();
  await t.close();
  Object.assign(RUNNER_TIMING, saved);
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }

  return false;
}

const idle = () => until(() => queues.every((q) => q.isIdle()));
const stateOf = async (queue: JobQueue, name: string, id: string) => (await queue.boss.getJobById(name, id))?.state;

describe('durable job queue', () => {
  it('runs the expired-token cleanup sent after an idle period: expired families go, live ones stay', async () => {
    const user = await t.factories.user();
    const expired = uuidv7();
    const live = uuidv7();
    await t.db.insert(oauthTokenFamilies).values([
      { id: expired, userId: user.id, clientId: 'default-client', expiresAt: new Date(Date.now() - 60_000) },
      { id: live, userId: user.id, clientId: 'default-client', expiresAt: new Date(Date.now() + 60_000) },
    ]);
    expect(await idle()).toBe(true);
    const jobId = await a.send(CLEANUP);
    expect(jobId).toBeTruthy();
    expect(await until(async () => (await stateOf(a, CLEANUP, jobId!)) === 'completed')).toBe(true);
    expect(await t.db.select().from(oauthTokenFamilies).where(eq(oauthTokenFamilies.id, expired))).toHaveLength(0);
    expect(await t.db.select().from(oauthTokenFamilies).where(eq(oauthTokenFamilies.id, live))).toHaveLength(1);
  });

  it("wakes the other instances' workers on a send (NOTIFY): an instance without them sends, another runs", async () => {
    expect(await idle()).toBe(true);
    const jobId = await sender.send('test.count', { key: 'notified' });
    expect(await until(() => runs.get('notified') === 1)).toBe(true);
    expect(await until(async () => (await stateOf(a, 'test.count', jobId!)) === 'completed')).toBe(true);
  });

  it('runs a delayed send once it falls due, not before', async () => {
    expect(await idle()).toBe(true);
    const jobId = await a.send('test.count', { key: 'delayed' }, { startAfter: 2 });
    expect(await until(() => runs.get('delayed') === 1)).toBe(true);
    const job = await a.boss.getJobById('test.count', jobId!);
    expect(job!.startedOn!.getTime()).toBeGreaterThanOrEqual(job!.startAfter.getTime());
  });

  it('runs a failed job again at its retry time (startAfter), then completes it', async () => {
    expect(await idle()).toBe(true);
    const jobId = await b.send('test.flaky', { key: 'retried' }, { retryLimit: 2, retryDelay: 2 });
    expect(await until(async () => (await stateOf(b, 'test.flaky', jobId!)) === 'completed')).toBe(true);
    expect(attempts.get('retried')).toBe(2);
    expect((await b.boss.getJobById('test.flaky', jobId!))!.retryCount).toBe(1);
  });

  it('never runs one job twice, whichever instance sends it and however many wake for it', async () => {
    expect(await idle()).toBe(true);
    const keys = Array.from({ length: 30 }, (_, i) => `many-${i}`);
    await Promise.all(keys.map((key, i) => [a, b, sender][i % 3]!.send('test.count', { key })));
    expect(await until(() => keys.every((key) => runs.has(key)))).toBe(true);
    expect(await idle()).toBe(true);
    expect(keys.map((key) => runs.get(key))).toEqual(keys.map(() => 1));
  });

  it("keeps one run of a schedule's minute, however many instances send it", async () => {
    const fireAt = Date.UTC(2026, 0, 1, 12, 0);
    const first = await a.boss.send('test.count', { key: 'scheduled' }, { id: scheduledRunId('test.count', fireAt) });
    const second = await b.boss.send('test.count', { key: 'scheduled' }, { id: scheduledRunId('test.count', fireAt) });
    expect(first).toBe(scheduledRunId('test.count', fireAt));
    expect(second).toBeNull();
  });
});

describe('instances starting together', () => {
  it("create the service's queues on a fresh database at the same time without failing (PostgreSQL: no deadlock)", async () => {
    const fresh = await createTestContext();
    const starting: JobQueue[] = [];
    try {
      for (let i = 0; i < 2; i++) starting.push(await startJobQueue(fresh.handle, silent, fresh.databaseUrl));
      const jobs = () => moduleJobs({ db: fresh.db, config: fresh.config, log: silent });
      // Each instance creates every queue (a partition of pg-boss's job table each) in the same order, all at once.
      await Promise.all(starting.map((queue) => queue.register(jobs())));
      const names = (await starting[0]!.boss.getQueues()).map((queue) => queue.name);
      expect(names).toEqual(expect.arrayContaining(jobs().map((job) => job.name)));
    } finally {
      for (const queue of starting) await queue.stop();
      await fresh.close();
    }
  });
});
