import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, createTestContext, TEST_CLIENT_SECRET, testEnv, type TestContext } from '@/server/test/harness';

/** The console's next-auth session cookie as a credential (auth-middleware), with its CSRF origin rule. */

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const CONSOLE_ORIGIN = new URL(testEnv.PUBLIC_URL).origin; // http://console.test

async function sessionFor(role: Parameters<TestContext['actor']>[0]) {
  const { user } = await t.actor(role);
  const res = await t.token({ grant_type: 'password', username: user.email, password: 'correct horse battery' });
  expect(res.status).toBe(200);
  const accessToken = res.body.access_token as string;
  const cookie = await encode({
    secret: testEnv.AUTH_SECRET,
    token: {
      sub: user.id,
      email: user.email,
      name: user.name,
      accessToken,
      refreshToken: res.body.refresh_token,
      user: { id: user.id, email: user.email, role },
    },
  });

  return { user, accessToken, cookie: `next-auth.session-token=${cookie}` };
}

async function revoke(token: string) {
  const res = await t.app.request('/oauth/revoke', {
    method: 'POST',
    headers: { authorization: basic('default-client', TEST_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(res.status).toBe(200);
}

describe('reads with the session cookie', () => {
  it('GET /api/v2/user/me answers the cookie’s user, without an Origin', async () => {
    const { user, cookie } = await sessionFor('VIEWER');
    const res = await t.request('GET', '/api/v2/user/me', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, role: 'VIEWER' });
  });

  it('accepts the secure cookie name and a chunked cookie', async () => {
    const { user, cookie } = await sessionFor('VIEWER');
    const value = cookie.slice(cookie.indexOf('=') + 1);
    const secure = await t.request('GET', '/api/v2/user/me', { headers: { cookie: `other=1; __Secure-next-auth.session-token=${value}` } });
    expect(secure.body.id).toBe(user.id);
    const half = Math.floor(value.length / 2);
    const chunked = await t.request('GET', '/api/v2/user/me', {
      headers: { cookie: `next-auth.session-token.0=${value.slice(0, half)}; next-auth.session-token.1=${value.slice(half)}` },
    });
    expect(chunked.status).toBe(200);
    expect(chunked.body.id).toBe(user.id);
  });

  it('refuses a garbage cookie, a cookie sealed with another secret and one without accessToken (401)', async () => {
    const { user } = await sessionFor('VIEWER');
    const foreign = await encode({ secret: 'another-secret-that-is-long-enough-0123456789', token: { accessToken: 'x'.repeat(43) } });
    const empty = await encode({ secret: testEnv.AUTH_SECRET, token: { sub: user.id } });
    // `%` is not even valid percent-encoding (it was a 500: URIError in the cookie reader).
    for (const value of ['garbage', '%', '%E0%A4%A', foreign, empty]) {
      const res = await t.request('GET', '/api/v2/user/me', { headers: { cookie: `next-auth.session-token=${value}` } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, key: expect.stringMatching(/^auth\.error\./) });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('refuses a well-sealed cookie carrying an unknown access token (401 auth.error.invalidToken)', async () => {
    const cookie = await encode({ secret: testEnv.AUTH_SECRET, token: { accessToken: 'B'.repeat(43) } });
    const res = await t.request('GET', '/api/v2/user/me', { headers: { cookie: `next-auth.session-token=${cookie}` } });
    expect(res.status).toBe(401);
    expect(res.body.key).toBe('auth.error.invalidToken');
  });
});

describe('writes with the session cookie (CSRF)', () => {
  it('POST /api/customer from the console origin → 201', async () => {
    const { cookie } = await sessionFor('ADMIN');
    const name = `Cookie ${Date.now()}`;
    const res = await t.request('POST', '/api/customer', { json: { name }, headers: { cookie, origin: CONSOLE_ORIGIN } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name });
  });

  it.each([
    ['a foreign Origin', { origin: 'http://evil.test' }],
    ['a look-alike Origin', { origin: 'http://console.test.evil.test' }],
    ['another scheme', { origin: 'https://console.test' }],
    ['Origin null', { origin: 'null' }],
    ['no Origin', {}],
  ])('with %s → 403 auth.error.originMismatch and nothing written', async (_, headers: Record<string, string>) => {
    const { cookie } = await sessionFor('ADMIN');
    const name = `Csrf ${Date.now()} ${Math.random()}`;
    const res = await t.request('POST', '/api/customer', { json: { name }, headers: { cookie, ...headers } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, key: 'auth.error.originMismatch' });
    const admin = await t.actor('ADMIN');
    const found = await t.request('GET', `/api/customer/select?search=${encodeURIComponent(`name=${name}`)}`, { token: admin.token });
    expect(found.body.totalElements).toBe(0);
  });

  it('a bearer token needs no Origin', async () => {
    const { token } = await t.actor('ADMIN');
    const res = await t.request('POST', '/api/customer', {
      token,
      json: { name: `Bearer ${Date.now()}` },
      headers: { origin: 'http://evil.test' },
    });
    expect(res.status).toBe(201);
  });
});

describe('revocation', () => {
  it('after POST /oauth/revoke the cookie answers 401', async () => {
    const { cookie, accessToken } = await sessionFor('VIEWER');
    expect((await t.request('GET', '/api/v2/user/me', { headers: { cookie } })).status).toBe(200);
    await revoke(accessToken);
    const res = await t.request('GET', '/api/v2/user/me', { headers: { cookie } });
    expect(res.status).toBe(401);
    expect(res.body.key).toBe('auth.error.invalidToken');
  });
});
