import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '@/server/modules/devices/devices.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

let t: TestContext;
let admin: string;

const dashboardOf = (customerId: number) => `/api/customer/${customerId}/license/dashboard`;
const ZERO_TYPE = { ordered: 0, assigned: 0, free: 0 };

beforeAll(async () => {
  t = await createTestContext();
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

async function order(customerId: number, values: { licenseType: string; deviceLicenseCount: number; approved: boolean }) {
  const res = await t.request('POST', `/api/licenseOrder?customerId=${customerId}`, {
    token: admin,
    json: { orderDate: '2026-11-01T00:00:00.000Z', licensePayType: 'ONETIME', ...values },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as number;
}

async function device(
  customerId: number,
  values: { licenseStatus?: 'UN_LICENSED' | 'FREE' | 'LICENSED' | 'TRIAL'; licenseOrderId?: number } = {},
) {
  await t.db.insert(devices).values({ id: uuidv7(), customerId, name: 'Screen', secretHash: 'x', ...values });
}

describe('GET /api/customer/{customerId}/license/dashboard', () => {
  it('answers every key with zeros for a customer without orders or devices', async () => {
    const customer = await t.factories.customer({ freeLicenses: 4, deviceSessionLimit: 7 });
    const res = await t.request('GET', dashboardOf(customer.id), { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      totalLicenseCount: 0,
      assignedLicenseCount: 0,
      unAssignedLicenseCount: 0,
      deviceStatusCounts: { UN_LICENSED: 0, FREE: 0, LICENSED: 0, TRIAL: 0 },
      licenseTypeCounts: { BASIC: ZERO_TYPE, PROFESSIONAL: ZERO_TYPE, DBA: ZERO_TYPE, ENTERPRISE: ZERO_TYPE, VIDEO_WALL: ZERO_TYPE },
      browserSessionLimit: 7,
      activeBrowserSessionCount: 0,
      freeCount: 4,
      usedFreeCount: 0,
    });
  });

  it('counts approved orders and the devices holding their licences; unapproved orders and other customers count nowhere', async () => {
    const customer = await t.factories.customer({ freeLicenses: 3 });
    const other = await t.factories.customer();
    const pro = await order(customer.id, { licenseType: 'PROFESSIONAL', deviceLicenseCount: 5, approved: true });
    const pro2 = await order(customer.id, { licenseType: 'PROFESSIONAL', deviceLicenseCount: 2, approved: true });
    const wall = await order(customer.id, { licenseType: 'VIDEO_WALL', deviceLicenseCount: 1, approved: true });
    const pending = await order(customer.id, { licenseType: 'BASIC', deviceLicenseCount: 50, approved: false });
    await order(other.id, { licenseType: 'BASIC', deviceLicenseCount: 9, approved: true });
    for (let i = 0; i < 3; i++) await device(customer.id, { licenseStatus: 'LICENSED', licenseOrderId: pro });
    await device(customer.id, { licenseStatus: 'LICENSED', licenseOrderId: pro2 });
    // Over-assigned (two devices on an order of one): `free` and `unAssigned` stay at 0, never below.
    await device(customer.id, { licenseStatus: 'LICENSED', licenseOrderId: wall });
    await device(customer.id, { licenseStatus: 'LICENSED', licenseOrderId: wall });
    // Naming an unapproved order: not an assigned licence, but a LICENSED device.
    await device(customer.id, { licenseStatus: 'LICENSED', licenseOrderId: pending });
    await device(customer.id, { licenseStatus: 'FREE' });
    await device(customer.id, { licenseStatus: 'FREE' });
    await device(customer.id, { licenseStatus: 'TRIAL' });
    await device(customer.id);
    // Another customer's device naming this customer's order does not use its licence.
    await device(other.id, { licenseStatus: 'LICENSED', licenseOrderId: pro });

    const res = await t.request('GET', dashboardOf(customer.id), { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      totalLicenseCount: 8,
      assignedLicenseCount: 6,
      unAssignedLicenseCount: 2,
      deviceStatusCounts: { UN_LICENSED: 1, FREE: 2, LICENSED: 7, TRIAL: 1 },
      licenseTypeCounts: {
        BASIC: ZERO_TYPE,
        PROFESSIONAL: { ordered: 7, assigned: 4, free: 3 },
        DBA: ZERO_TYPE,
        ENTERPRISE: ZERO_TYPE,
        VIDEO_WALL: { ordered: 1, assigned: 2, free: 0 },
      },
      browserSessionLimit: 0,
      activeBrowserSessionCount: 0,
      freeCount: 3,
      usedFreeCount: 2,
    });

    // Approving the pending order moves its licences (and the device holding one) into the counts.
    const approved = await t.request('PUT', `/api/licenseOrder/${pending}`, { token: admin, json: { approved: true } });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const after = (await t.request('GET', dashboardOf(customer.id), { token: admin })).body;
    expect(after).toMatchObject({ totalLicenseCount: 58, assignedLicenseCount: 7, unAssignedLicenseCount: 51 });
    expect(after.licenseTypeCounts.BASIC).toEqual({ ordered: 50, assigned: 1, free: 49 });
  });

  it('is for OWNER and above, within the caller’s tenant scope', async () => {
    const customer = await t.factories.customer();
    const owner = (await t.actor('OWNER', { customerId: customer.id })).token;
    const technician = (await t.actor('TECHNICIAN', { customerId: customer.id })).token;
    const viewer = (await t.actor('VIEWER', { customerId: customer.id })).token;
    const other = await t.factories.customer();

    expect((await t.request('GET', dashboardOf(customer.id), { token: owner })).status).toBe(200);
    expect((await t.request('GET', dashboardOf(customer.id), { token: technician })).status).toBe(403);
    expect((await t.request('GET', dashboardOf(customer.id), { token: viewer })).status).toBe(403);
    expect((await t.request('GET', dashboardOf(customer.id))).status).toBe(401);
    // Another tenant, and one that does not exist, answer alike.
    for (const id of [other.id, 999_999_999]) {
      const res = await t.request('GET', dashboardOf(id), { token: owner });
      expect(res.status).toBe(404);
      expect(res.body.key).toBe('customer.error.notFound');
    }
    expect((await t.request('GET', dashboardOf(999_999_999), { token: admin })).body.key).toBe('customer.error.notFound');
  });

  it('lets a network owner’s OWNER read its members’ dashboards and not other customers’', async () => {
    const networkOwner = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ ownerSubresellerId: networkOwner.id, licenseTier: 'BUSINESS' });
    const outsider = await t.factories.customer();
    const netOwner = (await t.actor('OWNER', { customerId: networkOwner.id })).token;
    const memberOwner = (await t.actor('OWNER', { customerId: member.id })).token;
    await order(member.id, { licenseType: 'BASIC', deviceLicenseCount: 3, approved: true });

    const memberView = await t.request('GET', dashboardOf(member.id), { token: netOwner });
    expect(memberView.status, JSON.stringify(memberView.body)).toBe(200);
    expect(memberView.body.totalLicenseCount).toBe(3);
    expect((await t.request('GET', dashboardOf(networkOwner.id), { token: netOwner })).status).toBe(200);
    expect((await t.request('GET', dashboardOf(outsider.id), { token: netOwner })).status).toBe(404);
    // The member sees its own dashboard, not its network owner's.
    expect((await t.request('GET', dashboardOf(member.id), { token: memberOwner })).status).toBe(200);
    expect((await t.request('GET', dashboardOf(networkOwner.id), { token: memberOwner })).status).toBe(404);
  });

  it('refuses a hostile path with 400, not 500', async () => {
    for (const id of ['abc', '1%00', '99999999999999999999999']) {
      expect((await t.request('GET', `/api/customer/${id}/license/dashboard`, { token: admin })).status).toBe(400);
    }
  });
});
