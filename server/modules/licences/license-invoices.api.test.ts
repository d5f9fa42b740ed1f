import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';

let t: TestContext;
let admin: string;

const DATE = '2026-12-01T00:00:00.000Z';
const invoiceOf = (customerId: number | string, date = DATE) =>
  t.request('GET', `/api/customer/${customerId}/view/invoice?date=${encodeURIComponent(date)}`, { token: admin });
const globalInvoice = (date = DATE) =>
  t.request('GET', `/api/customer/global/view/invoice?date=${encodeURIComponent(date)}`, { token: admin });

/** An order made by the ADMIN (approved unless told otherwise): a monthly PROFESSIONAL subscription by default. */
async function order(customerId: number, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', `/api/licenseOrder?customerId=${customerId}`, {
    token: admin,
    json: {
      orderDate: '2026-11-01T00:00:00.000Z',
      deviceLicenseCount: 10,
      licenseType: 'PROFESSIONAL',
      licensePayType: 'SUBSCRIPTION',
      recurrence: { recurrenceType: 'MONTHLY', frequency: 1 },
      pricePerDevice: 12.5,
      currency: 'EUR',
      approved: true,
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body;
}

const monthly = (frequency = 1) => ({ recurrenceType: 'MONTHLY', frequency });
const yearly = (frequency = 1) => ({ recurrenceType: 'YEARLY', frequency });

beforeAll(async () => {
  t = await createTestContext();
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

describe('who may read the invoice views', () => {
  let customerId: number;
  let owner: string;
  let networkOwner: string;
  let memberId: number;

  beforeAll(async () => {
    customerId = (await t.factories.customer()).id;
    owner = (await t.actor('OWNER', { customerId })).token;
    const network = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    memberId = (await t.factories.customer({ ownerSubresellerId: network.id })).id;
    networkOwner = (await t.actor('OWNER', { customerId: network.id })).token;
  });

  it.each([
    ['an OWNER, its own customer', () => owner, () => `/api/customer/${customerId}/view/invoice`],
    ['an OWNER, the global view', () => owner, () => '/api/customer/global/view/invoice'],
    ["a network owner's OWNER, its member", () => networkOwner, () => `/api/customer/${memberId}/view/invoice`],
    ["a network owner's OWNER, the global view", () => networkOwner, () => '/api/customer/global/view/invoice'],
  ])('refuses %s with 403', async (_, token, path) => {
    const res = await t.request('GET', `${path()}?date=${DATE}`, { token: token() });
    expect(res.status).toBe(403);
  });

  it.each([
    ['without date', ''],
    ['with a date that is no ISO-8601 date-time', '?date=yesterday'],
    ['with a date only', '?date=2026-12-01'],
  ])('answers 400 with the validation error shape %s', async (_, query) => {
    for (const path of [`/api/customer/${customerId}/view/invoice`, '/api/customer/global/view/invoice']) {
      const res = await t.request('GET', `${path}${query}`, { token: admin });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ status: 400, key: expect.stringMatching(/^request\.error\./) });
      expect(JSON.stringify(res.body.details)).toContain('date');
    }
  });

  it.each([['0000-01-01T00:00:00Z'], ['9999-12-31T23:59:59-23:59']])(
    'answers 400 (not 500) for %s, a date outside the years PostgreSQL stores',
    async (date) => {
      expect((await invoiceOf(customerId, date)).status).toBe(400);
      expect((await globalInvoice(date)).status).toBe(400);
    },
  );

  it('answers 404 customer.error.notFound for an unknown customer', async () => {
    const res = await invoiceOf(987_654_321);
    expect(res.status).toBe(404);
    expect(res.body.key).toBe('customer.error.notFound');
  });
});

describe("a customer's invoice view", () => {
  it('counts approved subscriptions started by the date, per currency, and leaves the rest out', async () => {
    const { id } = await t.factories.customer();
    await order(id, { deviceLicenseCount: 10, pricePerDevice: 12.5 });
    await order(id, { deviceLicenseCount: 2, pricePerDevice: 12.5, invoiceStartDate: DATE });
    await order(id, { deviceLicenseCount: 3, pricePerDevice: 9.99, licenseType: 'BASIC', invoiceStartDate: '2026-11-15T00:00:00.000Z' });
    await order(id, { deviceLicenseCount: 4, pricePerDevice: 120, currency: 'USD', recurrence: yearly() });
    // Not counted: unapproved, ONETIME, invoice start after the date, no price.
    await order(id, { approved: false });
    await order(id, { licensePayType: 'ONETIME', recurrence: undefined, pricePerDevice: 490 });
    await order(id, { invoiceStartDate: '2026-12-01T00:00:00.001Z' });
    await order(id, { pricePerDevice: undefined, currency: undefined });

    const res = await invoiceOf(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // EUR: 12 × 12.5 + 3 × 9.99 = 179.97; USD: 4 × 120 × 1/12 = 40.
    expect(res.body.recurringRevenueList).toEqual([
      { currency: 'EUR', monthlyAverage: 179.97 },
      { currency: 'USD', monthlyAverage: 40 },
    ]);
    expect(res.body.totalInvoiceTables).toEqual([
      {
        recurrence: monthly(),
        currency: 'EUR',
        items: [
          { licenseType: 'BASIC', quantity: 3, price: 9.99 },
          { licenseType: 'PROFESSIONAL', quantity: 12, price: 12.5 },
        ],
      },
      { recurrence: yearly(), currency: 'USD', items: [{ licenseType: 'PROFESSIONAL', quantity: 4, price: 120 }] },
    ]);
    expect(res.body.networkOwnerInvoiceTables).toEqual([]);
    expect(res.body.networkMembersInvoiceTables).toEqual([]);
    expect(res.body.networkMemberLicenseTierCounts).toEqual({ STARTER: 0, BUSINESS: 0, ENTERPRISE: 0 });

    // A day earlier the order starting on the date is not counted yet.
    const before = await invoiceOf(id, '2026-11-30T00:00:00.000Z');
    expect(before.body.recurringRevenueList).toEqual([
      { currency: 'EUR', monthlyAverage: 154.97 },
      { currency: 'USD', monthlyAverage: 40 },
    ]);
  });

  it('applies the multiplier of each recurrence, keeping one line per unit price', async () => {
    const { id } = await t.factories.customer();
    await order(id, { deviceLicenseCount: 1, pricePerDevice: 1, recurrence: { recurrenceType: 'DAILY', frequency: 7 } });
    await order(id, { deviceLicenseCount: 3, pricePerDevice: 2, recurrence: { recurrenceType: 'WEEKLY', frequency: 2 } });
    await order(id, { deviceLicenseCount: 5, pricePerDevice: 10, recurrence: monthly(3) });
    await order(id, { deviceLicenseCount: 2, pricePerDevice: 11, recurrence: monthly(3) });
    await order(id, { deviceLicenseCount: 6, pricePerDevice: 100, recurrence: yearly(2) });

    const res = await invoiceOf(id);
    // 30/7 + 6 × 4.333333/2 + 72/3 + 600 × 2/12 = 4.285714… + 12.999999 + 24 + 100 = 141.285713285714… → 6 places.
    expect(res.body.recurringRevenueList).toEqual([{ currency: 'EUR', monthlyAverage: 141.285713 }]);
    expect(res.body.totalInvoiceTables.map((table: { recurrence: unknown }) => table.recurrence)).toEqual([
      { recurrenceType: 'DAILY', frequency: 7 },
      { recurrenceType: 'WEEKLY', frequency: 2 },
      monthly(3),
      yearly(2),
    ]);
    expect(res.body.totalInvoiceTables[2].items).toEqual([
      { licenseType: 'PROFESSIONAL', quantity: 5, price: 10 },
      { licenseType: 'PROFESSIONAL', quantity: 2, price: 11 },
    ]);
  });

  it('sums exactly where floats drift', async () => {
    const { id } = await t.factories.customer();
    for (let i = 0; i < 10; i++) await order(id, { deviceLicenseCount: 1, pricePerDevice: 0.1 });
    await order(id, { deviceLicenseCount: 1, pricePerDevice: 0.2 });

    const res = await invoiceOf(id);
    expect(res.body.recurringRevenueList).toEqual([{ currency: 'EUR', monthlyAverage: 1.2 }]);
    expect(res.body.totalInvoiceTables[0].items).toEqual([
      { licenseType: 'PROFESSIONAL', quantity: 10, price: 0.1 },
      { licenseType: 'PROFESSIONAL', quantity: 1, price: 0.2 },
    ]);
  });
});

describe("a network owner's invoice view", () => {
  it("splits the total into the owner's and the members' orders and counts the members' tiers", async () => {
    const network = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const starter = await t.factories.customer({ ownerSubresellerId: network.id, licenseTier: 'STARTER' });
    const business = await t.factories.customer({ ownerSubresellerId: network.id, licenseTier: 'BUSINESS' });
    await t.factories.customer({ ownerSubresellerId: network.id, licenseTier: 'BUSINESS' });
    const outsider = await t.factories.customer();
    await order(network.id, { deviceLicenseCount: 2, pricePerDevice: 10 });
    await order(starter.id, { deviceLicenseCount: 3, pricePerDevice: 10 });
    await order(business.id, { deviceLicenseCount: 4, pricePerDevice: 10 });
    await order(business.id, {
      deviceLicenseCount: 1,
      pricePerDevice: 240,
      currency: 'CHF',
      licenseType: 'VIDEO_WALL',
      recurrence: yearly(),
    });
    await order(business.id, { deviceLicenseCount: 50, approved: false });
    await order(outsider.id, { deviceLicenseCount: 100, pricePerDevice: 10 });

    const res = await invoiceOf(network.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.recurringRevenueList).toEqual([
      { currency: 'CHF', monthlyAverage: 20 },
      { currency: 'EUR', monthlyAverage: 90 },
    ]);
    const eurMonthly = (quantity: number) => ({
      recurrence: monthly(),
      currency: 'EUR',
      items: [{ licenseType: 'PROFESSIONAL', quantity, price: 10 }],
    });
    const chfYearly = { recurrence: yearly(), currency: 'CHF', items: [{ licenseType: 'VIDEO_WALL', quantity: 1, price: 240 }] };
    expect(res.body.totalInvoiceTables).toEqual([eurMonthly(9), chfYearly]);
    expect(res.body.networkOwnerInvoiceTables).toEqual([eurMonthly(2)]);
    expect(res.body.networkMembersInvoiceTables).toEqual([eurMonthly(7), chfYearly]);
    expect(res.body.networkMemberLicenseTierCounts).toEqual({ STARTER: 1, BUSINESS: 2, ENTERPRISE: 0 });

    // A member's own view is a plain customer's: its orders only, no network tables.
    const member = await invoiceOf(starter.id);
    expect(member.body.totalInvoiceTables).toEqual([eurMonthly(3)]);
    expect(member.body.networkOwnerInvoiceTables).toEqual([]);
    expect(member.body.networkMemberLicenseTierCounts).toEqual({ STARTER: 0, BUSINESS: 0, ENTERPRISE: 0 });
  });

  it('answers empty tables for a network owner without orders', async () => {
    const network = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    await t.factories.customer({ ownerSubresellerId: network.id, licenseTier: 'ENTERPRISE' });

    const res = await invoiceOf(network.id);
    expect(res.body).toEqual({
      recurringRevenueList: [],
      totalInvoiceTables: [],
      networkOwnerInvoiceTables: [],
      networkMembersInvoiceTables: [],
      networkMemberLicenseTierCounts: { STARTER: 0, BUSINESS: 0, ENTERPRISE: 1 },
    });
  });
});

describe('the global invoice view', () => {
  it("sums every customer's counted orders per currency", async () => {
    // A currency of this test alone: the other tests' orders are in the same database.
    const first = await t.factories.customer();
    const second = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
    const member = await t.factories.customer({ ownerSubresellerId: second.id });
    await order(first.id, { currency: 'XGA', deviceLicenseCount: 1, pricePerDevice: 0.3333 });
    await order(second.id, { currency: 'XGA', deviceLicenseCount: 2, pricePerDevice: 0.3333 });
    await order(member.id, { currency: 'XGA', deviceLicenseCount: 3, pricePerDevice: 1.2, recurrence: yearly(12) });
    await order(member.id, { currency: 'XGA', deviceLicenseCount: 3, pricePerDevice: 1.2, approved: false });

    const res = await globalInvoice();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['recurringRevenueList']);
    const currencies = res.body.recurringRevenueList.map((entry: { currency: string }) => entry.currency);
    expect(currencies).toEqual([...currencies].sort());
    // 3 × 0.3333 + 3 × 1.2 × 12/12 = 4.5999
    expect(res.body.recurringRevenueList).toContainEqual({ currency: 'XGA', monthlyAverage: 4.5999 });
    // Without an invoice start an order counts whatever the date (its orderDate is not considered).
    expect((await globalInvoice('2020-01-01T00:00:00Z')).body.recurringRevenueList).toContainEqual({
      currency: 'XGA',
      monthlyAverage: 4.5999,
    });
  });
});
