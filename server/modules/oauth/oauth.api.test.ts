import { createLocalJWKSet, jwtVerify } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthTokenFamilies } from './oauth.table';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { basic, createTestContext, TEST_CLIENT_SECRET, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { totpCodes } from '@/server/test/totp';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ AUTH_MAX_FAILURES: '3' });
});
afterAll(() => t.close());

describe('POST /oauth/token — password grant', () => {
  it('answers the spec fields for the default client (20 min access, 30 days refresh)', async () => {
    const user = await t.factories.user({ role: 'EDITOR' });
    const res = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 1200, customer_id: user.customerId });
    expect(res.body.refresh_total_validity_seconds).toBeGreaterThan(30 * 24 * 3600 - 10);
    expect(res.body.refresh_total_validity_seconds).toBeLessThanOrEqual(30 * 24 * 3600);
    expect(typeof res.body.access_token).toBe('string');
    expect((res.body.access_token as string).length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
  });

  it('gives the short-lived client a 30 minute refresh lifetime', async () => {
    const user = await t.factories.user();
    const res = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }, 'short-lived');
    expect(res.status).toBe(200);
    expect(res.body.refresh_total_validity_seconds).toBeLessThanOrEqual(1800);
    expect(res.body.refresh_total_validity_seconds).toBeGreaterThan(1790);
  });

  it('matches the e-mail case-insensitively', async () => {
    const user = await t.factories.user();
    const res = await t.token({ grant_type: 'password', username: user.email.toUpperCase(), password: TEST_PASSWORD });
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password and an unknown user alike with invalid_grant', async () => {
    const user = await t.factories.user();
    const wrong = await t.token({ grant_type: 'password', username: user.email, password: 'nope-nope' });
    const unknown = await t.token({ grant_type: 'password', username: 'nobody@example.com', password: 'nope-nope' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: 'Bad credentials' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers invalid_client (401) for a wrong secret, an unknown client or no Basic header', async () => {
    const body = new URLSearchParams({ grant_type: 'password', username: 'a@b.c', password: 'x' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const authorization of [basic('default-client', 'wrong'), basic('other', TEST_CLIENT_SECRET), undefined]) {
      const res = await t.app.request('/oauth/token', {
        method: 'POST',
        headers: authorization ? { ...headers, authorization } : headers,
        body,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  it('answers invalid_request and unsupported_grant_type per RFC 6749', async () => {
    expect((await t.token({ grant_type: 'password', username: 'x@y.z' })).body).toMatchObject({ error: 'invalid_request' });
    expect((await t.token({})).body).toMatchObject({ error: 'invalid_request' });
    expect((await t.token({ grant_type: 'authorization_code' })).body).toMatchObject({ error: 'unsupported_grant_type' });
    // client_credentials is the devices' grant (spec 4 §2): the console's clients may not use it.
    expect((await t.token({ grant_type: 'client_credentials' })).body).toMatchObject({ error: 'unauthorized_client' });
  });

  it('refuses users whose password sign-in is disabled, and users of restricted customers', async () => {
    const disabled = await t.factories.user({ usernamePasswordLoginEnabled: false });
    expect((await t.token({ grant_type: 'password', username: disabled.email, password: TEST_PASSWORD })).body).toMatchObject({
      error: 'invalid_grant',
    });
    const customer = await t.factories.customer({ restricted: true });
    const blocked = await t.factories.user({ customerId: customer.id });
    expect((await t.token({ grant_type: 'password', username: blocked.email, password: TEST_PASSWORD })).body).toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('records the sign-in in the audit log without secrets', async () => {
    const user = await t.factories.user();
    await t.signIn(user.email);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.entityId, user.id));
    expect(entries.map((e) => e.action)).toContain('signIn');
    const signIn = entries.find((e) => e.action === 'signIn');
    expect(signIn?.customerId).toBe(user.customerId);
    expect(signIn?.customerName).toBeTruthy();
    expect(JSON.stringify(entries)).not.toContain(TEST_PASSWORD);
  });
});

describe('second factor', () => {
  it('demands x-totp (or totp) and checks it', async () => {
    const secret = new Secret({ size: 20 });
    const user = await t.factories.user({ use2FA: true, totpSecret: secret.base32 });
    const form = { grant_type: 'password', username: user.email, password: TEST_PASSWORD };
    expect((await t.token(form)).body).toEqual({ error: 'invalid_grant', error_description: 'totp_required' });
    expect((await t.token(form, 'default-client', { 'x-totp': '000000' === current(secret) ? '111111' : '000000' })).body).toEqual({
      error: 'invalid_grant',
      error_description: 'totp_invalid',
    });
    const codes = totpCodes(secret.base32);
    const code = await codes.next();
    expect((await t.token(form, 'default-client', { 'x-totp': code })).status).toBe(200);
    // A code is accepted once (RFC 6238 §5.2), also through the form field.
    expect((await t.token({ ...form, totp: code })).body).toEqual({ error: 'invalid_grant', error_description: 'totp_invalid' });
    expect((await t.token({ ...form, totp: await codes.next() })).status).toBe(200);
  });

  it('accepts one code once even when it arrives twice at the same moment', async () => {
    const secret = new Secret({ size: 20 });
    const user = await t.factories.user({ use2FA: true, totpSecret: secret.base32 });
    const code = await totpCodes(secret.base32).next();
    const form = { grant_type: 'password', username: user.email, password: TEST_PASSWORD, totp: code };
    const statuses = (await Promise.all([t.token(form), t.token(form), t.token(form)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
  });
});

function current(secret: Secret): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate();
}

describe('refresh_token grant', () => {
  it('rotates the refresh token and keeps the family lifetime', async () => {
    const user = await t.factories.user();
    const first = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const second = await t.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(second.body.refresh_total_validity_seconds as number).toBeLessThanOrEqual(first.body.refresh_total_validity_seconds as number);
    const me = await t.request('GET', '/api/v2/user/me', { token: second.body.access_token as string });
    expect(me.status).toBe(200);
  });

  it('revokes the whole family when a retired refresh token is reused', async () => {
    const user = await t.factories.user();
    const first = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const second = await t.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string });
    const reuse = await t.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe('invalid_grant');
    // Everything of that sign-in is dead now, including the newest tokens.
    expect((await t.token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token as string })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/user/me', { token: second.body.access_token as string })).status).toBe(401);
    const [family] = await t.db.select().from(oauthTokenFamilies).where(eq(oauthTokenFamilies.userId, user.id));
    expect(family?.revokedReason).toBe('refresh_token_reuse');
  });

  it('refuses a refresh token presented by the other client', async () => {
    const user = await t.factories.user();
    const first = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }, 'short-lived');
    const res = await t.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string }, 'default-client');
    expect(res.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses unknown and expired refresh tokens', async () => {
    expect((await t.token({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(43) })).body).toMatchObject({ error: 'invalid_grant' });
    const user = await t.factories.user();
    const first = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    await t.db
      .update(oauthTokenFamilies)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokenFamilies.userId, user.id));
    expect((await t.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string })).body).toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('jwt_access_token and /oauth/jwks', () => {
  it('is a JWT verifiable with the published keys carrying the spec claims', async () => {
    const user = await t.factories.user({ role: 'APPROVER' });
    const res = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const jwks = await t.request('GET', '/oauth/jwks');
    expect(jwks.status).toBe(200);
    const { payload } = await jwtVerify(res.body.jwt_access_token as string, createLocalJWKSet(jwks.body));
    expect(payload).toMatchObject({ sub: user.id, email: user.email, role: 'APPROVER', customer_id: user.customerId });
    expect(Math.abs((payload.exp as number) - (Math.floor(Date.now() / 1000) + 1200))).toBeLessThan(5);
  });

  it('authenticates secured routes like the opaque token, and stops working when revoked', async () => {
    const user = await t.factories.user();
    const res = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const jwt = res.body.jwt_access_token as string;
    expect((await t.request('GET', '/api/v2/user/me', { token: jwt })).body.id).toBe(user.id);
    await revoke(res.body.refresh_token as string);
    expect((await t.request('GET', '/api/v2/user/me', { token: jwt })).status).toBe(401);
  });

  it('refuses a tampered JWT', async () => {
    const user = await t.factories.user();
    const res = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const [h, p, s] = (res.body.jwt_access_token as string).split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), role: 'ADMIN' })).toString(
      'base64url',
    );
    expect((await t.request('GET', '/api/v2/user/me', { token: `${h}.${forged}.${s}` })).status).toBe(401);
  });
});

async function revoke(token: string, client = basic('default-client', TEST_CLIENT_SECRET)) {
  return t.app.request('/oauth/revoke', {
    method: 'POST',
    headers: { authorization: client, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
}

describe('POST /oauth/revoke', () => {
  it('signs out: access and refresh tokens of that sign-in stop working, other sign-ins do not', async () => {
    const user = await t.factories.user();
    const a = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    const b = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    expect((await revoke(a.body.access_token as string)).status).toBe(200);
    expect((await t.request('GET', '/api/v2/user/me', { token: a.body.access_token as string })).status).toBe(401);
    expect((await t.token({ grant_type: 'refresh_token', refresh_token: a.body.refresh_token as string })).status).toBe(400);
    expect((await t.request('GET', '/api/v2/user/me', { token: b.body.access_token as string })).status).toBe(200);
  });

  it('ignores unknown tokens and requires client authentication', async () => {
    expect((await revoke('unknown-token-value')).status).toBe(200);
    expect((await revoke('unknown-token-value', basic('default-client', 'bad'))).status).toBe(401);
  });
});

describe('rate limiting of failed sign-ins', () => {
  it('answers 429 with Retry-After after the configured failures for an account, until the window passes', async () => {
    const user = await t.factories.user();
    for (let i = 0; i < 3; i++) {
      expect((await t.token({ grant_type: 'password', username: user.email, password: 'wrong-password' })).status).toBe(400);
    }
    const limited = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await t.factories.user();
    expect((await t.token({ grant_type: 'password', username: other.email, password: TEST_PASSWORD })).status).toBe(200);
  });
});
