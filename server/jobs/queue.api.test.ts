import { eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthTokenFamilies } from '@/server/modules/oauth/oauth.table';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { moduleJobs } from '@/server/modules';
import { registerJobs, startJobQueue, type JobQueue } from './queue';

let t: TestContext;
let queue: JobQueue;
beforeAll(async () => {
  t = await createTestContext();
  queue = await startJobQueue(t.handle, createLogger('silent'), t.databaseUrl);
  await registerJobs(queue, moduleJobs({ db: t.db, config: t.config, log: createLogger('silent') }), createLogger('silent'), 0.5);
}, 60_000);
afterAll(async () => {
  await queue.stop();
  await t.close();
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }

  return false;
}

describe('durable job queue', () => {
  it('runs the expired-token cleanup: expired families go, live ones stay', async () => {
    const user = await t.factories.user();
    const expired = uuidv7();
    const live = uuidv7();
    await t.db.insert(oauthTokenFamilies).values([
      { id: expired, userId: user.id, clientId: 'default-client', expiresAt: new Date(Date.now() - 60_000) },
      { id: live, userId: user.id, clientId: 'default-client', expiresAt: new Date(Date.now() + 60_000) },
    ]);
    const jobId = await queue.boss.send('auth.remove-expired-tokens', {});
    expect(jobId).toBeTruthy();
    const gone = await until(async () => (await t.db.select().from(oauthTokenFamilies).where(eq(oauthTokenFamilies.id, expired))).length === 0);
    expect(gone).toBe(true);
    expect(await t.db.select().from(oauthTokenFamilies).where(eq(oauthTokenFamilies.id, live))).toHaveLength(1);
    const done = await until(async () => (await queue.boss.getJobById('auth.remove-expired-tokens', jobId!))?.state === 'completed');
    expect(done).toBe(true);
  });

  it('keeps the cleanup on a cron schedule', async () => {
    const schedules = await queue.boss.getSchedules();
    expect(schedules.map((s) => s.name)).toContain('auth.remove-expired-tokens');
  });
});
