import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { datasourceData, datasources } from '@/server/modules/datasources/datasources.table';
import { insertDevice } from '@/server/modules/devices/devices.queries';
import { licenseOrders } from '@/server/modules/licences/licences.table';
import { users } from '@/server/modules/users/users.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { customerStatistics } from '@/server/tenant/customer-statistics';

let t: TestContext;
let adminToken: string;
beforeAll(async () => {
  t = await createTestContext();
  adminToken = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

const USER_STATISTICS = ['totalUserLoginCount', 'totalUserPresenceTime', 'lastActivity'] as const;
const REGISTERED_STATISTICS = ['activeLicenses', 'totalLicenses', 'currentDatasourceStorageSize', 'lastDeviceActivity'] as const;

const readCustomer = (id: number, select?: string) =>
  t.request('GET', `/api/customer/${id}${select === undefined ? '' : `?select=${encodeURIComponent(select)}`}`, { token: adminToken });

/** A customer with two users who signed in (3 logins) and have known presence and activity, and a user of another customer. */
async function customerWithActivity() {
  const customer = await t.factories.customer();
  const first = await t.factories.user({ customerId: customer.id });
  const second = await t.factories.user({ customerId: customer.id });
  await t.signIn(first.email);
  await t.signIn(first.email);
  await t.signIn(second.email);
  await t.db
    .update(users)
    .set({ presenceTimeSeconds: 100, lastActivity: new Date('2026-01-02T03:04:05.678Z') })
    .where(eq(users.id, first.id));
  await t.db
    .update(users)
    .set({ presenceTimeSeconds: 20, lastActivity: new Date('2026-01-01T00:00:00.000Z') })
    .where(eq(users.id, second.id));
  const other = await t.factories.user();
  await t.signIn(other.email);
  await t.db
    .update(users)
    .set({ presenceTimeSeconds: 5000, lastActivity: new Date('2026-06-01T00:00:00.000Z') })
    .where(eq(users.id, other.id));

  return customer;
}

describe('customer statistics from its users', () => {
  it('sums logins and presence (seconds) over the customer’s own users and answers their latest activity', async () => {
    const customer = await customerWithActivity();
    const res = await readCustomer(customer.id, USER_STATISTICS.join(','));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: customer.id,
      totalUserLoginCount: 3,
      totalUserPresenceTime: 120,
      lastActivity: '2026-01-02T03:04:05.678Z',
    });
  });

  it('answers 0 and null for a customer without users', async () => {
    const customer = await t.factories.customer();
    const res = await readCustomer(customer.id, USER_STATISTICS.join(','));
    expect(res.body).toEqual({ id: customer.id, totalUserLoginCount: 0, totalUserPresenceTime: 0, lastActivity: null });
  });

  it('can be searched and sorted on', async () => {
    const customer = await customerWithActivity();
    const search = encodeURIComponent(`id=${customer.id},totalUserLoginCount=3,totalUserPresenceTime>100`);
    const found = await t.request('GET', `/api/customer?search=${search}&select=totalUserLoginCount`, { token: adminToken });
    expect(found.status).toBe(200);
    expect(found.body.content).toEqual([{ id: customer.id, totalUserLoginCount: 3 }]);
    const none = await t.request('GET', `/api/customer?search=${encodeURIComponent(`id=${customer.id},totalUserLoginCount>3`)}`, {
      token: adminToken,
    });
    expect(none.body.content).toEqual([]);
    const sorted = await t.request('GET', '/api/customer?sort=totalUserLoginCount,desc&select=totalUserLoginCount&size=1000', {
      token: adminToken,
    });
    expect(sorted.status).toBe(200);
    const counts = (sorted.body.content as Array<{ totalUserLoginCount: number }>).map((c) => c.totalUserLoginCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe('select of the computed fields', () => {
  it('leaves them out unless named; the storage totals stay in the default shape', async () => {
    const customer = await customerWithActivity();
    const res = await readCustomer(customer.id);
    expect(res.status).toBe(200);
    for (const field of [...USER_STATISTICS, ...REGISTERED_STATISTICS]) expect(res.body).not.toHaveProperty(field);
    expect(res.body).toMatchObject({ currentCustomerFilesStorageSize: 0, currentTotalCustomerStorageSize: 0 });
    const star = await readCustomer(customer.id, '*');
    for (const field of [...USER_STATISTICS, ...REGISTERED_STATISTICS]) expect(star.body).not.toHaveProperty(field);
  });

  it('answers 0, and null for lastDeviceActivity, for a customer with nothing to count', async () => {
    const customer = await t.factories.customer();
    const res = await readCustomer(customer.id, REGISTERED_STATISTICS.join(','));
    expect(res.body).toEqual({
      id: customer.id,
      activeLicenses: 0,
      totalLicenses: 0,
      currentDatasourceStorageSize: 0,
      lastDeviceActivity: null,
    });
  });

  it('refuses an unknown name with 400', async () => {
    const customer = await t.factories.customer();
    const res = await readCustomer(customer.id, 'totalUserLogins');
    expect(res.status).toBe(400);
  });
});

describe('the customer statistic registry', () => {
  it('computes the registered statistics and falls back once one is removed', async () => {
    const customer = await t.factories.customer({ usedStorageSize: 500 });
    // The licences module contributes totalLicenses (its approved orders' licences), the devices module
    // activeLicenses (its devices holding a licence of an order) and lastDeviceActivity (their newest call).
    const [order] = await t.db
      .insert(licenseOrders)
      .values([
        { customerId: customer.id, orderDate: new Date(), deviceLicenseCount: 5, approved: true },
        { customerId: customer.id, orderDate: new Date(), deviceLicenseCount: 2, approved: true },
        { customerId: customer.id, orderDate: new Date(), deviceLicenseCount: 100, approved: false },
      ])
      .returning();
    for (const lastActivity of [new Date('2026-03-04T05:06:07.089Z'), new Date('2026-03-01T00:00:00.000Z')]) {
      await insertDevice(t.db, {
        id: uuidv7(),
        customerId: customer.id,
        name: 'Screen',
        secretHash: 'x',
        lastActivity,
        licenseOrderId: order!.id,
      });
    }
    await insertDevice(t.db, { id: uuidv7(), customerId: customer.id, name: 'Unlicensed', secretHash: 'x' });
    // The datasources module contributes currentDatasourceStorageSize: the bytes of its documents.
    const datasourceId = uuidv7();
    await t.db
      .insert(datasources)
      .values({ id: datasourceId, customerId: customer.id, name: 'Prices', sourceType: 'INTERNAL', structureType: 'CUSTOM' });
    await t.db.insert(datasourceData).values({ datasourceId, customerId: customer.id, document: {}, hash: 'h', size: 1000 });
    // Every statistic is registered by its module now: a second registration is refused.
    expect(() => customerStatistics.add({ statistic: 'totalLicenses', sql: () => sql`0` })).toThrow(/registered twice/);
    // A test-only stand-in replacing the datasources' expression, removed again below.
    const datasourceStatistic = customerStatistics.get('currentDatasourceStorageSize')!;
    const others = customerStatistics.items().filter((item) => item !== datasourceStatistic);
    customerStatistics.install(others);
    const removals = [
      customerStatistics.add({ statistic: 'currentDatasourceStorageSize', sql: (id) => sql`(select 7 where ${id} is not null)` }),
    ];
    try {
      const res = await readCustomer(
        customer.id,
        `${REGISTERED_STATISTICS.join(',')},currentCustomerFilesStorageSize,currentTotalCustomerStorageSize`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: customer.id,
        activeLicenses: 2,
        totalLicenses: 7,
        currentCustomerFilesStorageSize: 500,
        currentDatasourceStorageSize: 7,
        currentTotalCustomerStorageSize: 507,
        lastDeviceActivity: '2026-03-04T05:06:07.089Z',
      });
      const found = await t.request('GET', `/api/customer?search=${encodeURIComponent(`id=${customer.id},activeLicenses=2`)}`, {
        token: adminToken,
      });
      expect(found.body.content).toHaveLength(1);
    } finally {
      for (const remove of removals) remove();
    }
    // Without the stand-in (and without the module's own, uninstalled above) the fallback answers 0.
    try {
      const fallback = await readCustomer(customer.id, 'currentDatasourceStorageSize,currentTotalCustomerStorageSize');
      expect(fallback.body).toMatchObject({ currentDatasourceStorageSize: 0, currentTotalCustomerStorageSize: 500 });
    } finally {
      customerStatistics.install([...others, datasourceStatistic]);
    }
    const after = await readCustomer(customer.id, `${REGISTERED_STATISTICS.join(',')},currentTotalCustomerStorageSize`);
    expect(after.body).toMatchObject({
      activeLicenses: 2,
      totalLicenses: 7,
      currentDatasourceStorageSize: 1000,
      currentTotalCustomerStorageSize: 1500,
      lastDeviceActivity: '2026-03-04T05:06:07.089Z',
    });
  });
});
