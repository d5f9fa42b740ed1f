import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '@/server/db/client';
import { createApp } from '@/server/composition';
import type { App } from '@/server/http/app';
import { createLogger } from '@/server/logger';
import { customers } from '@/server/tenant/customers.table';
import { users } from '@/server/modules/users/users.table';
import { createTestContext, TEST_CLIENT_SECRET, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { AuthCache, installAuthCache } from './auth-cache';
import { startAuthChangeListener, type AuthChangeListener } from './auth-change-listener';
import { oauthAccessTokens } from '@/server/modules/oauth/oauth.table';

/**
 * The token cache (issue 11 point 3): look-ups are served from memory, and sign-out, revocation, password
 * change, role change, user delete and customer `restricted` take effect at once in this process and within a
 * second in another instance on the same database.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const me = (app: App, token: string) => app.request('/api/v2/user/me', { headers: { authorization: `Bearer ${token}` } });
const basic = `Basic ${Buffer.from(`default-client:${TEST_CLIENT_SECRET}`).toString('base64')}`;
const signOut = (token: string) =>
  t.app.request('/oauth/revoke', {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });

/** Within one second, `check` holds (polled every 20 ms). */
async function withinASecond(check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + 1000;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('in the process that makes the change', () => {
  it('serves a token from memory once verified (its row can go; the cache answers)', async () => {
    const { token } = await t.actor('VIEWER');
    expect((await me(t.app, token)).status).toBe(200);
    expect(t.authCache.serving).toBe(true);
    // An out-of-band delete (no announcement): the cache still answers, which shows it answered without the database.
    await t.db.delete(oauthAccessTokens);
    expect((await me(t.app, token)).status).toBe(200);
  });

  it('sign-out (revocation) refuses the token at once', async () => {
    const { token } = await t.actor('VIEWER');
    expect((await me(t.app, token)).status).toBe(200);
    expect((await signOut(token)).status).toBe(200);
    expect((await me(t.app, token)).status).toBe(401);
  });

  it('a password change ends the sessions at once', async () => {
    const { token } = await t.actor('VIEWER');
    expect((await me(t.app, token)).status).toBe(200);
    const changed = await t.request(
      'POST',
      `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=${encodeURIComponent('a new password 123')}`,
      { token },
    );
    expect(changed.status).toBe(200);
    expect((await me(t.app, token)).status).toBe(401);
  });

  it('a role change shows at once', async () => {
    const { user: owner, token: ownerToken } = await t.actor('OWNER');
    const { user, token } = await t.actor('VIEWER', { customerId: owner.customerId });
    expect((await (await me(t.app, token)).json()).role).toBe('VIEWER');
    const updated = await t.request('PUT', `/api/user?email=${encodeURIComponent(user.email)}`, {
      token: ownerToken,
      json: { role: 'EDITOR' },
    });
    expect(updated.status).toBe(200);
    expect((await (await me(t.app, token)).json()).role).toBe('EDITOR');
  });

  it('deleting the user refuses its token at once', async () => {
    const { user: owner, token: ownerToken } = await t.actor('OWNER');
    const { user, token } = await t.actor('VIEWER', { customerId: owner.customerId });
    expect((await me(t.app, token)).status).toBe(200);
    expect((await t.request('DELETE', `/api/user?email=${encodeURIComponent(user.email)}`, { token: ownerToken })).status).toBe(204);
    expect((await me(t.app, token)).status).toBe(401);
  });

  it('restricting the customer refuses its users at once; lifting it does not revive revoked tokens', async () => {
    const { token: adminToken } = await t.actor('ADMIN');
    const { user, token } = await t.actor('VIEWER');
    expect((await me(t.app, token)).status).toBe(200);
    expect((await t.request('PUT', `/api/customer/${user.customerId}`, { token: adminToken, json: { restricted: true } })).status).toBe(
      200,
    );
    expect((await me(t.app, token)).status).not.toBe(200);
    expect((await t.request('PUT', `/api/customer/${user.customerId}`, { token: adminToken, json: { restricted: false } })).status).toBe(
      200,
    );
    expect((await me(t.app, token)).status).toBe(401);
  });

  it('a direct change in the database reaches the cache through its own NOTIFY', async () => {
    const { user, token } = await t.actor('VIEWER');
    expect((await (await me(t.app, token)).json()).name).toBe(user.name);
    await t.db.update(users).set({ name: 'Renamed Elsewhere' }).where(eq(users.id, user.id));
    expect(await withinASecond(async () => (await (await me(t.app, token)).json()).name === 'Renamed Elsewhere')).toBe(true);
  });
});

describe("the caller's own view (GET /api/v2/user/me without select)", () => {
  const view = async (token: string) => (await me(t.app, token)).json() as Promise<Record<string, unknown>>;
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

  it('is served from memory, and shows a change of the user, its picture, UI profile and customer at once', async () => {
    const { user: admin, token: adminToken } = await t.actor('ADMIN');
    const { user: owner, token: ownerToken } = await t.actor('OWNER');
    const { user, token } = await t.actor('VIEWER', { customerId: owner.customerId });
    expect((await view(token)).name).toBe(user.name);
    // Served from memory: an out-of-band change (no announcement) waits for the change feed.
    expect(t.authCache.getView(user.id)).toBeDefined();

    expect(
      (await t.request('PUT', `/api/user?email=${encodeURIComponent(user.email)}`, { token, json: { name: 'New Name' } })).status,
    ).toBe(200);
    expect((await view(token)).name).toBe('New Name');

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'picture');
    const uploaded = await t.app.request('/api/v2/user/profilePicture', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    expect((await view(token)).hasProfilePicture).toBe(true);

    const profile = await t.request('POST', '/api/v2/userInterfaceProfile', {
      token: ownerToken,
      json: { name: 'Kiosk', hiddenUIElementRules: {} },
    });
    expect(profile.status).toBe(201);
    expect(
      (
        await t.request('POST', `/api/v2/userInterfaceProfile/${profile.body.id}/assign`, {
          token: ownerToken,
          json: { assignUserIds: [user.id] },
        })
      ).status,
    ).toBe(200);
    expect((await view(token)).userInterfaceProfile).toMatchObject({ name: 'Kiosk' });
    expect(
      (await t.request('PUT', `/api/v2/userInterfaceProfile/${profile.body.id}`, { token: ownerToken, json: { name: 'Lobby' } })).status,
    ).toBe(200);
    expect((await view(token)).userInterfaceProfile).toMatchObject({ name: 'Lobby' });

    expect(
      (await t.request('PUT', `/api/customer/${owner.customerId}`, { token: adminToken, json: { name: `Renamed ${admin.id}` } })).status,
    ).toBe(200);
    expect((await view(token)).customer).toMatchObject({ name: `Renamed ${admin.id}` });
  });

  it('a select is read from the database, never from the cached view', async () => {
    const { user, token } = await t.actor('VIEWER');
    await view(token);
    await t.db.update(users).set({ comment: 'changed out of band' }).where(eq(users.id, user.id));
    const selected = await t.request('GET', '/api/v2/user/me?select=id,comment', { token });
    expect(selected.body).toEqual({ id: user.id, comment: 'changed out of band' });
  });
});

// Two instances need two processes' worth of connections to one database: PostgreSQL only (PGlite is one process).
describe.runIf(process.env.DATABASE_URL)('in another instance on the same database', () => {
  let other: { handle: DatabaseHandle; app: App; cache: AuthCache; feed: AuthChangeListener };

  beforeAll(async () => {
    const handle = await openDatabase({ kind: 'pg', url: t.databaseUrl!, poolSize: 2 });
    const cache = new AuthCache(1000);
    installAuthCache(handle.db, cache);
    const feed = await startAuthChangeListener(handle, cache, createLogger('silent'));
    const app = createApp({ db: handle.db, config: t.config, storage: t.storage, log: createLogger('silent'), ready: async () => true });
    other = { handle, app, cache, feed };
  });
  afterAll(async () => {
    await other.feed.stop();
    await other.handle.close();
  });

  /** The token is verified over there, so that instance holds it in its cache. */
  async function cachedThere(token: string) {
    expect((await me(other.app, token)).status).toBe(200);
    expect(other.cache.size).toBeGreaterThan(0);
  }

  it('sign-out', async () => {
    const { token } = await t.actor('VIEWER');
    await cachedThere(token);
    expect((await signOut(token)).status).toBe(200);
    expect(await withinASecond(async () => (await me(other.app, token)).status === 401)).toBe(true);
  });

  it('role change', async () => {
    const { user: owner, token: ownerToken } = await t.actor('OWNER');
    const { user, token } = await t.actor('VIEWER', { customerId: owner.customerId });
    await cachedThere(token);
    expect(
      (await t.request('PUT', `/api/user?email=${encodeURIComponent(user.email)}`, { token: ownerToken, json: { role: 'EDITOR' } })).status,
    ).toBe(200);
    expect(await withinASecond(async () => (await (await me(other.app, token)).json()).role === 'EDITOR')).toBe(true);
  });

  it('user delete', async () => {
    const { user: owner, token: ownerToken } = await t.actor('OWNER');
    const { user, token } = await t.actor('VIEWER', { customerId: owner.customerId });
    await cachedThere(token);
    expect((await t.request('DELETE', `/api/user?email=${encodeURIComponent(user.email)}`, { token: ownerToken })).status).toBe(204);
    expect(await withinASecond(async () => (await me(other.app, token)).status === 401)).toBe(true);
  });

  it('customer restricted, even without the revocation that comes with it', async () => {
    const { user, token } = await t.actor('VIEWER');
    await cachedThere(token);
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, user.customerId));
    expect(await withinASecond(async () => (await me(other.app, token)).status === 403)).toBe(true);
  });

  it("the user's own view", async () => {
    const { user, token } = await t.actor('VIEWER');
    expect((await (await me(other.app, token)).json()).name).toBe(user.name);
    expect(other.cache.getView(user.id)).toBeDefined();
    expect(
      (await t.request('PUT', `/api/user?email=${encodeURIComponent(user.email)}`, { token, json: { name: 'Seen Elsewhere' } })).status,
    ).toBe(200);
    expect(await withinASecond(async () => (await (await me(other.app, token)).json()).name === 'Seen Elsewhere')).toBe(true);
  });

  it('password change', async () => {
    const { token } = await t.actor('VIEWER');
    await cachedThere(token);
    const changed = await t.request(
      'POST',
      `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=${encodeURIComponent('another password 456')}`,
      { token },
    );
    expect(changed.status).toBe(200);
    expect(await withinASecond(async () => (await me(other.app, token)).status === 401)).toBe(true);
  });

  it('stops serving from memory while its feed is down, and serves again once it is back', async () => {
    const { token } = await t.actor('VIEWER');
    await cachedThere(token);
    await other.feed.stop();
    expect(other.cache.serving).toBe(false);
    await t.db.delete(oauthAccessTokens);
    expect((await me(other.app, token)).status).toBe(401);
    other.feed = await startAuthChangeListener(other.handle, other.cache, createLogger('silent'));
    expect(other.cache.serving).toBe(true);
  });
});
