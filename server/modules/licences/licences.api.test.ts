import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { devices } from '@/server/modules/devices/devices.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { licenseOrders } from './licences.table';

let t: TestContext;
let admin: { token: string; userId: string; email: string };
/** A plain tenant with its OWNER, TECHNICIAN and VIEWER. */
let tenant: { id: number; owner: string; ownerId: string; technician: string; viewer: string };
/** A network owner (with its OWNER), its member and a customer outside the network. */
let net: { ownerId: number; token: string; memberId: number; otherId: number };

const ORDERS = '/api/licenseOrder';
const PACKAGES = '/api/licensePackage';
const unique = (prefix: string) => `${prefix} ${uuidv7().slice(-12)}`;
const subscription = {
  licenseType: 'PROFESSIONAL',
  licensePayType: 'SUBSCRIPTION',
  recurrence: { recurrenceType: 'MONTHLY', frequency: 1 },
  pricePerDevice: 12.5,
  currency: 'EUR',
};

beforeAll(async () => {
  t = await createTestContext();
  const a = await t.actor('ADMIN');
  admin = { token: a.token, userId: a.user.id, email: a.user.email };
  const customer = await t.factories.customer();
  const owner = await t.actor('OWNER', { customerId: customer.id });
  tenant = {
    id: customer.id,
    owner: owner.token,
    ownerId: owner.user.id,
    technician: (await t.actor('TECHNICIAN', { customerId: customer.id })).token,
    viewer: (await t.actor('VIEWER', { customerId: customer.id })).token,
  };
  const networkOwner = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
  const member = await t.factories.customer({ ownerSubresellerId: networkOwner.id, licenseTier: 'BUSINESS' });
  const other = await t.factories.customer();
  net = {
    ownerId: networkOwner.id,
    token: (await t.actor('OWNER', { customerId: networkOwner.id })).token,
    memberId: member.id,
    otherId: other.id,
  };
});
afterAll(() => t.close());

/** An order made by the ADMIN for `customerId` (approved when asked). */
async function adminOrder(customerId: number, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', `${ORDERS}?customerId=${customerId}`, {
    token: admin.token,
    json: { orderDate: '2026-11-01T00:00:00.000Z', deviceLicenseCount: 10, ...subscription, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body;
}

async function ownerOrder(token: string, query = '', extra: Record<string, unknown> = {}) {
  return t.request('POST', `${ORDERS}/createAsCustomer${query}`, {
    token,
    json: { orderDate: '2026-11-02T10:00:00.000Z', deviceLicenseCount: 5, comment: 'please', poNumber: 'PO-1', ...extra },
  });
}

async function licensedDevice(customerId: number, orderId: number) {
  const id = uuidv7();
  await t.db
    .insert(devices)
    .values({ id, customerId, name: 'Screen', secretHash: 'x', licenseStatus: 'LICENSED', licenseOrderId: orderId });

  return id;
}

const auditOf = (entityType: string, entityId: number) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, entityType), eq(auditLog.entityId, String(entityId))));

describe('licence packages (ADMIN)', () => {
  it('creates, reads, lists, changes and deletes a package, with audit entries', async () => {
    const name = unique('Pro monthly');
    const created = await t.request('POST', PACKAGES, { token: admin.token, json: { name, ...subscription, currency: 'eur' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name, ...subscription, currency: 'EUR' });
    const id = created.body.id as number;
    expect((await t.request('GET', `${PACKAGES}/${id}`, { token: admin.token })).body).toEqual(created.body);
    const list = await t.request('GET', `${PACKAGES}?search=${encodeURIComponent(`name=${name}`)}`, { token: admin.token });
    expect(list.body.content).toEqual([created.body]);

    const changed = await t.request('PUT', `${PACKAGES}/${id}`, {
      token: admin.token,
      json: { pricePerDevice: 9.99, licensePayType: 'ONETIME' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.pricePerDevice).toBe(9.99);
    expect(changed.body.licensePayType).toBe('ONETIME');
    expect(changed.body).not.toHaveProperty('recurrence');

    expect((await t.request('DELETE', `${PACKAGES}/${id}`, { token: admin.token })).status).toBe(204);
    expect((await t.request('GET', `${PACKAGES}/${id}`, { token: admin.token })).status).toBe(404);
    expect((await auditOf('licensePackage', id)).map((e) => e.action).sort()).toEqual(['create', 'delete', 'update']);
  });

  it.each([
    ['recurrence', { licensePayType: 'SUBSCRIPTION', recurrence: undefined }],
    ['recurrence', { licensePayType: 'ONETIME' }],
    ['currency', { currency: undefined }],
  ])('refuses with 400 request.error.invalidCombination naming %s: %j', async (field, change) => {
    const res = await t.request('POST', PACKAGES, { token: admin.token, json: { name: unique('Bad'), ...subscription, ...change } });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.invalidCombination');
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it.each([
    [{ pricePerDevice: -1 }],
    [{ currency: 'EURO' }],
    [{ licenseType: 'GOLD' }],
    [{ recurrence: { recurrenceType: 'MONTHLY', frequency: 0 } }],
    [{ name: '   ' }],
  ])('refuses the invalid value %j with 400', async (change) => {
    const res = await t.request('POST', PACKAGES, { token: admin.token, json: { name: unique('Bad'), ...subscription, ...change } });
    expect(res.status).toBe(400);
  });

  it('keeps names unique (409) and refuses an update that breaks the rules (400)', async () => {
    const name = unique('Twice');
    const first = await t.request('POST', PACKAGES, { token: admin.token, json: { name, ...subscription } });
    const again = await t.request('POST', PACKAGES, { token: admin.token, json: { name, ...subscription } });
    expect(again.status).toBe(409);
    expect(again.body.key).toBe('licensePackage.error.nameExists');
    const noCurrency = await t.request('PUT', `${PACKAGES}/${first.body.id}`, { token: admin.token, json: { currency: '' } });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.body.key).toBe('request.error.invalidCombination');
  });

  it('is for ADMIN only', async () => {
    expect((await t.request('GET', PACKAGES, { token: tenant.owner })).status).toBe(403);
    expect((await t.request('POST', PACKAGES, { token: net.token, json: { name: unique('X'), ...subscription } })).status).toBe(403);
    expect((await t.request('GET', PACKAGES)).status).toBe(401);
  });
});

describe('POST /api/licenseOrder (ADMIN)', () => {
  it('creates an order with every field, the embedded objects and the caller as the seller', async () => {
    const order = await adminOrder(tenant.id, { comment: 'Q4', poNumber: 'PO-7', invoiceSystemId: 'INV-1', managedInInvoiceSystem: true });
    expect(order).toMatchObject({
      customerId: tenant.id,
      customer: { id: tenant.id },
      orderDate: '2026-11-01T00:00:00.000Z',
      deviceLicenseCount: 10,
      ...subscription,
      approved: false,
      comment: 'Q4',
      poNumber: 'PO-7',
      managedInInvoiceSystem: true,
      invoiceSystemId: 'INV-1',
      assignedDeviceCount: 0,
      soldByUser: { id: admin.userId, email: admin.email },
    });
    expect(order).not.toHaveProperty('approvedByUser');
    expect(order).not.toHaveProperty('approveDate');
    expect(typeof order.createDate).toBe('string');
    expect(await auditOf('licenseOrder', order.id)).toHaveLength(1);
  });

  it('pre-approves with approved=true', async () => {
    const order = await adminOrder(tenant.id, { approved: true });
    expect(order).toMatchObject({ approved: true, approvedByUser: { id: admin.userId } });
    expect(Date.now() - Date.parse(order.approveDate)).toBeLessThan(60_000);
  });

  it('takes the package’s fields, ignoring the body’s', async () => {
    const pkg = (
      await t.request('POST', PACKAGES, {
        token: admin.token,
        json: { name: unique('Wall'), licenseType: 'VIDEO_WALL', licensePayType: 'ONETIME', pricePerDevice: 100, currency: 'USD' },
      })
    ).body;
    const order = await adminOrder(tenant.id, {
      licensePackageId: pkg.id,
      licenseType: 'BASIC',
      licensePayType: undefined,
      recurrence: undefined,
    });
    expect(order).toMatchObject({
      licenseType: 'VIDEO_WALL',
      licensePayType: 'ONETIME',
      pricePerDevice: 100,
      currency: 'USD',
      licensePackageId: pkg.id,
      licensePackage: { id: pkg.id, name: pkg.name, licenseType: 'VIDEO_WALL' },
    });
    expect(order).not.toHaveProperty('recurrence');
    const missing = await t.request('POST', `${ORDERS}?customerId=${tenant.id}`, {
      token: admin.token,
      json: { orderDate: '2026-11-01T00:00:00Z', deviceLicenseCount: 1, licensePackageId: 999_999_999 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.key).toBe('licensePackage.error.notFound');
  });

  it.each([
    ['licenseType', { licenseType: undefined }],
    ['licensePayType', { licensePayType: undefined, recurrence: undefined }],
    ['recurrence', { recurrence: undefined }],
    ['recurrence', { licensePayType: 'ONETIME' }],
    ['currency', { currency: undefined }],
  ])('without a package: 400 invalidCombination naming %s for %j', async (field, change) => {
    const res = await t.request('POST', `${ORDERS}?customerId=${tenant.id}`, {
      token: admin.token,
      json: { orderDate: '2026-11-01T00:00:00Z', deviceLicenseCount: 1, ...subscription, ...change },
    });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.invalidCombination');
    expect(JSON.stringify(res.body.details)).toContain(field);
  });

  it.each([
    ['a count of 0', { deviceLicenseCount: 0 }],
    ['a fractional count', { deviceLicenseCount: 1.5 }],
    ['a date that is no date', { orderDate: 'yesterday' }],
    ['no orderDate', { orderDate: undefined }],
    ['no deviceLicenseCount', { deviceLicenseCount: undefined }],
    ['a price above 9 999 999 999', { pricePerDevice: 1e10 }],
    ['a comment of 4001 characters', { comment: 'x'.repeat(4001) }],
    ['a NUL character', { comment: 'nul\u0000' }],
  ])('refuses %s with 400', async (_label, change) => {
    const res = await t.request('POST', `${ORDERS}?customerId=${tenant.id}`, {
      token: admin.token,
      json: { orderDate: '2026-11-01T00:00:00Z', deviceLicenseCount: 1, ...subscription, ...change },
    });
    expect(res.status).toBe(400);
  });

  it('needs customerId (400 request.error.customerIdRequired), an existing customer (404) and ADMIN (403)', async () => {
    const body = { orderDate: '2026-11-01T00:00:00Z', deviceLicenseCount: 1, ...subscription };
    const none = await t.request('POST', ORDERS, { token: admin.token, json: body });
    expect(none.status).toBe(400);
    expect(none.body.key).toBe('request.error.customerIdRequired');
    expect((await t.request('POST', `${ORDERS}?customerId=999999999`, { token: admin.token, json: body })).status).toBe(404);
    expect((await t.request('POST', ORDERS, { token: tenant.owner, json: body })).status).toBe(403);
  });

  it('stores prices exactly', async () => {
    const order = await adminOrder(tenant.id, { pricePerDevice: 0.1 });
    const [row] = await t.db.select().from(licenseOrders).where(eq(licenseOrders.id, order.id));
    expect(row!.pricePerDevice).toBe('0.1000');
    expect(order.pricePerDevice).toBe(0.1);
    // Finer digits are rounded to the column's four places.
    const rounded = await adminOrder(tenant.id, { pricePerDevice: 1.23456 });
    expect(rounded.pricePerDevice).toBe(1.2346);
    expect((await adminOrder(tenant.id, { pricePerDevice: 1e-7 })).pricePerDevice).toBe(0);
  });
});

describe('POST /api/licenseOrder/createAsCustomer', () => {
  it('an OWNER orders for its customer: unapproved, sold by the OWNER', async () => {
    const res = await ownerOrder(tenant.owner, '', { licenseType: 'ENTERPRISE' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      customerId: tenant.id,
      approved: false,
      deviceLicenseCount: 5,
      licenseType: 'ENTERPRISE',
      comment: 'please',
      poNumber: 'PO-1',
      soldByUser: { id: tenant.ownerId },
      assignedDeviceCount: 0,
    });
    expect(res.body).not.toHaveProperty('pricePerDevice');
  });

  it('ignores fields an OWNER may not set (approval, price)', async () => {
    const res = await ownerOrder(tenant.owner, '', { approved: true, pricePerDevice: 0, currency: 'EUR' });
    expect(res.status).toBe(201);
    expect(res.body.approved).toBe(false);
    expect(res.body).not.toHaveProperty('pricePerDevice');
  });

  it('with a package takes its tier and pricing', async () => {
    const pkg = (
      await t.request('POST', PACKAGES, { token: admin.token, json: { name: unique('Lite'), ...subscription, licenseType: 'BASIC' } })
    ).body;
    const res = await ownerOrder(tenant.owner, '', { licensePackageId: pkg.id });
    expect(res.body).toMatchObject({
      licenseType: 'BASIC',
      licensePayType: 'SUBSCRIPTION',
      recurrence: subscription.recurrence,
      pricePerDevice: 12.5,
      currency: 'EUR',
    });
  });

  it('a network owner orders for its member, not for a customer outside its network', async () => {
    const forMember = await ownerOrder(net.token, `?customerId=${net.memberId}`);
    expect(forMember.status).toBe(201);
    expect(forMember.body.customerId).toBe(net.memberId);
    const own = await ownerOrder(net.token);
    expect(own.body.customerId).toBe(net.ownerId);
    const outside = await ownerOrder(net.token, `?customerId=${net.otherId}`);
    expect(outside.status).toBe(403);
    expect(outside.body.key).toBe('auth.error.tenantForbidden');
  });

  it('a plain OWNER cannot order for another customer; a TECHNICIAN not at all', async () => {
    expect((await ownerOrder(tenant.owner, `?customerId=${net.otherId}`)).status).toBe(403);
    expect((await ownerOrder(tenant.technician)).status).toBe(403);
  });

  it('ADMIN names the customer', async () => {
    const res = await ownerOrder(admin.token);
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('request.error.customerIdRequired');
    expect((await ownerOrder(admin.token, `?customerId=${tenant.id}`)).status).toBe(201);
  });

  it('refuses an invalid body with 400', async () => {
    expect((await ownerOrder(tenant.owner, '', { deviceLicenseCount: -1 })).status).toBe(400);
    expect((await ownerOrder(tenant.owner, '', { orderDate: null })).status).toBe(400);
    expect((await ownerOrder(tenant.owner, '', { licenseType: 'NOPE' })).status).toBe(400);
  });
});

describe('PUT /api/licenseOrder/{id} (ADMIN): change and approve', () => {
  it('changes an unapproved order and approves it; then only comment and invoice fields change', async () => {
    const placed = (await ownerOrder(tenant.owner)).body;
    const incomplete = await t.request('PUT', `${ORDERS}/${placed.id}`, { token: admin.token, json: { approved: true } });
    expect(incomplete.status).toBe(409);
    expect(incomplete.body.key).toBe('licenseOrder.error.incomplete');
    expect(incomplete.body.details.missing).toEqual(['licenseType', 'licensePayType']);

    const priced = await t.request('PUT', `${ORDERS}/${placed.id}`, {
      token: admin.token,
      json: { ...subscription, deviceLicenseCount: 6 },
    });
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body).toMatchObject({ ...subscription, deviceLicenseCount: 6, approved: false });

    const approved = await t.request('PUT', `${ORDERS}/${placed.id}`, { token: admin.token, json: { approved: true } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approved: true, approvedByUser: { id: admin.userId }, soldByUser: { id: tenant.ownerId } });
    expect(typeof approved.body.approveDate).toBe('string');

    const invoice = await t.request('PUT', `${ORDERS}/${placed.id}`, {
      token: admin.token,
      json: {
        comment: 'later',
        invoiceStartDate: '2026-12-01T00:00:00Z',
        managedInInvoiceSystem: true,
        invoiceSystemId: 'X-1',
        approved: true,
      },
    });
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({
      comment: 'later',
      invoiceStartDate: '2026-12-01T00:00:00.000Z',
      managedInInvoiceSystem: true,
      invoiceSystemId: 'X-1',
    });
    expect(invoice.body.approveDate).toBe(approved.body.approveDate);

    // The same values again are no change; another count, price or un-approving is.
    const same = await t.request('PUT', `${ORDERS}/${placed.id}`, { token: admin.token, json: { ...subscription, deviceLicenseCount: 6 } });
    expect(same.status).toBe(200);
    for (const change of [{ deviceLicenseCount: 7 }, { pricePerDevice: 1 }, { approved: false }, { orderDate: '2020-01-01T00:00:00Z' }]) {
      const res = await t.request('PUT', `${ORDERS}/${placed.id}`, { token: admin.token, json: change });
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(res.body.key).toBe('licenseOrder.error.approvedImmutable');
      expect(res.body.details.fields).toEqual([Object.keys(change)[0]]);
    }
    const actions = (await auditOf('licenseOrder', placed.id)).map((e) => e.action).sort();
    expect(actions).toEqual(['approve', 'create', 'update', 'update']);
  });

  it('switching to ONETIME removes the recurrence; rules between fields answer 400', async () => {
    const order = await adminOrder(tenant.id);
    const onetime = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { licensePayType: 'ONETIME' } });
    expect(onetime.body.licensePayType).toBe('ONETIME');
    expect(onetime.body).not.toHaveProperty('recurrence');
    const back = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { licensePayType: 'SUBSCRIPTION' } });
    expect(back.status).toBe(400);
    expect(back.body.key).toBe('request.error.invalidCombination');
    const withRecurrence = await t.request('PUT', `${ORDERS}/${order.id}`, {
      token: admin.token,
      json: { recurrence: { recurrenceType: 'YEARLY', frequency: 1 } },
    });
    expect(withRecurrence.status).toBe(400);
    const noCurrency = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { currency: '' } });
    expect(noCurrency.status).toBe(400);
    const clearedPrice = await t.request('PUT', `${ORDERS}/${order.id}`, {
      token: admin.token,
      json: { pricePerDevice: '', currency: '' },
    });
    expect(clearedPrice.status).toBe(200);
    expect(clearedPrice.body).not.toHaveProperty('pricePerDevice');
  });

  it('naming a package copies its fields onto an unapproved order; "" removes the reference and keeps them', async () => {
    const pkg = (
      await t.request('POST', PACKAGES, {
        token: admin.token,
        json: {
          name: unique('Yearly'),
          licenseType: 'ENTERPRISE',
          licensePayType: 'SUBSCRIPTION',
          recurrence: { recurrenceType: 'YEARLY', frequency: 1 },
          pricePerDevice: 99,
          currency: 'GBP',
        },
      })
    ).body;
    const order = await adminOrder(tenant.id);
    const named = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { licensePackageId: pkg.id } });
    expect(named.body).toMatchObject({
      licensePackageId: pkg.id,
      licenseType: 'ENTERPRISE',
      recurrence: { recurrenceType: 'YEARLY', frequency: 1 },
      pricePerDevice: 99,
      currency: 'GBP',
    });
    const unnamed = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { licensePackageId: '' } });
    expect(unnamed.body).not.toHaveProperty('licensePackageId');
    expect(unnamed.body).toMatchObject({ licenseType: 'ENTERPRISE', currency: 'GBP' });
    const unknown = await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { licensePackageId: 999_999_999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.key).toBe('licensePackage.error.notFound');
    for (const method of ['PUT', 'DELETE']) {
      const missing = await t.request(method, `${PACKAGES}/999999999`, {
        token: admin.token,
        json: method === 'PUT' ? { name: 'x' } : undefined,
      });
      expect(missing.status, method).toBe(404);
    }
  });

  it('records the approval in the audit log with who approved', async () => {
    const order = await adminOrder(tenant.id);
    await t.request('PUT', `${ORDERS}/${order.id}`, { token: admin.token, json: { approved: true, comment: 'ok' } });
    const [entry] = (await auditOf('licenseOrder', order.id)).filter((e) => e.action === 'approve');
    expect(entry).toMatchObject({ userEmail: admin.email, customerId: tenant.id });
    expect(entry!.changes).toMatchObject({ approved: { from: false, to: true }, comment: { to: 'ok' } });
  });

  it('is ADMIN only, and another tenant’s id or a missing one is 404 for ADMIN scoped elsewhere', async () => {
    const order = await adminOrder(tenant.id);
    expect((await t.request('PUT', `${ORDERS}/${order.id}`, { token: tenant.owner, json: { approved: true } })).status).toBe(403);
    const elsewhere = await t.request('PUT', `${ORDERS}/${order.id}?customerId=${net.otherId}`, {
      token: admin.token,
      json: { comment: 'x' },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.key).toBe('licenseOrder.error.notFound');
    expect((await t.request('PUT', `${ORDERS}/999999999`, { token: admin.token, json: { comment: 'x' } })).status).toBe(404);
  });
});

describe('reads', () => {
  it('GET /api/licenseOrder lists the scope’s orders (OWNER), with the full entity', async () => {
    const mine = (await ownerOrder(tenant.owner)).body;
    const theirs = await adminOrder(net.otherId);
    const list = await t.request('GET', `${ORDERS}?size=1000`, { token: tenant.owner });
    expect(list.status).toBe(200);
    const ids = list.body.content.map((o: { id: number }) => o.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.body.content.every((o: { customerId: number }) => o.customerId === tenant.id)).toBe(true);
    expect(list.body.content.find((o: { id: number }) => o.id === mine.id)).toEqual(mine);
    expect((await t.request('GET', ORDERS, { token: tenant.technician })).status).toBe(403);
    const all = await t.request('GET', `${ORDERS}?size=1000&search=${encodeURIComponent('approved=false')}`, { token: admin.token });
    expect(all.body.content.map((o: { id: number }) => o.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
  });

  it('a network owner lists its network’s orders; selecting a member narrows to it', async () => {
    const member = (await ownerOrder(net.token, `?customerId=${net.memberId}`)).body;
    const outside = await adminOrder(net.otherId);
    const list = await t.request('GET', `${ORDERS}?size=1000`, { token: net.token });
    const ids = list.body.content.map((o: { id: number }) => o.id);
    expect(ids).toContain(member.id);
    expect(ids).not.toContain(outside.id);
    const narrowed = await t.request('GET', `${ORDERS}?customerId=${net.memberId}`, { token: net.token });
    expect(narrowed.body.content.every((o: { customerId: number }) => o.customerId === net.memberId)).toBe(true);
  });

  it('GET /api/licenseOrder/{id}: the order, honouring select; another tenant’s is 404', async () => {
    const order = await adminOrder(tenant.id);
    const one = await t.request('GET', `${ORDERS}/${order.id}`, { token: tenant.owner });
    expect(one.body).toEqual(order);
    const some = await t.request('GET', `${ORDERS}/${order.id}?select=deviceLicenseCount,customer`, { token: tenant.owner });
    expect(some.body).toEqual({ id: order.id, deviceLicenseCount: 10, customer: order.customer });
    const foreign = await t.request('GET', `${ORDERS}/${order.id}`, { token: net.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.key).toBe('licenseOrder.error.notFound');
  });

  it('getByCustomer and getAllApprovedForCustomer answer the limited view (TECHNICIAN), 404 outside the scope', async () => {
    const customer = await t.factories.customer();
    const technician = (await t.actor('TECHNICIAN', { customerId: customer.id })).token;
    const open = await adminOrder(customer.id, { comment: 'open', poNumber: 'P' });
    const approved = await adminOrder(customer.id, { approved: true, orderDate: '2026-11-05T00:00:00Z' });
    const all = await t.request('GET', `${ORDERS}/getByCustomer/${customer.id}`, { token: technician });
    expect(all.status).toBe(200);
    expect(all.body.map((o: { id: number }) => o.id)).toEqual([approved.id, open.id]);
    expect(all.body[1]).toEqual({
      id: open.id,
      licenseType: 'PROFESSIONAL',
      licensePayType: 'SUBSCRIPTION',
      recurrence: subscription.recurrence,
      orderDate: '2026-11-01T00:00:00.000Z',
      comment: 'open',
      deviceLicenseCount: 10,
      assignedDeviceCount: 0,
      approved: false,
      poNumber: 'P',
    });
    // Nulls are left out: the approved order has no comment.
    expect(all.body[0]).not.toHaveProperty('comment');
    const approvedOnly = await t.request('GET', `${ORDERS}/getAllApprovedForCustomer/${customer.id}`, { token: technician });
    expect(approvedOnly.body.map((o: { id: number }) => o.id)).toEqual([approved.id]);
    for (const path of ['getByCustomer', 'getAllApprovedForCustomer']) {
      const foreign = await t.request('GET', `${ORDERS}/${path}/${customer.id}`, { token: tenant.technician });
      expect(foreign.status).toBe(404);
      expect(foreign.body.key).toBe('customer.error.notFound');
      expect((await t.request('GET', `${ORDERS}/${path}/${customer.id}`, { token: tenant.viewer })).status).toBe(403);
    }
    expect((await t.request('GET', `${ORDERS}/getByCustomer/${net.memberId}`, { token: net.token })).status).toBe(200);
    expect((await t.request('GET', `${ORDERS}/getByCustomer/${net.otherId}`, { token: net.token })).status).toBe(404);
    expect((await t.request('GET', `${ORDERS}/getByCustomer/${customer.id}`, { token: admin.token })).body).toHaveLength(2);
  });

  it('getUnapprovedLicenseOrderCount counts the caller’s scope', async () => {
    const customer = await t.factories.customer();
    const owner = (await t.actor('OWNER', { customerId: customer.id })).token;
    const viewer = (await t.actor('VIEWER', { customerId: customer.id })).token;
    const count = async (token: string, query = '') =>
      (await t.request('GET', `${ORDERS}/getUnapprovedLicenseOrderCount${query}`, { token })).body as number;
    expect(await count(owner)).toBe(0);
    const before = await count(admin.token);
    await ownerOrder(owner);
    await ownerOrder(owner);
    await adminOrder(customer.id, { approved: true });
    expect(await count(owner)).toBe(2);
    expect(await count(viewer)).toBe(2);
    expect(await count(admin.token, `?customerId=${customer.id}`)).toBe(2);
    expect(await count(admin.token)).toBe(before + 2);
    const netBefore = await count(net.token);
    await ownerOrder(net.token, `?customerId=${net.memberId}`);
    await adminOrder(net.otherId);
    expect(await count(net.token)).toBe(netBefore + 1);
  });
});

describe('assigned devices and customer licences', () => {
  it('assignedDeviceCount, totalLicenses and activeLicenses are computed from orders and devices', async () => {
    const customer = await t.factories.customer();
    const approved = await adminOrder(customer.id, { approved: true, deviceLicenseCount: 10 });
    const second = await adminOrder(customer.id, { approved: true, deviceLicenseCount: 3 });
    await adminOrder(customer.id, { deviceLicenseCount: 100 });
    await licensedDevice(customer.id, approved.id);
    await licensedDevice(customer.id, approved.id);
    await licensedDevice(customer.id, second.id);
    await t.db.insert(devices).values({ id: uuidv7(), customerId: customer.id, name: 'Unlicensed', secretHash: 'x' });
    const one = await t.request('GET', `${ORDERS}/${approved.id}`, { token: admin.token });
    expect(one.body.assignedDeviceCount).toBe(2);
    const sorted = await t.request(
      'GET',
      `${ORDERS}?customerId=${customer.id}&sort=assignedDeviceCount,desc&select=id,assignedDeviceCount`,
      {
        token: admin.token,
      },
    );
    expect(sorted.body.content.map((o: { assignedDeviceCount: number }) => o.assignedDeviceCount)).toEqual([2, 1, 0]);
    const stats = await t.request('GET', `/api/customer/${customer.id}?select=totalLicenses,activeLicenses`, { token: admin.token });
    expect(stats.body).toEqual({ id: customer.id, totalLicenses: 13, activeLicenses: 3 });
    const found = await t.request('GET', `/api/customer?search=${encodeURIComponent(`id=${customer.id},totalLicenses=13`)}&select=id`, {
      token: admin.token,
    });
    expect(found.body.content).toEqual([{ id: customer.id }]);
  });
});

describe('DELETE /api/licenseOrder/{id}', () => {
  it('is refused while a device holds a licence of the order (409), and works once it is freed', async () => {
    const order = await adminOrder(tenant.id, { approved: true });
    const deviceId = await licensedDevice(tenant.id, order.id);
    const refused = await t.request('DELETE', `${ORDERS}/${order.id}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ key: 'licenseOrder.error.inUse', details: { assignedDeviceCount: 1 } });
    await t.db.update(devices).set({ licenseOrderId: null, licenseStatus: 'UN_LICENSED' }).where(eq(devices.id, deviceId));
    expect((await t.request('DELETE', `${ORDERS}/${order.id}`, { token: admin.token })).status).toBe(204);
    expect((await t.request('GET', `${ORDERS}/${order.id}`, { token: admin.token })).status).toBe(404);
    expect((await auditOf('licenseOrder', order.id)).map((e) => e.action)).toContain('delete');
  });

  it('an OWNER deletes its own unapproved order, not an approved one (403) nor another tenant’s (404)', async () => {
    const open = (await ownerOrder(tenant.owner)).body;
    const approved = await adminOrder(tenant.id, { approved: true });
    const foreign = await adminOrder(net.otherId);
    const refused = await t.request('DELETE', `${ORDERS}/${approved.id}`, { token: tenant.owner });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('licenseOrder.error.approvedDeleteForbidden');
    expect((await t.request('DELETE', `${ORDERS}/${foreign.id}`, { token: tenant.owner })).status).toBe(404);
    expect((await t.request('DELETE', `${ORDERS}/${open.id}`, { token: tenant.technician })).status).toBe(403);
    expect((await t.request('DELETE', `${ORDERS}/${open.id}`, { token: tenant.owner })).status).toBe(204);
  });

  it('a network owner deletes its member’s unapproved order', async () => {
    const order = (await ownerOrder(net.token, `?customerId=${net.memberId}`)).body;
    expect((await t.request('DELETE', `${ORDERS}/${order.id}`, { token: net.token })).status).toBe(204);
  });

  it('a network owner neither approves nor deletes its member’s approved order, and cannot reach an order outside its network', async () => {
    const placed = (await ownerOrder(net.token, `?customerId=${net.memberId}`)).body;
    const approve = await t.request('PUT', `${ORDERS}/${placed.id}`, { token: net.token, json: { approved: true } });
    expect(approve.status).toBe(403);
    expect((await t.request('GET', `${ORDERS}/${placed.id}`, { token: admin.token })).body.approved).toBe(false);
    const approved = await adminOrder(net.memberId, { approved: true });
    const refused = await t.request('DELETE', `${ORDERS}/${approved.id}`, { token: net.token });
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('licenseOrder.error.approvedDeleteForbidden');
    const outside = (await ownerOrder(admin.token, `?customerId=${net.otherId}`)).body;
    const foreign = await t.request('DELETE', `${ORDERS}/${outside.id}`, { token: net.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.key).toBe('licenseOrder.error.notFound');
    for (const id of [approved.id, outside.id]) {
      expect((await t.request('GET', `${ORDERS}/${id}`, { token: admin.token })).status, String(id)).toBe(200);
    }
    expect((await t.request('GET', `${ORDERS}/csv`, { token: net.token })).status).toBe(403);
  });

  it('deleting a package keeps its orders’ fields', async () => {
    const pkg = (await t.request('POST', PACKAGES, { token: admin.token, json: { name: unique('Gone'), ...subscription } })).body;
    const order = await adminOrder(tenant.id, { licensePackageId: pkg.id, approved: true });
    await t.request('DELETE', `${PACKAGES}/${pkg.id}`, { token: admin.token });
    const after = (await t.request('GET', `${ORDERS}/${order.id}`, { token: admin.token })).body;
    expect(after).not.toHaveProperty('licensePackageId');
    expect(after).not.toHaveProperty('licensePackage');
    expect(after).toMatchObject({ licenseType: 'PROFESSIONAL', pricePerDevice: 12.5, currency: 'EUR' });
  });
});

describe('GET /api/licenseOrder/csv (ADMIN)', () => {
  it('exports the scope’s orders with exact prices', async () => {
    const customer = await t.factories.customer({ name: unique('CSV, "quoted"') });
    const first = await adminOrder(customer.id, { pricePerDevice: 0.1, comment: '=1+1', approved: true });
    const second = await adminOrder(customer.id, { pricePerDevice: 1234567.8912, currency: 'CHF' });
    await licensedDevice(customer.id, first.id);
    const res = await t.app.request(`${ORDERS}/csv?customerId=${customer.id}`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,customerId,customerName,orderDate,createDate,deviceLicenseCount,assignedDeviceCount,licenseType,licensePayType,recurrenceType,recurrenceFrequency,pricePerDevice,currency,approved,approveDate,approvedBy,soldBy,licensePackage,invoiceStartDate,managedInInvoiceSystem,invoiceSystemId,poNumber,comment',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`${first.id},${customer.id},"${customer.name.replace(/"/g, '""')}",2026-11-01T00:00:00.000Z,`);
    expect(lines[1]).toContain(',10,1,PROFESSIONAL,SUBSCRIPTION,MONTHLY,1,0.10,EUR,true,');
    expect(lines[1]).toContain(`,${admin.email},${admin.email},`);
    expect(lines[1]!.endsWith(",'=1+1")).toBe(true);
    expect(lines[2]).toContain(`${second.id},${customer.id},`);
    expect(lines[2]).toContain(',1234567.8912,CHF,false,');
    expect((await t.request('GET', `${ORDERS}/csv`, { token: tenant.owner })).status).toBe(403);
  });

  it('without customerId exports every tenant’s orders', async () => {
    const first = await adminOrder(tenant.id, { comment: unique('all tenants') });
    const second = await adminOrder(net.otherId);
    const res = await t.app.request(`${ORDERS}/csv`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(res.status).toBe(200);
    const rows = (await res.text()).trimEnd().split('\r\n').slice(1);
    const customerOf = new Map(rows.map((line) => line.split(',')).map(([id, customerId]) => [Number(id), Number(customerId)]));
    expect(customerOf.get(first.id)).toBe(tenant.id);
    expect(customerOf.get(second.id)).toBe(net.otherId);
    expect(new Set(customerOf.values()).size).toBeGreaterThan(2);
  });
});
