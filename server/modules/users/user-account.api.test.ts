import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, ne } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { createTestContext, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { totpCodes } from '@/server/test/totp';
import { users } from './users.table';

const NEW_PASSWORD = 'another-long-password-7';
/** A code that is surely not valid now (the window is ±1 period). */
const wrongCodeFor = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() - 10 * 60_000 });

async function auditText(t: TestContext) {
  return JSON.stringify(await t.db.select().from(auditLog));
}

describe('without CAPTCHA', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  describe('POST /api/user/password', () => {
    it('changes the password, ends every session of the caller, keeps it out of the audit log', async () => {
      const { user, token } = await t.actor('VIEWER');
      const refresh = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
      const res = await t.request(
        'POST',
        `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=${NEW_PASSWORD}`,
        { token },
      );
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(user.id);
      expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(401);
      expect((await t.token({ grant_type: 'refresh_token', refresh_token: refresh.body.refresh_token as string })).status).toBe(400);
      expect((await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD })).status).toBe(400);
      expect(await t.signIn(user.email, NEW_PASSWORD)).toEqual(expect.any(String));
      const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'changePassword'));
      expect(entry).toMatchObject({ entityId: user.id, entityName: user.email, userId: user.id });
      const text = await auditText(t);
      expect(text).not.toContain(NEW_PASSWORD);
      expect(text).not.toContain(TEST_PASSWORD);
    });

    it('answers 400 for a wrong old password and a short or missing new one', async () => {
      const { token } = await t.actor('DEVICE_USER');
      const wrong = await t.request('POST', `/api/user/password?oldPassword=nope-nope&newPassword=${NEW_PASSWORD}`, { token });
      expect(wrong.status).toBe(400);
      expect(wrong.body.key).toBe('user.error.oldPasswordInvalid');
      const short = await t.request('POST', `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=short`, {
        token,
      });
      expect(short.status).toBe(400);
      expect(short.body.details.issues[0].path).toBe('newPassword');
      expect((await t.request('POST', '/api/user/password', { token })).status).toBe(400);
      expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(200);
    });
  });

  describe('POST /api/user/password rate limit', () => {
    it('answers 429 with Retry-After after too many wrong old passwords, even with the right one', async () => {
      const { token } = await t.actor('VIEWER');
      const max = t.config.authRateLimit.maxFailures;
      for (let i = 0; i < max; i++) {
        expect(
          (await t.request('POST', `/api/user/password?oldPassword=wrong-${i}-guess&newPassword=${NEW_PASSWORD}`, { token })).status,
        ).toBe(400);
      }
      const limited = await t.request(
        'POST',
        `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=${NEW_PASSWORD}`,
        { token },
      );
      expect(limited.status).toBe(429);
      expect(limited.body.key).toBe('request.error.rateLimited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // The password did not change.
      expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(200);
    });
  });

  describe('second factor', () => {
    it('enrols end to end: secret → confirm → sign-in and protected operations need the code → disable', async () => {
      const { user, token } = await t.actor('OWNER');
      const created = await t.request('POST', '/api/user/2fa/secret', { token });
      expect(created.status).toBe(200);
      const { secret, otpauthUrl } = created.body as { secret: string; otpauthUrl: string };
      const codes = totpCodes(secret);
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
      expect(otpauthUrl).toContain(`secret=${secret}`);
      // Pending only: sign-in does not need a code yet.
      expect((await t.request('GET', '/api/v2/user/me', { token })).body.use2FA).toBe(false);
      expect(await t.signIn(user.email)).toEqual(expect.any(String));

      const wrong = await t.request('POST', `/api/user/2fa?enable=true&totp=${wrongCodeFor(secret)}`, { token });
      expect(wrong.status).toBe(400);
      expect(wrong.body.key).toBe('user.error.totpInvalid');
      expect((await t.request('POST', '/api/user/2fa?enable=true&totp=12ab56', { token })).status).toBe(400);
      const enrolmentCode = await codes.next();
      const enabled = await t.request('POST', `/api/user/2fa?enable=true&totp=${enrolmentCode}`, { token });
      expect(enabled.status).toBe(200);
      expect(enabled.body.use2FA).toBe(true);
      expect(JSON.stringify(enabled.body)).not.toContain(secret);

      const noCode = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
      expect(noCode.body).toMatchObject({ error: 'invalid_grant', error_description: 'totp_required' });
      // A code is accepted once: the enrolment code cannot sign in.
      const replayed = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }, 'default-client', {
        'x-totp': enrolmentCode,
      });
      expect(replayed.body).toMatchObject({ error: 'invalid_grant', error_description: 'totp_invalid' });
      const signInCode = await codes.next();
      const withCode = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD }, 'default-client', {
        'x-totp': signInCode,
      });
      expect(withCode.status).toBe(200);

      // A protected operation of this caller now needs x-totp.
      const target = await t.factories.user({ customerId: user.customerId });
      const put = (headers: Record<string, string>) =>
        t.request('PUT', `/api/user?email=${target.email}`, { token, json: { readOnly: true }, headers });
      expect((await put({})).body.key).toBe('auth.error.totpRequired');
      expect((await put({ 'x-totp': wrongCodeFor(secret) })).body.key).toBe('auth.error.totpInvalid');
      expect((await put({ 'x-totp': signInCode })).body.key).toBe('auth.error.totpInvalid');
      expect((await put({ 'x-totp': await codes.next() })).status).toBe(200);
      // Not protected: a plain name change.
      expect((await t.request('PUT', `/api/user?email=${target.email}`, { token, json: { name: 'Plain' } })).status).toBe(200);

      expect((await t.request('POST', '/api/user/2fa/secret', { token })).body.key).toBe('user.error.twoFactorEnabled');
      const disableNoCode = await t.request('POST', '/api/user/2fa?enable=false', { token });
      expect(disableNoCode.status).toBe(403);
      expect(disableNoCode.body.key).toBe('auth.error.totpRequired');
      const disabled = await t.request('POST', `/api/user/2fa?enable=false&totp=${await codes.next()}`, { token });
      expect(disabled.status).toBe(200);
      expect(disabled.body.use2FA).toBe(false);
      expect(await t.signIn(user.email)).toEqual(expect.any(String));

      const actions = (await t.db.select().from(auditLog).where(eq(auditLog.entityId, user.id))).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['createTwoFactorSecret', 'enableTwoFactor', 'disableTwoFactor']));
      expect(await auditText(t)).not.toContain(secret);
    }, 90_000); // four codes: the fourth may wait for the next 30-second period

    it('refuses to confirm without a pending secret (409) or without a code (400)', async () => {
      const { token } = await t.actor('VIEWER');
      expect((await t.request('POST', '/api/user/2fa?enable=true&totp=123456', { token })).body.key).toBe('user.error.noPendingSecret');
      await t.request('POST', '/api/user/2fa/secret', { token });
      expect((await t.request('POST', '/api/user/2fa?enable=true', { token })).body.key).toBe('user.error.totpRequired');
      expect((await t.request('POST', '/api/user/2fa?enable=maybe', { token })).status).toBe(400);
    });

    it('force2FA: /me says forceToSet2FA until enrolled; disabling is refused', async () => {
      const customer = await t.factories.customer({ force2FA: true });
      const { token } = await t.actor('EDITOR', { customerId: customer.id });
      expect((await t.request('GET', '/api/v2/user/me', { token })).body.forceToSet2FA).toBe(true);
      const { secret } = (await t.request('POST', '/api/user/2fa/secret', { token })).body as { secret: string };
      const codes = totpCodes(secret);
      const enabled = await t.request('POST', `/api/user/2fa?enable=true&totp=${await codes.next()}`, { token });
      expect(enabled.body).toMatchObject({ use2FA: true, forceToSet2FA: false });
      const disable = await t.request('POST', `/api/user/2fa?enable=false&totp=${await codes.next()}`, { token });
      expect(disable.status).toBe(409);
      expect(disable.body.key).toBe('user.error.twoFactorForced');
    });
  });

  describe('profile picture', () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const upload = (token: string, data: Buffer, type: string, field = 'file') => {
      const form = new FormData();
      form.append(field, new Blob([new Uint8Array(data)], { type }), 'picture');

      return t.app.request('/api/v2/user/profilePicture', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    };

    it('uploads, serves to the same tenant, and deletes', async () => {
      const { user, token } = await t.actor('DEVICE_USER');
      const res = await upload(token, png, 'image/png');
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ hasProfilePicture: true, profilePictureApiPath: `/api/v2/user/${user.id}/profilePicture` });

      const viewer = await t.actor('VIEWER', { customerId: user.customerId });
      const image = await t.app.request(body.profilePictureApiPath as string, { headers: { authorization: `Bearer ${viewer.token}` } });
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);

      const stranger = await t.actor('VIEWER');
      expect((await t.request('GET', body.profilePictureApiPath as string, { token: stranger.token })).status).toBe(404);
      expect((await t.request('GET', body.profilePictureApiPath as string, { token })).status).toBe(403);

      expect((await t.request('DELETE', '/api/v2/user/profilePicture', { token })).status).toBe(204);
      expect((await t.request('GET', body.profilePictureApiPath as string, { token: viewer.token })).status).toBe(404);
      expect((await t.request('GET', '/api/v2/user/me', { token })).body.hasProfilePicture).toBe(false);
      const actions = (await t.db.select().from(auditLog).where(eq(auditLog.entityId, user.id))).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['updateProfilePicture', 'deleteProfilePicture']));
    });

    it('answers 413 above 2 MB and 415 for other types or mismatching bytes', async () => {
      const { token } = await t.actor('VIEWER');
      const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
      const tooLarge = await upload(token, big, 'image/png');
      expect(tooLarge.status).toBe(413);
      expect(((await tooLarge.json()) as { key: string }).key).toBe('request.error.payloadTooLarge');
      const text = await upload(token, Buffer.from('hello'), 'text/plain');
      expect(text.status).toBe(415);
      expect((await upload(token, Buffer.from('not really a png'), 'image/png')).status).toBe(415);
      const json = await t.request('POST', '/api/v2/user/profilePicture', { token, json: { file: 'x' } });
      expect(json.status).toBe(415);
      expect((await upload(token, png, 'image/png', 'picture')).status).toBe(400);
    });
  });

  describe('DELETE /api/user/myAccount', () => {
    it('deletes the caller and ends the session', async () => {
      const { user, token } = await t.actor('EDITOR');
      expect((await t.request('DELETE', '/api/user/myAccount', { token })).status).toBe(204);
      expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(401);
      expect(await t.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
      expect((await t.db.select().from(auditLog).where(eq(auditLog.entityId, user.id))).map((e) => e.action)).toContain('delete');
    });

    it("refuses a customer's last OWNER and the service's last ADMIN (409)", async () => {
      const owner = await t.actor('OWNER');
      const last = await t.request('DELETE', '/api/user/myAccount', { token: owner.token });
      expect(last.status).toBe(409);
      expect(last.body.key).toBe('user.error.lastOwner');
      await t.factories.user({ customerId: owner.user.customerId, role: 'OWNER' });
      expect((await t.request('DELETE', '/api/user/myAccount', { token: owner.token })).status).toBe(204);

      const admin = await t.actor('ADMIN');
      await t.db.delete(users).where(ne(users.id, admin.user.id));
      const lastAdmin = await t.request('DELETE', '/api/user/myAccount', { token: admin.token });
      expect(lastAdmin.status).toBe(409);
      expect(lastAdmin.body.key).toBe('user.error.lastAdmin');
    });

    it('keeps one OWNER when all of them leave at the same moment', async () => {
      // All pass the first (unlocked) check; the advisory lock makes each re-check see the deletes before it.
      // On PostgreSQL the requests really overlap; on PGlite (one connection) they are serialised anyway.
      const first = await t.actor('OWNER');
      const others = await Promise.all(Array.from({ length: 7 }, () => t.actor('OWNER', { customerId: first.user.customerId })));
      const results = await Promise.all([first, ...others].map((o) => t.request('DELETE', '/api/user/myAccount', { token: o.token })));
      expect(results.map((r) => r.status).sort()).toEqual([204, 204, 204, 204, 204, 204, 204, 409]);
      expect(results.find((r) => r.status === 409)!.body.key).toBe('user.error.lastOwner');
      const owners = await t.db.select().from(users).where(eq(users.customerId, first.user.customerId));
      expect(owners.filter((u) => u.role === 'OWNER')).toHaveLength(1);
    });
  });
});

describe('with CAPTCHA configured (protected operations)', () => {
  let t: TestContext;
  let server: Server;
  let owner: Awaited<ReturnType<TestContext['actor']>>;

  beforeAll(async () => {
    // A stand-in for the CAPTCHA provider: only the response "ok" is valid.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'ok' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    t = await createTestContext({ CAPTCHA_SECRET: 'captcha-secret', CAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/verify` });
    owner = await t.actor('OWNER');
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const ok = { 'g-recaptcha-response': 'ok' };
  const expectCaptchaRequired = (res: { status: number; body: any }) => {
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('auth.error.captchaRequired');
  };

  it('user create needs a valid CAPTCHA response', async () => {
    const json = { email: 'captcha@example.com', name: 'C', role: 'VIEWER', password: NEW_PASSWORD };
    expectCaptchaRequired(await t.request('POST', `/api/user?customerId=${owner.user.customerId}`, { token: owner.token, json }));
    expectCaptchaRequired(
      await t.request('POST', `/api/user?customerId=${owner.user.customerId}`, {
        token: owner.token,
        json,
        headers: { 'g-recaptcha-response': 'bad' },
      }),
    );
    expect(
      (await t.request('POST', `/api/user?customerId=${owner.user.customerId}`, { token: owner.token, json, headers: ok })).status,
    ).toBe(201);
  });

  it('updates need it only when they touch protected fields', async () => {
    const target = await t.factories.user({ customerId: owner.user.customerId, role: 'EDITOR' });
    const put = (json: unknown, headers: Record<string, string> = {}) =>
      t.request('PUT', `/api/user?email=${target.email}`, { token: owner.token, json, headers });
    expect((await put({ name: 'Free' })).status).toBe(200);
    for (const json of [{ readOnly: true }, { restricted: true }, { password: NEW_PASSWORD }, { role: 'OWNER' }]) {
      expectCaptchaRequired(await put(json));
    }
    expect((await put({ role: 'APPROVER' })).status).toBe(200);
    expect((await put({ readOnly: true }, ok)).status).toBe(200);
    // Sending an unchanged protected value does not touch it.
    expect((await put({ readOnly: true, name: 'Again' })).status).toBe(200);
  });

  it('delete, self-delete, password and second-factor changes need it', async () => {
    const target = await t.factories.user({ customerId: owner.user.customerId });
    expectCaptchaRequired(await t.request('DELETE', `/api/user?email=${target.email}`, { token: owner.token }));
    expect((await t.request('DELETE', `/api/user?email=${target.email}`, { token: owner.token, headers: ok })).status).toBe(204);

    const self = await t.actor('VIEWER');
    expectCaptchaRequired(
      await t.request('POST', `/api/user/password?oldPassword=${encodeURIComponent(TEST_PASSWORD)}&newPassword=${NEW_PASSWORD}`, {
        token: self.token,
      }),
    );
    const { secret } = (await t.request('POST', '/api/user/2fa/secret', { token: self.token })).body as { secret: string };
    const codes = totpCodes(secret);
    // Refused before the code is looked at: the same code still works with the CAPTCHA.
    const enrolmentCode = await codes.next();
    expectCaptchaRequired(await t.request('POST', `/api/user/2fa?enable=true&totp=${enrolmentCode}`, { token: self.token }));
    expect((await t.request('POST', `/api/user/2fa?enable=true&totp=${enrolmentCode}`, { token: self.token, headers: ok })).status).toBe(
      200,
    );
    expectCaptchaRequired(await t.request('DELETE', '/api/user/myAccount', { token: self.token }));
    const deleted = await t.request('DELETE', '/api/user/myAccount', {
      token: self.token,
      headers: { ...ok, 'x-totp': await codes.next() },
    });
    expect(deleted.status).toBe(204);
  });
});
