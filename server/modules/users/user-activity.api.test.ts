import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { users } from './users.table';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const rowOf = async (userId: string) => (await t.db.select().from(users).where(eq(users.id, userId)))[0]!;
/** Moves the user's last activity into the past, as if that much time had gone by. */
/** Moves the user's last activity back in time; the process's token cache, which remembers it, forgets the user. */
const activityAgo = async (userId: string, seconds: number) => {
  await t.db
    .update(users)
    .set({ lastActivity: sql`now() - make_interval(secs => ${seconds})` })
    .where(eq(users.id, userId));
  t.authCache.apply({ userId });
};
const me = (token: string) => t.request('GET', '/api/v2/user/me', { token });

describe('sign-in', () => {
  it('counts each successful sign-in and sets lastLogin and lastActivity; a failed one changes nothing', async () => {
    const user = await t.factories.user({ role: 'EDITOR' });
    expect(await rowOf(user.id)).toMatchObject({ loginCount: 0, lastLogin: null, lastActivity: null, presenceTimeSeconds: 0 });

    await t.signIn(user.email);
    const first = await rowOf(user.id);
    expect(first.loginCount).toBe(1);
    expect(first.lastLogin).toBeInstanceOf(Date);
    expect(first.lastActivity).toEqual(first.lastLogin);

    await t.signIn(user.email);
    expect((await rowOf(user.id)).loginCount).toBe(2);

    const failed = await t.token({ grant_type: 'password', username: user.email, password: `${TEST_PASSWORD}-wrong` });
    expect(failed.status).toBe(400);
    expect((await rowOf(user.id)).loginCount).toBe(2);
  });

  it('does not count a refresh (it continues the session)', async () => {
    const user = await t.factories.user();
    const signIn = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const refreshed = await t.token({ grant_type: 'refresh_token', refresh_token: signIn.body.refresh_token as string });
    expect(refreshed.status).toBe(200);
    expect((await rowOf(user.id)).loginCount).toBe(1);
  });

  it('answers lastLogin and lastActivity on the user', async () => {
    const { user, token } = await t.actor('VIEWER');
    const res = await me(token);
    expect(res.status).toBe(200);
    const row = await rowOf(user.id);
    expect(res.body.lastLogin).toBe(row.lastLogin!.toISOString());
    expect(res.body.lastActivity).toBe(row.lastActivity!.toISOString());
  });
});

describe('activity of authenticated requests', () => {
  it('writes at most once a minute: presence grows by the gap once the minute has passed', async () => {
    const { user, token } = await t.actor('VIEWER');
    await activityAgo(user.id, 30);
    const before = await rowOf(user.id);
    expect((await me(token)).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ lastActivity: before.lastActivity, presenceTimeSeconds: 0 });

    await activityAgo(user.id, 90);
    const stale = await rowOf(user.id);
    expect((await me(token)).status).toBe(200);
    const after = await rowOf(user.id);
    expect(after.lastActivity!.getTime()).toBeGreaterThan(stale.lastActivity!.getTime());
    expect(after.presenceTimeSeconds).toBeGreaterThanOrEqual(90);
    expect(after.presenceTimeSeconds).toBeLessThan(150);

    // Within the minute again: nothing is written, however many requests come.
    await Promise.all([me(token), me(token), me(token)]);
    expect(await rowOf(user.id)).toEqual(after);
  });

  it('adds nothing for a gap above the idle threshold: a new presence period starts', async () => {
    const { user, token } = await t.actor('VIEWER');
    await activityAgo(user.id, 10 * 60);
    const stale = await rowOf(user.id);
    await me(token);
    const after = await rowOf(user.id);
    expect(after.presenceTimeSeconds).toBe(0);
    expect(after.lastActivity!.getTime()).toBeGreaterThan(stale.lastActivity!.getTime());
  });

  it('records the first activity of a user who has none, without presence', async () => {
    const { user, token } = await t.actor('VIEWER');
    await t.db.update(users).set({ lastActivity: null }).where(eq(users.id, user.id));
    await me(token);
    const after = await rowOf(user.id);
    expect(after.lastActivity).toBeInstanceOf(Date);
    expect(after.presenceTimeSeconds).toBe(0);
  });

  it('records activity through the JWT form of the token too', async () => {
    const user = await t.factories.user();
    const signIn = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    await activityAgo(user.id, 120);
    await me(signIn.body.jwt_access_token as string);
    expect((await rowOf(user.id)).presenceTimeSeconds).toBeGreaterThanOrEqual(120);
  });

  it('is not a change: no audit entry', async () => {
    const { user, token } = await t.actor('VIEWER');
    const entries = () => t.db.select().from(auditLog).where(eq(auditLog.entityId, user.id));
    const before = await entries();
    expect(before.map((e) => e.action)).toEqual(['signIn']);
    await activityAgo(user.id, 90);
    await me(token);
    expect(await entries()).toEqual(before);
  });
});
