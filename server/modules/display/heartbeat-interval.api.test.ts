import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '@/server/modules/devices/devices.table';
import { sweepOfflineDevices } from '@/server/modules/devices/devices.jobs';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { asDevice, newDevice, register } from './display.test-kit';

// DEVICE_HEARTBEAT_SECONDS: the interval a device is given when it registers (README "Configuration").
let t: TestContext;
let customerId: number;

beforeAll(async () => {
  t = await createTestContext({ DEVICE_HEARTBEAT_SECONDS: '15' });
  customerId = (await t.factories.customer({ freeLicenses: 1 })).id;
});
afterAll(() => t.close());

const deviceRow = async (id: string) => (await t.db.select().from(devices).where(eq(devices.id, id)))[0]!;

describe('DEVICE_HEARTBEAT_SECONDS', () => {
  it('is the interval a registering device is given, in the answer, the status and every heartbeat answer', async () => {
    const registered = await register(t, { serial: `HB-${Date.now()}` });
    expect(registered.status).toBe(201);
    expect(registered.body.heartbeatSeconds).toBe(15);
    expect((await deviceRow(registered.body.deviceId)).heartbeatSeconds).toBe(15);

    const device = await newDevice(t, { customerId });
    const as = asDevice(t, device.token);
    expect((await as('GET', '/api/display/status')).body.heartbeatSeconds).toBe(15);
    const beat = await as('POST', '/api/display/heartbeat', {});
    expect(beat.status).toBe(200);
    expect(beat.body.heartbeatSeconds).toBe(15);
  });

  it('is given to a pre-registered device when its player takes it over', async () => {
    const serial = `HB-PRE-${Date.now()}`;
    const tech = await t.actor('TECHNICIAN', { customerId });
    const claimed = await t.request('POST', '/api/v2/device/assignToCustomer', {
      token: tech.token,
      json: { serial, createDeviceIfSerialNotFound: true, deviceName: 'Pre', licenseStatus: 'UN_LICENSED', timeZone: 'UTC' },
    });
    expect(claimed.status).toBe(200);
    const taken = await register(t, { serial });
    expect(taken.body).toMatchObject({ deviceId: claimed.body.id, heartbeatSeconds: 15 });
  });

  it('turns a silent device OFFLINE 2.5 intervals after it was last seen (37.5 s here, not 150 s)', async () => {
    const device = await newDevice(t, { customerId });
    expect((await asDevice(t, device.token)('POST', '/api/display/heartbeat', {})).status).toBe(200);
    const seen = (await deviceRow(device.deviceId)).lastSeen!;
    expect((await deviceRow(device.deviceId)).deviceStatus).toBe('ONLINE');

    await sweepOfflineDevices(t.db, new Date(seen.getTime() + 30_000));
    expect((await deviceRow(device.deviceId)).deviceStatus).toBe('ONLINE');
    await sweepOfflineDevices(t.db, new Date(seen.getTime() + 45_000));
    expect((await deviceRow(device.deviceId)).deviceStatus).toBe('OFFLINE');
  });
});
