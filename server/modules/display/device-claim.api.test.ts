import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailures } from '@/server/auth/failure-limit.table';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { devices } from '@/server/modules/devices/devices.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { createLogger } from '@/server/logger';
import { listenToChannel } from '@/server/db/notification-feed';
import { DEVICE_PUSH_CHANNEL } from './device-push';
import { asDevice, deviceTokenRequest, newDevice, register } from './display.test-kit';

const CLAIM = '/api/v2/device/assignToCustomer';

let t: TestContext;
type Signed = Awaited<ReturnType<TestContext['actor']>>;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** A tenant with a TECHNICIAN, in its own failure windows, and a few free licences (spec 5 §6: FREE draws on them). */
async function tenant() {
  const customer = await t.factories.customer({ freeLicenses: 5 });
  const tech = await t.actor('TECHNICIAN', { customerId: customer.id });
  const [root] = await t.db.select().from(deviceGroups).where(eq(deviceGroups.customerId, customer.id));

  return { customerId: customer.id, tech, root: root! };
}

const claim = (who: Signed, body: Record<string, unknown>, customerId?: number) =>
  t.request('POST', customerId === undefined ? CLAIM : `${CLAIM}?customerId=${customerId}`, {
    token: who.token,
    json: { deviceName: 'Lobby', licenseStatus: 'UN_LICENSED', timeZone: 'Europe/Berlin', ...body },
  });
const deviceRow = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)))[0]!;
/** A code no unexpired device shows (so a claim with it is wrong). */
async function unusedCode(): Promise<string> {
  const used = new Set((await t.db.select({ code: devices.activationCode }).from(devices)).map((r) => r.code));
  for (let n = 0; ; n++) if (!used.has(String(n).padStart(4, '0'))) return String(n).padStart(4, '0');
}

describe('POST /api/v2/device/assignToCustomer with an activation code', () => {
  it("puts the device into the customer's root folder with name, licence and time zone; clears the code; audits", async () => {
    const { customerId, tech, root } = await tenant();
    const device = await newDevice(t);
    const res = await claim(tech, {
      activationCode: device.activationCode,
      deviceName: 'Lobby left',
      licenseStatus: 'FREE',
      licenseType: 'PROFESSIONAL',
      timeZone: 'America/New_York',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: device.deviceId,
      name: 'Lobby left',
      customerId,
      deviceGroupId: root.id,
      deviceGroup: { id: root.id, name: 'Root' },
      deviceGroupPath: root.path.join('/'),
      deviceStatus: 'OFFLINE',
      emergencyStatus: false,
      readOnly: false,
      tags: [],
      type: 'SCREEN',
      platform: 'BROWSER',
      licenseStatus: 'FREE',
      licenseType: 'PROFESSIONAL',
      timeZone: 'America/New_York',
      createdDate: expect.any(String),
    });
    const row = await deviceRow(device.deviceId);
    expect(row).toMatchObject({
      customerId,
      deviceGroupId: root.id,
      groupPath: root.path,
      activationCode: null,
      activationCodeExpiresAt: null,
    });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, device.deviceId), eq(auditLog.action, 'assignToCustomer')));
    expect(entry).toMatchObject({
      entityType: 'device',
      customerId,
      userId: tech.user.id,
      deviceId: device.deviceId,
      entityName: 'Lobby left',
    });
    const status = await asDevice(t, device.token)('GET', '/api/display/status');
    expect(status.body).toMatchObject({ assigned: true, customerId, name: 'Lobby left', timeZone: 'America/New_York' });
    expect(status.body.activationCode).toBeUndefined();
    // The same code no longer claims anything.
    expect((await claim(tech, { activationCode: device.activationCode })).status).toBe(404);
  });

  it("stores licenseOrderId with LICENSED and the order's licence type", async () => {
    const { tech, customerId } = await tenant();
    const order = await t.factories.licenseOrder(customerId, { licenseType: 'VIDEO_WALL' });
    const device = await newDevice(t);
    const res = await claim(tech, { activationCode: device.activationCode, licenseStatus: 'LICENSED', licenseOrderId: order.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ licenseStatus: 'LICENSED', licenseOrderId: order.id, licenseType: 'VIDEO_WALL' });
  });

  it('answers 404 to a wrong or expired code', async () => {
    const { tech } = await tenant();
    expect((await claim(tech, { activationCode: await unusedCode() })).status).toBe(404);
    const device = await newDevice(t);
    await t.db
      .update(devices)
      .set({ activationCodeExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(devices.id, device.deviceId));
    const res = await claim(tech, { activationCode: device.activationCode });
    expect(res.status).toBe(404);
    expect(res.body.key).toBe('device.error.notFound');
    expect((await deviceRow(device.deviceId)).customerId).toBeNull();
  });

  it('answers 400 to bodies that break the licence, code/serial and time-zone rules', async () => {
    const { tech } = await tenant();
    const cases: [Record<string, unknown>, string][] = [
      [{ activationCode: '1234', licenseStatus: 'FREE' }, 'licenseType'],
      [{ activationCode: '1234', licenseStatus: 'LICENSED' }, 'licenseOrderId'],
      [{ activationCode: '1234', licenseStatus: 'UN_LICENSED', licenseType: 'BASIC' }, 'licenseType'],
      [{ activationCode: '1234', licenseStatus: 'FREE', licenseType: 'BASIC', licenseOrderId: 3 }, 'licenseOrderId'],
      [{ activationCode: '1234', licenseStatus: 'TRIAL' }, 'licenseStatus'],
      [{ activationCode: '1234', licenseStatus: 'FREE', licenseType: 'VIDEO_WALL' }, 'licenseType'],
      [{}, 'activationCode'],
      [{ activationCode: '1234', serial: 'S' }, 'activationCode'],
      [{ activationCode: '12345' }, 'activationCode'],
      [{ activationCode: '1234', createDeviceIfSerialNotFound: true }, 'createDeviceIfSerialNotFound'],
      [{ activationCode: '1234', timeZone: 'Berlin' }, 'timeZone'],
      [{ activationCode: '1234', timeZone: undefined }, 'timeZone'],
      [{ activationCode: '1234', deviceName: '' }, 'deviceName'],
      [{ activationCode: '1234', deviceName: undefined }, 'deviceName'],
    ];
    for (const [body, field] of cases) {
      const res = await claim(tech, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        res.body.details.issues.map((i: { path: string }) => i.path),
        JSON.stringify(body),
      ).toContain(field);
    }
  });

  it("lets a network owner claim into a member's tenant, and an ADMIN into any selected tenant", async () => {
    const owner = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ ownerSubresellerId: owner.id });
    const ownerUser = await t.actor('OWNER', { customerId: owner.id });
    const device = await newDevice(t);
    const res = await claim(ownerUser, { activationCode: device.activationCode }, member.id);
    expect(res.status).toBe(200);
    expect(res.body.customerId).toBe(member.id);
    const admin = await t.actor('ADMIN');
    const other = await newDevice(t);
    expect((await claim(admin, { activationCode: other.activationCode }, member.id)).body.customerId).toBe(member.id);
  });

  it("announces the claim on the device_push channel (at commit) for the instance holding the device's WebSocket", async () => {
    const heard: string[] = [];
    const feed = await listenToChannel(
      t.handle,
      DEVICE_PUSH_CHANNEL,
      { message: (payload) => void heard.push(payload) },
      createLogger('silent'),
    );
    try {
      const { tech } = await tenant();
      const device = await newDevice(t);
      await claim(tech, { activationCode: await unusedCode() });
      await claim(tech, { activationCode: device.activationCode });
      await expect.poll(() => heard).toEqual([`assigned:${device.deviceId}`]);
    } finally {
      await feed.stop();
    }
  });
});

describe('claim limit: ten failed claims per user or tenant in 15 minutes', () => {
  it('then answers 429 with Retry-After to every claim of that user, right code or wrong', async () => {
    const { tech, customerId } = await tenant();
    const wrong = await unusedCode();
    for (let i = 0; i < 10; i++) expect((await claim(tech, { activationCode: wrong })).status).toBe(404);
    const device = await newDevice(t);
    const refused = await claim(tech, { activationCode: device.activationCode });
    expect(refused.status).toBe(429);
    expect(refused.body.key).toBe('request.error.rateLimited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await claim(tech, { activationCode: wrong })).status).toBe(429);
    expect((await deviceRow(device.deviceId)).customerId).toBeNull();
    // Another user of the same tenant: the tenant's window is full too.
    const colleague = await t.actor('TECHNICIAN', { customerId });
    expect((await claim(colleague, { activationCode: device.activationCode })).status).toBe(429);
    // Someone else elsewhere is not affected.
    const elsewhere = await tenant();
    expect((await claim(elsewhere.tech, { activationCode: device.activationCode })).status).toBe(200);
  });

  it('counts only failures: successful claims and pre-registrations give their slot back', async () => {
    const { tech } = await tenant();
    for (let i = 0; i < 12; i++) {
      const device = await newDevice(t);
      expect((await claim(tech, { activationCode: device.activationCode })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++)
      expect((await claim(tech, { serial: `PRE-COUNT-${i}-${Date.now()}`, createDeviceIfSerialNotFound: true })).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(authFailures)
      .where(eq(authFailures.subject, `claim.user:${tech.user.id}`));
    expect(row?.failures ?? 0).toBe(0);
  });

  it('lets claims through again once the window has passed', async () => {
    const { tech, customerId } = await tenant();
    const wrong = await unusedCode();
    for (let i = 0; i < 11; i++) await claim(tech, { activationCode: wrong });
    await t.db
      .update(authFailures)
      .set({ windowStart: sql`now() - interval '16 minutes'` })
      .where(like(authFailures.subject, 'claim.%'));
    const device = await newDevice(t);
    expect((await claim(tech, { activationCode: device.activationCode })).body.customerId).toBe(customerId);
  });

  it('answers 429 to no more than ten of many parallel wrong guesses checked', async () => {
    const { tech } = await tenant();
    const wrong = await unusedCode();
    const answers = await Promise.all(Array.from({ length: 25 }, () => claim(tech, { activationCode: wrong })));
    expect(answers.filter((a) => a.status === 404).length).toBeLessThanOrEqual(10);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(15);
  });
});

describe('serials: claims and zero-touch pre-registration', () => {
  it('claims the unassigned device registered with the serial', async () => {
    const { tech, customerId } = await tenant();
    const serial = `SN-CLAIM-${Date.now()}`;
    const device = await newDevice(t, { body: { serial } });
    const res = await claim(tech, { serial });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: device.deviceId, customerId, serial });
  });

  it('answers 404 to an unknown serial without createDeviceIfSerialNotFound', async () => {
    const { tech } = await tenant();
    expect((await claim(tech, { serial: `SN-NONE-${Date.now()}` })).status).toBe(404);
  });

  it('pre-registers an assigned, never-connected device that the first player with the serial takes over', async () => {
    const { tech, customerId, root } = await tenant();
    const serial = `SN-ZT-${Date.now()}`;
    const pre = await claim(tech, {
      serial,
      createDeviceIfSerialNotFound: true,
      deviceName: 'Entrance',
      licenseStatus: 'FREE',
      licenseType: 'BASIC',
    });
    expect(pre.status).toBe(200);
    expect(pre.body).toMatchObject({
      customerId,
      name: 'Entrance',
      serial,
      deviceGroupId: root.id,
      licenseStatus: 'FREE',
      licenseType: 'BASIC',
    });
    expect(await deviceRow(pre.body.id)).toMatchObject({ everConnected: false, customerId, groupPath: root.path });
    // The same serial pre-registered twice, before a player took the first over: 409.
    const twice = await claim(tech, { serial, createDeviceIfSerialNotFound: true });
    expect(twice.status).toBe(409);
    expect(twice.body.key).toBe('device.error.serialPreRegistered');

    const taken = await register(t, { serial, type: 'TABLET', platform: 'PLATFORM_1', version: '5.1' });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ deviceId: pre.body.id, deviceSecret: expect.any(String), heartbeatSeconds: 60 });
    expect(await deviceRow(pre.body.id)).toMatchObject({
      customerId,
      name: 'Entrance',
      deviceGroupId: root.id,
      everConnected: true,
      type: 'TABLET',
      platform: 'PLATFORM_1',
      version: '5.1',
      timeZone: 'Europe/Berlin',
    });
    const token = await deviceTokenRequest(t, pre.body.id, taken.body.deviceSecret);
    expect(token.status).toBe(200);
    const status = await asDevice(t, token.body.access_token)('GET', '/api/display/status');
    expect(status.body).toMatchObject({ deviceId: pre.body.id, assigned: true, customerId, name: 'Entrance' });
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, pre.body.id), eq(auditLog.action, 'connect')));
    expect(entry).toMatchObject({ actorKind: 'device', customerId });

    // Once connected, the same serial registers a new unassigned device.
    const later = await register(t, { serial });
    expect(later.status).toBe(201);
    expect(later.body.deviceId).not.toBe(pre.body.id);
    expect(later.body.activationCode).toMatch(/^\d{4}$/);
    expect((await deviceRow(later.body.deviceId)).customerId).toBeNull();
    // …and pre-registering the serial again is allowed.
    expect((await claim(tech, { serial: `${serial}-x`, createDeviceIfSerialNotFound: true })).status).toBe(200);
  });

  it("keeps the pre-registered device's time zone and leaves other tenants' devices alone", async () => {
    const a = await tenant();
    const serial = `SN-TZ-${Date.now()}`;
    const pre = await claim(a.tech, { serial, createDeviceIfSerialNotFound: true, timeZone: 'Asia/Tokyo' });
    await register(t, { serial, timeZone: 'Europe/Paris' });
    expect((await deviceRow(pre.body.id)).timeZone).toBe('Asia/Tokyo');
  });
});
