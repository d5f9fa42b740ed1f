import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '@/server/auth/opaque-token';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { deviceCommands, devices, deviceStatusChanges } from '@/server/modules/devices/devices.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import * as q from './display.queries';
import { asDevice, assignInDatabase, deviceTokenRequest, newDevice, randomAddress, register } from './display.test-kit';

let t: TestContext;
let customerId: number;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
});
afterAll(() => t.close());

const deviceRow = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)))[0]!;

describe('POST /public-api/display/register', () => {
  it('creates an unassigned device: its secret once (stored as a hash), a 4-digit code for 15 minutes', async () => {
    const before = Date.now();
    const res = await register(t, {
      serial: 'SN-REG-1',
      version: '1.2.3',
      nativeResolutionWidth: 1920,
      nativeResolutionHeight: 1080,
      timeZone: 'Europe/Berlin',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      deviceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      deviceSecret: expect.stringMatching(/^[\w-]{43}$/),
      activationCode: expect.stringMatching(/^\d{4}$/),
      activationCodeExpiresAt: expect.any(Number),
      heartbeatSeconds: 60,
    });
    expect(res.body.activationCodeExpiresAt).toBeGreaterThanOrEqual(before + 15 * 60_000 - 5_000);
    expect(res.body.activationCodeExpiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000 + 5_000);
    const row = await deviceRow(res.body.deviceId);
    expect(row).toMatchObject({
      customerId: null,
      serial: 'SN-REG-1',
      type: 'SCREEN',
      platform: 'BROWSER',
      version: '1.2.3',
      timeZone: 'Europe/Berlin',
      activationCode: res.body.activationCode,
    });
    expect(row.secretHash).toBe(hashToken(res.body.deviceSecret));
    expect(JSON.stringify(row)).not.toContain(res.body.deviceSecret);
  });

  it('answers 400 to a missing type or platform, an unknown enum, a string over 256 characters, or a zone that is not IANA', async () => {
    for (const body of [
      { type: undefined },
      { platform: undefined },
      { platform: 'AMIGA' },
      { serial: 'x'.repeat(257) },
      { version: 'x'.repeat(257) },
      { timeZone: 'Mars/Olympus' },
      { timeZone: '+01:00' },
      { nativeResolutionWidth: -1 },
    ]) {
      const res = await register(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key).toBe('request.error.invalid');
    }
  });

  it('gives unexpired codes once: twenty devices, twenty codes', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add((await register(t)).body.activationCode);
    expect(codes.size).toBe(20);
  });

  it('hands out a code again only after clearing its expired holder, and never an unexpired one', async () => {
    const holder = (await register(t)).body.deviceId as string;
    const next = (await register(t)).body.deviceId as string;
    // Another device of this file may have drawn 0042 at random: the test owns the code.
    await t.db.update(devices).set({ activationCode: null, activationCodeExpiresAt: null }).where(eq(devices.activationCode, '0042'));
    await t.db
      .update(devices)
      .set({ activationCode: '0042', activationCodeExpiresAt: sql`now() + interval '1 minute'` })
      .where(eq(devices.id, holder));
    expect(await q.trySetActivationCode(t.db, next, '0042', 900)).toBe('taken');
    await t.db
      .update(devices)
      .set({ activationCodeExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(devices.id, holder));
    expect(await q.trySetActivationCode(t.db, next, '0042', 900)).toMatchObject({ code: '0042' });
    expect((await deviceRow(holder)).activationCode).toBeNull();
  });

  it('allows 30 registrations per client address and hour, then 429 with Retry-After; other addresses go on', async () => {
    const address = randomAddress();
    for (let i = 0; i < 30; i++) expect((await register(t, {}, address)).status).toBe(201);
    const refused = await register(t, {}, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(refused.body).toMatchObject({ status: 429, key: 'request.error.rateLimited' });
    expect((await register(t, {}, randomAddress())).status).toBe(201);
  });

  it('takes its limit from DEVICE_REGISTRATIONS_PER_HOUR', async () => {
    const configured = t.config.deviceRegistrationsPerHour;
    t.config.deviceRegistrationsPerHour = 3;
    try {
      const address = randomAddress();
      for (let i = 0; i < 3; i++) expect((await register(t, {}, address)).status).toBe(201);
      expect((await register(t, {}, address)).status).toBe(429);
      t.config.deviceRegistrationsPerHour = 5;
      expect((await register(t, {}, address)).status).toBe(201);
    } finally {
      t.config.deviceRegistrationsPerHour = configured;
    }
  });
});

describe('registrations behind a reverse proxy (TRUSTED_PROXIES)', () => {
  const registerVia = (base: string, forwardedFor: string) =>
    fetch(`${base}/public-api/display/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ type: 'SCREEN', platform: 'BROWSER' }),
    }).then(async (res) => {
      await res.body?.cancel();

      return res.status;
    });

  it('counts the client a trusted proxy names, and ignores the header from anyone else', async () => {
    const base = await t.listen();
    const { deviceRegistrationsPerHour, trustedProxies } = t.config;
    t.config.deviceRegistrationsPerHour = 2;
    try {
      // The test's connection comes from 127.0.0.1, here the proxy: each client it names has its own count.
      t.config.trustedProxies = ['127.0.0.1'];
      const [a, b] = [randomAddress(), randomAddress()];
      expect(await registerVia(base, a)).toBe(201);
      expect(await registerVia(base, `${randomAddress()}, ${a}`)).toBe(201);
      expect(await registerVia(base, a)).toBe(429);
      expect(await registerVia(base, b)).toBe(201);

      // No proxy trusted: the header is the caller's claim, and a new address in it each time escapes nothing.
      t.config.trustedProxies = [];
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push(await registerVia(base, randomAddress()));
      expect(statuses.at(-1)).toBe(429);
    } finally {
      Object.assign(t.config, { deviceRegistrationsPerHour, trustedProxies });
    }
  });
});

describe('POST /oauth/token with grant_type=client_credentials', () => {
  it('answers a one-hour device token for deviceId:deviceSecret', async () => {
    const { body } = await register(t);
    const res = await deviceTokenRequest(t, body.deviceId, body.deviceSecret);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^[\w-]{43}$/),
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'device',
    });
    expect((await asDevice(t, res.body.access_token)('GET', '/api/display/status')).status).toBe(200);
  });

  it('answers RFC 6749 invalid_client (401, WWW-Authenticate: Basic) to a wrong secret, an unknown or malformed device id', async () => {
    const { body } = await register(t);
    for (const [id, secret] of [
      [body.deviceId, `${body.deviceSecret}x`],
      [body.deviceId, ''],
      [uuidv4(), body.deviceSecret],
      ['not-a-device', body.deviceSecret],
    ]) {
      const res = await deviceTokenRequest(t, id!, secret!);
      expect(res.status, `${id}:${secret}`).toBe(401);
      expect(res.body).toMatchObject({ error: 'invalid_client' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('refuses the grant to the console clients (unauthorized_client) and other grants to devices (invalid_client)', async () => {
    const client = await t.token({ grant_type: 'client_credentials' });
    expect(client.status).toBe(400);
    expect(client.body).toMatchObject({ error: 'unauthorized_client' });
    const { body } = await register(t);
    const password = await deviceTokenRequest(t, body.deviceId, body.deviceSecret, {
      grant_type: 'password',
      username: 'a@b.c',
      password: 'x',
    });
    expect(password.status).toBe(401);
    expect(password.body).toMatchObject({ error: 'invalid_client' });
  });

  it('answers invalid_client to a device of a restricted customer', async () => {
    const customer = await t.factories.customer();
    const { body } = await register(t);
    await assignInDatabase(t, body.deviceId, customer.id);
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customer.id));
    const res = await deviceTokenRequest(t, body.deviceId, body.deviceSecret);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'invalid_client' });
  });
});

describe('POST /api/display/credentials/rotate', () => {
  it('answers a new secret; the old one works until the new one is first used', async () => {
    const device = await newDevice(t, { customerId });
    const res = await asDevice(t, device.token)('POST', '/api/display/credentials/rotate');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deviceSecret: expect.stringMatching(/^[\w-]{43}$/) });
    const fresh = res.body.deviceSecret as string;
    expect(fresh).not.toBe(device.secret);
    // The token in hand stays valid.
    expect((await asDevice(t, device.token)('GET', '/api/display/status')).status).toBe(200);
    expect((await deviceTokenRequest(t, device.deviceId, device.secret)).status).toBe(200);
    expect((await deviceTokenRequest(t, device.deviceId, fresh)).status).toBe(200);
    expect((await deviceTokenRequest(t, device.deviceId, device.secret)).status).toBe(401);
    expect((await deviceTokenRequest(t, device.deviceId, fresh)).status).toBe(200);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, device.deviceId), eq(auditLog.action, 'rotateCredentials')));
    expect(entry).toMatchObject({ actorKind: 'device', deviceId: device.deviceId, customerId });
    expect(JSON.stringify(entry)).not.toContain(fresh);
  });

  it('lets the old secret go after 24 hours even when the new one was never used', async () => {
    const device = await newDevice(t, { customerId });
    await asDevice(t, device.token)('POST', '/api/display/credentials/rotate');
    await t.db
      .update(devices)
      .set({ previousSecretExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(devices.id, device.deviceId));
    expect((await deviceTokenRequest(t, device.deviceId, device.secret)).status).toBe(401);
  });

  it('a second rotation retires the first secret at once', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    await call('POST', '/api/display/credentials/rotate');
    const second = (await call('POST', '/api/display/credentials/rotate')).body.deviceSecret as string;
    expect((await deviceTokenRequest(t, device.deviceId, device.secret)).status).toBe(401);
    expect((await deviceTokenRequest(t, device.deviceId, second)).status).toBe(200);
  });
});

describe('device tokens: confinement and revocation', () => {
  it("serve only the player API, and a user's token is refused there", async () => {
    const device = await newDevice(t, { customerId });
    const me = await t.request('GET', '/api/v2/user/me', { token: device.token });
    expect(me.status).toBe(401);
    expect(me.body.key).toBe('auth.error.invalidToken');
    const owner = await t.actor('OWNER', { customerId });
    const status = await t.request('GET', '/api/display/status', { token: owner.token });
    expect(status.status).toBe(401);
  });

  it('stop at once when the device is deleted (its tokens go with it)', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    expect((await call('GET', '/api/display/status')).status).toBe(200);
    await t.db.delete(devices).where(eq(devices.id, device.deviceId));
    expect((await call('GET', '/api/display/status')).status).toBe(401);
    expect((await call('POST', '/api/display/heartbeat', {})).status).toBe(401);
    expect((await deviceTokenRequest(t, device.deviceId, device.secret)).status).toBe(401);
  });

  it('stop at once when the customer is restricted (401), and work again when the restriction is lifted', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    const call = asDevice(t, device.token);
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customer.id));
    const res = await call('GET', '/api/display/status');
    expect(res.status).toBe(401);
    expect(res.body.key).toBe('auth.error.customerRestricted');
    await t.db.update(customers).set({ restricted: false }).where(eq(customers.id, customer.id));
    expect((await call('GET', '/api/display/status')).status).toBe(200);
  });

  it('stop at once when the customer is deleted', async () => {
    const customer = await t.factories.customer();
    const device = await newDevice(t, { customerId: customer.id });
    await t.db.delete(customers).where(eq(customers.id, customer.id));
    expect((await asDevice(t, device.token)('GET', '/api/display/status')).status).toBe(401);
  });

  it('expire after their hour', async () => {
    const device = await newDevice(t, { customerId });
    await t.db.execute(sql`update device_access_token set expires_at = now() - interval '1 second' where device_id = ${device.deviceId}`);
    expect((await asDevice(t, device.token)('GET', '/api/display/status')).status).toBe(401);
  });
});

describe('GET /api/display/status', () => {
  it('shows an unassigned device its code', async () => {
    const device = await newDevice(t);
    const res = await asDevice(t, device.token)('GET', '/api/display/status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deviceId: device.deviceId,
      assigned: false,
      activationCode: device.activationCode,
      activationCodeExpiresAt: expect.any(Number),
      heartbeatSeconds: 60,
      serverTime: expect.any(Number),
    });
    expect(Math.abs(res.body.serverTime - Date.now())).toBeLessThan(5_000);
  });

  it('renews an expired code', async () => {
    const device = await newDevice(t);
    await t.db
      .update(devices)
      .set({ activationCodeExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(devices.id, device.deviceId));
    const res = await asDevice(t, device.token)('GET', '/api/display/status');
    expect(res.body.activationCode).toMatch(/^\d{4}$/);
    expect(res.body.activationCodeExpiresAt).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect((await deviceRow(device.deviceId)).activationCode).toBe(res.body.activationCode);
  });

  it('shows an assigned device its customer, name and time zone, and no code', async () => {
    const device = await newDevice(t, { customerId });
    await t.db.update(devices).set({ timeZone: 'Asia/Kolkata' }).where(eq(devices.id, device.deviceId));
    const res = await asDevice(t, device.token)('GET', '/api/display/status');
    expect(res.body).toEqual({
      deviceId: device.deviceId,
      assigned: true,
      customerId,
      name: 'Test screen',
      timeZone: 'Asia/Kolkata',
      heartbeatSeconds: 60,
      serverTime: expect.any(Number),
    });
  });

  it('writes lastActivity at most once a minute', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    await call('GET', '/api/display/status');
    const first = (await deviceRow(device.deviceId)).lastActivity;
    expect(first).toBeInstanceOf(Date);
    await call('GET', '/api/display/status');
    expect((await deviceRow(device.deviceId)).lastActivity).toEqual(first);
    await t.db
      .update(devices)
      .set({ lastActivity: sql`now() - interval '61 seconds'` })
      .where(eq(devices.id, device.deviceId));
    await call('GET', '/api/display/status');
    expect((await deviceRow(device.deviceId)).lastActivity!.getTime()).toBeGreaterThan(Date.now() - 10_000);
  });
});

describe('POST /api/display/heartbeat', () => {
  async function command(deviceId: string, values: Partial<typeof deviceCommands.$inferInsert> = {}) {
    const [row] = await t.db
      .insert(deviceCommands)
      .values({ id: uuidv7(), deviceId, customerId, name: 'refreshContent', expiresAt: new Date(Date.now() + 600_000), ...values })
      .returning();

    return row!;
  }

  it('marks the device seen and ONLINE (one status change), stores what it reports, answers the pending commands', async () => {
    const device = await newDevice(t, { customerId });
    const other = await newDevice(t, { customerId });
    const pending = await command(device.deviceId, { name: 'showToast', params: { text: 'hi' } });
    await command(device.deviceId, { acknowledgedAt: new Date(), ok: true });
    await command(device.deviceId, { expiresAt: new Date(Date.now() - 1000) });
    await command(other.deviceId);
    const call = asDevice(t, device.token);
    const res = await call('POST', '/api/display/heartbeat', {
      localIpAddress: '192.168.1.20',
      version: '2.0',
      firmwareVersion: 'fw9',
      deviceInfo: { cpu: 'arm' },
      manifestEtag: 'x',
      currentItem: { fileId: 'f' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      serverTime: expect.any(Number),
      manifestEtag: expect.stringMatching(/^[\w-]{27}$/),
      heartbeatSeconds: 60,
      commands: [
        {
          id: pending.id,
          name: 'showToast',
          params: { text: 'hi' },
          issuedAt: pending.issuedAt.getTime(),
          expiresAt: pending.expiresAt.getTime(),
        },
      ],
    });
    const row = await deviceRow(device.deviceId);
    expect(row).toMatchObject({
      deviceStatus: 'ONLINE',
      everConnected: true,
      localIpAddress: '192.168.1.20',
      version: '2.0',
      firmwareVersion: 'fw9',
      deviceInfo: { cpu: 'arm' },
    });
    expect(row.lastSeen!.getTime()).toBeGreaterThan(Date.now() - 10_000);
    expect(row.lastDeviceStatusChange).toBeInstanceOf(Date);
    const again = await call('POST', '/api/display/heartbeat', {});
    expect(again.body.manifestEtag).toBe(res.body.manifestEtag);
    expect((await deviceRow(device.deviceId)).version).toBe('2.0');
    const changes = await t.db.select().from(deviceStatusChanges).where(eq(deviceStatusChanges.deviceId, device.deviceId));
    expect(changes).toEqual([expect.objectContaining({ status: 'ONLINE', customerId })]);
  });

  it('changes the manifest ETag when what the manifest shows changes', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    const before = (await call('POST', '/api/display/heartbeat', {})).body.manifestEtag;
    await t.db
      .update(devices)
      .set({ settings: { volume: 30 } })
      .where(eq(devices.id, device.deviceId));
    const after = (await call('POST', '/api/display/heartbeat', {})).body.manifestEtag;
    expect(after).not.toBe(before);
  });

  it('is open to an unassigned device', async () => {
    const device = await newDevice(t);
    const res = await asDevice(t, device.token)('POST', '/api/display/heartbeat', {});
    expect(res.status).toBe(200);
    expect(res.body.commands).toEqual([]);
    expect((await deviceRow(device.deviceId)).deviceStatus).toBe('ONLINE');
  });

  it('answers 400 to bad input', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    for (const body of [{ localIpAddress: 'x'.repeat(257) }, { deviceInfo: 'text' }, { version: 7 }]) {
      expect((await call('POST', '/api/display/heartbeat', body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it('bounds deviceInfo: at most 64 keys and 8 KiB as JSON, values scalars or one level of them (400 beyond; the stored one stays)', async () => {
    const device = await newDevice(t, { customerId });
    const call = asDevice(t, device.token);
    const fine = { userAgent: 'Mozilla/5.0', screen: { width: 1920, height: 1080 }, languages: ['en', 'de'], touch: false, battery: null };
    expect((await call('POST', '/api/display/heartbeat', { deviceInfo: fine })).status).toBe(200);
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect((await call('POST', '/api/display/heartbeat', { deviceInfo: keys(64) })).status).toBe(200);
    const tooBig = {
      // The attack's 900 KB document, and one just past 8 KiB.
      deviceInfo: { blob: 'x'.repeat(1000), ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`pad${i}`, 'y'.repeat(1000)])) },
    };
    for (const body of [
      tooBig,
      { deviceInfo: keys(65) },
      { deviceInfo: { deep: { deeper: { deepest: 1 } } } },
      { deviceInfo: { long: 'z'.repeat(1025) } },
      { deviceInfo: { ['k'.repeat(65)]: 1 } },
    ]) {
      const res = await call('POST', '/api/display/heartbeat', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({
        status: 400,
        key: 'request.error.invalid',
        details: { issues: [expect.objectContaining({ path: expect.stringMatching(/^deviceInfo/) })] },
      });
    }
    expect((await call('POST', '/api/display/heartbeat', { deviceInfo: { blob: 'x'.repeat(900_000) } })).status).toBe(413);
    expect((await deviceRow(device.deviceId)).deviceInfo).toEqual(keys(64));
  });

  describe('POST /api/display/commands/{commandId}/ack', () => {
    it('acknowledges once (204, idempotent; the first answer is kept) and the command is no longer delivered', async () => {
      const device = await newDevice(t, { customerId });
      const call = asDevice(t, device.token);
      const cmd = await command(device.deviceId);
      const res = await call('POST', `/api/display/commands/${cmd.id}/ack`, { ok: true, result: { cleared: 3 } });
      expect(res.status).toBe(204);
      const repeat = await call('POST', `/api/display/commands/${cmd.id}/ack`, { ok: false, error: 'late' });
      expect(repeat.status).toBe(204);
      const [row] = await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, cmd.id));
      expect(row).toMatchObject({ ok: true, result: { cleared: 3 }, error: null });
      expect(row!.acknowledgedAt).toBeInstanceOf(Date);
      expect((await call('POST', '/api/display/heartbeat', {})).body.commands).toEqual([]);
    });

    it("answers 404 to another device's command and to an unknown id, 400 to a malformed one or a body without ok", async () => {
      const device = await newDevice(t, { customerId });
      const sibling = await newDevice(t, { customerId });
      const call = asDevice(t, device.token);
      const foreign = await command(sibling.deviceId);
      const res = await call('POST', `/api/display/commands/${foreign.id}/ack`, { ok: true });
      expect(res.status).toBe(404);
      expect(res.body.key).toBe('deviceCommand.error.notFound');
      expect((await t.db.select().from(deviceCommands).where(eq(deviceCommands.id, foreign.id)))[0]!.acknowledgedAt).toBeNull();
      expect((await call('POST', `/api/display/commands/${uuidv4()}/ack`, { ok: true })).status).toBe(404);
      expect((await call('POST', '/api/display/commands/nope/ack', { ok: true })).status).toBe(400);
      expect((await call('POST', `/api/display/commands/${(await command(device.deviceId)).id}/ack`, {})).status).toBe(400);
    });

    it('answers 403 display.error.notAssigned to an unassigned device', async () => {
      const device = await newDevice(t);
      const res = await asDevice(t, device.token)('POST', `/api/display/commands/${uuidv4()}/ack`, { ok: true });
      expect(res.status).toBe(403);
      expect(res.body.key).toBe('display.error.notAssigned');
    });
  });
});
