import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '@/server/tenant/customers.table';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';
import { devices } from './devices.table';

/*
 * Spec 5 §6 enforced: a device is LICENSED only by a free licence of an approved order of its customer, FREE only
 * while the customer's free licences last; deleting a device or changing its licence frees it.
 */

let k: DevicesTestKit;
let t: DevicesTestKit['t'];

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
});
afterAll(() => t.close());

/** A tenant of its own (counts of one test never meet another's) with a TECHNICIAN and `freeLicenses`. */
async function tenant(freeLicenses = 0) {
  const customerId = (await t.factories.customer({ freeLicenses })).id;
  const tech = (await t.actor('TECHNICIAN', { customerId })).token;
  const root = await k.rootFolder(customerId);
  const screens = async (n: number) => Promise.all(Array.from({ length: n }, () => k.device({}, root)));

  return { customerId, tech, screens };
}

/** updateLicense for exactly `ids` of the tenant. */
function updateLicense(who: { customerId: number; tech: string }, ids: string[], query: string) {
  const search = encodeURIComponent(ids.map((id) => `id=${id}`).join('|'));

  return t.request('POST', `/api/v2/device/updateLicense?customerId=${who.customerId}&search=${search}&${query}`, { token: who.tech });
}

const rowsOf = (ids: string[]) =>
  t.db
    .select({
      id: devices.id,
      licenseStatus: devices.licenseStatus,
      licenseOrderId: devices.licenseOrderId,
      licenseType: devices.licenseType,
    })
    .from(devices)
    .where(inArray(devices.id, ids));

const assignedOf = async (orderId: number) =>
  (await t.request('GET', `/api/licenseOrder/${orderId}`, { token: k.admin })).body.assignedDeviceCount as number;

describe('updateLicense with a licence order', () => {
  it('licenses devices while the order has free licences; a batch that does not fit changes nothing', async () => {
    const who = await tenant();
    const order = await t.factories.licenseOrder(who.customerId, { deviceLicenseCount: 3, licenseType: 'PROFESSIONAL' });
    const devs = await who.screens(5);
    const ids = devs.map((d) => d.id);

    const tooMany = await updateLicense(who, ids, `licenseStatus=LICENSED&licenseOrderId=${order.id}`);
    expect(tooMany.status, JSON.stringify(tooMany.body)).toBe(409);
    expect(tooMany.body).toMatchObject({ key: 'license.error.noFreeLicense', details: { parameter: 'licenseOrderId' } });
    expect((await rowsOf(ids)).every((r) => r.licenseStatus === 'UN_LICENSED' && r.licenseOrderId === null)).toBe(true);

    expect((await updateLicense(who, ids.slice(0, 3), `licenseStatus=LICENSED&licenseOrderId=${order.id}`)).body).toEqual({ updated: 3 });
    // The order's type is the devices' type.
    expect(await rowsOf(ids.slice(0, 3))).toEqual(
      expect.arrayContaining(
        ids.slice(0, 3).map((id) => ({ id, licenseStatus: 'LICENSED', licenseOrderId: order.id, licenseType: 'PROFESSIONAL' })),
      ),
    );
    expect(await assignedOf(order.id)).toBe(3);
    // Devices that hold the order already take no second licence.
    expect((await updateLicense(who, ids.slice(0, 3), `licenseOrderId=${order.id}`)).body).toEqual({ updated: 3 });
    expect((await updateLicense(who, [ids[3]!], `licenseStatus=LICENSED&licenseOrderId=${order.id}`)).status).toBe(409);

    // UN_LICENSED frees a licence, and deleting a device frees its own.
    expect((await updateLicense(who, [ids[0]!], 'licenseStatus=UN_LICENSED')).body).toEqual({ updated: 1 });
    expect(await rowsOf([ids[0]!])).toEqual([{ id: ids[0], licenseStatus: 'UN_LICENSED', licenseOrderId: null, licenseType: null }]);
    expect((await updateLicense(who, [ids[3]!], `licenseOrderId=${order.id}`)).body).toEqual({ updated: 1 });
    expect(await rowsOf([ids[3]!])).toEqual([
      { id: ids[3], licenseStatus: 'LICENSED', licenseOrderId: order.id, licenseType: 'PROFESSIONAL' },
    ]);
    expect((await updateLicense(who, [ids[4]!], `licenseOrderId=${order.id}`)).status).toBe(409);
    const removed = await t.request('DELETE', `/api/device/${ids[1]}?customerId=${who.customerId}`, { token: k.admin });
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    expect(await assignedOf(order.id)).toBe(2);
    expect((await updateLicense(who, [ids[4]!], `licenseOrderId=${order.id}`)).body).toEqual({ updated: 1 });
    expect(await assignedOf(order.id)).toBe(3);
  });

  it('refuses an unapproved order, another tenant’s and one that does not exist alike', async () => {
    const who = await tenant();
    const other = await tenant();
    const unapproved = await t.factories.licenseOrder(who.customerId, { approved: false, approveDate: null });
    const foreign = await t.factories.licenseOrder(other.customerId);
    const [dev] = await who.screens(1);
    for (const orderId of [unapproved.id, foreign.id, 9_000_000_000]) {
      const res = await updateLicense(who, [dev!.id], `licenseStatus=LICENSED&licenseOrderId=${orderId}`);
      expect([res.status, res.body.key], String(orderId)).toEqual([409, 'license.error.noFreeLicense']);
    }
    expect(await rowsOf([dev!.id])).toEqual([{ id: dev!.id, licenseStatus: 'UN_LICENSED', licenseOrderId: null, licenseType: null }]);
    expect(await assignedOf(foreign.id)).toBe(0);
  });

  it('refuses a licence type other than the order’s; a type alone leaves licensed devices their order’s', async () => {
    const who = await tenant(1);
    const order = await t.factories.licenseOrder(who.customerId, { licenseType: 'DBA' });
    const [licensed, free] = await who.screens(2);
    const mismatch = await updateLicense(who, [licensed!.id], `licenseStatus=LICENSED&licenseOrderId=${order.id}&licenseType=BASIC`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ key: 'request.error.invalidCombination', details: { parameter: 'licenseType' } });
    expect((await updateLicense(who, [licensed!.id], `licenseStatus=LICENSED&licenseOrderId=${order.id}&licenseType=DBA`)).status).toBe(
      200,
    );
    expect((await updateLicense(who, [free!.id], 'licenseStatus=FREE&licenseType=BASIC')).status).toBe(200);
    expect((await updateLicense(who, [licensed!.id, free!.id], 'licenseType=VIDEO_WALL')).body).toEqual({ updated: 2 });
    expect(await rowsOf([licensed!.id, free!.id])).toEqual(
      expect.arrayContaining([
        { id: licensed!.id, licenseStatus: 'LICENSED', licenseOrderId: order.id, licenseType: 'DBA' },
        { id: free!.id, licenseStatus: 'FREE', licenseOrderId: null, licenseType: 'VIDEO_WALL' },
      ]),
    );
  });

  it('50 simultaneous requests against an order with 10 free licences: exactly 10 succeed', async () => {
    const who = await tenant();
    const order = await t.factories.licenseOrder(who.customerId, { deviceLicenseCount: 10 });
    const devs = await who.screens(50);
    const answers = await Promise.all(devs.map((d) => updateLicense(who, [d.id], `licenseStatus=LICENSED&licenseOrderId=${order.id}`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(await assignedOf(order.id)).toBe(10);
  });
});

describe('FREE licences', () => {
  it('draw on the customer’s freeLicenses, by updateLicense and by the claim', async () => {
    const who = await tenant(2);
    const devs = await who.screens(3);
    const ids = devs.map((d) => d.id);
    const over = await updateLicense(who, ids, 'licenseStatus=FREE&licenseType=BASIC');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ key: 'license.error.noFreeLicense', details: { parameter: 'licenseStatus' } });
    expect((await updateLicense(who, ids.slice(0, 2), 'licenseStatus=FREE&licenseType=BASIC')).body).toEqual({ updated: 2 });

    const unclaimed = await newDevice(t);
    const claim = (licence: Record<string, unknown>) =>
      t.request('POST', '/api/v2/device/assignToCustomer', {
        token: who.tech,
        json: { activationCode: unclaimed.activationCode, deviceName: 'Door', timeZone: 'UTC', ...licence },
      });
    const refused = await claim({ licenseStatus: 'FREE', licenseType: 'BASIC' });
    expect([refused.status, refused.body.key]).toEqual([409, 'license.error.noFreeLicense']);
    // The refused claim changed nothing: the device still waits with its code.
    expect((await t.db.select({ customerId: devices.customerId }).from(devices).where(eq(devices.id, unclaimed.deviceId)))[0]).toEqual({
      customerId: null,
    });
    // A device set to UN_LICENSED gives its free licence back.
    expect((await updateLicense(who, [ids[0]!], 'licenseStatus=UN_LICENSED')).body).toEqual({ updated: 1 });
    const claimed = await claim({ licenseStatus: 'FREE', licenseType: 'BASIC' });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body).toMatchObject({ licenseStatus: 'FREE', licenseType: 'BASIC' });
    // A raised allowance is used at once.
    await t.db.update(customers).set({ freeLicenses: 3 }).where(eq(customers.id, who.customerId));
    expect((await updateLicense(who, [ids[2]!], 'licenseStatus=FREE&licenseType=PROFESSIONAL')).body).toEqual({ updated: 1 });
  });

  // FREE has no order to lock: the customer's row serialises the writers (on PostgreSQL, 12 or 13 succeed without it).
  it('50 simultaneous requests against 10 free licences: exactly 10 succeed', async () => {
    const who = await tenant(10);
    const devs = await who.screens(50);
    const answers = await Promise.all(devs.map((d) => updateLicense(who, [d.id], 'licenseStatus=FREE&licenseType=BASIC')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    const free = await t.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.customerId, who.customerId), eq(devices.licenseStatus, 'FREE')));
    expect(free).toHaveLength(10);
  });
});

describe('claims with a licence order', () => {
  it('10 simultaneous claims against an order with 4 free licences: exactly 4 devices are claimed', async () => {
    const who = await tenant();
    const order = await t.factories.licenseOrder(who.customerId, { deviceLicenseCount: 4 });
    const waiting = await Promise.all(Array.from({ length: 10 }, () => newDevice(t)));
    const answers = await Promise.all(
      waiting.map((d) =>
        t.request('POST', '/api/v2/device/assignToCustomer', {
          token: who.tech,
          json: {
            activationCode: d.activationCode,
            deviceName: 'Wall',
            timeZone: 'UTC',
            licenseStatus: 'LICENSED',
            licenseOrderId: order.id,
          },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(4).fill(200), ...Array(6).fill(409)]);
    const claimed = await t.db
      .select({ id: devices.id })
      .from(devices)
      .where(
        inArray(
          devices.id,
          waiting.map((d) => d.deviceId),
        ),
      );
    expect(claimed).toHaveLength(10);
    const inTenant = await t.db.select({ id: devices.id }).from(devices).where(eq(devices.customerId, who.customerId));
    expect(inTenant).toHaveLength(4);
    expect(await assignedOf(order.id)).toBe(4);
  });
});
