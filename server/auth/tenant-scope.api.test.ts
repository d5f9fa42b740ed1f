import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@/server/context/roles';
import { customers } from '@/server/tenant/customers.table';
import { users } from '@/server/modules/users/users.table';
import { createTestContext, type TestContext } from '@/server/test/harness';

/** The `customerId` tenant selector of spec 1, through GET /api/v2/user and GET /api/customer/select. */

let t: TestContext;
type Tenant = { id: number; userIds: string[] };
let root: Tenant;
let a: Tenant;
let b: Tenant;
let network: Tenant;
let member1: Tenant;
let member2: Tenant;
const tokens: Record<string, string> = {};

async function tenant(values: Partial<typeof customers.$inferInsert> = {}): Promise<Tenant> {
  const customer = await t.factories.customer(values);
  const userIds: string[] = [];
  for (let i = 0; i < 2; i++) userIds.push((await t.factories.user({ customerId: customer.id, role: 'EDITOR' })).id);

  return { id: customer.id, userIds };
}

async function signedIn(name: string, owner: Tenant, role: Role) {
  const { user, token } = await t.actor(role, { customerId: owner.id });
  owner.userIds.push(user.id);
  tokens[name] = token;
}

beforeAll(async () => {
  t = await createTestContext();
  root = await tenant();
  a = await tenant();
  b = await tenant();
  network = await tenant({ isSubreseller: true, subresellerSince: new Date() });
  member1 = await tenant({ ownerSubresellerId: network.id });
  member2 = await tenant({ ownerSubresellerId: network.id });
  await signedIn('admin', root, 'ADMIN');
  await signedIn('networkOwner', network, 'OWNER');
  await signedIn('networkTechnician', network, 'TECHNICIAN');
  await signedIn('viewerA', a, 'VIEWER');
  await signedIn('ownerA', a, 'OWNER');
  await signedIn('memberOwner', member1, 'OWNER');
});
afterAll(() => t.close());

async function listUserIds(token: string, customerId?: string | number) {
  const query = customerId === undefined ? '' : `&customerId=${customerId}`;
  const res = await t.request('GET', `/api/v2/user?size=1000&select=id,customerId${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.totalElements).toBe(res.body.content.length);

  return (res.body.content as { id: string }[]).map((u) => u.id).sort();
}

const idsOf = (...tenants: Tenant[]) => tenants.flatMap((x) => x.userIds).sort();

async function expectForbidden(token: string, customerId: number | string) {
  const res = await t.request('GET', `/api/v2/user?customerId=${customerId}`, { token });
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ status: 403, key: 'auth.error.tenantForbidden' });
}

describe('ADMIN', () => {
  it('without customerId sees the users of all tenants', async () => {
    const all = (await t.db.select({ id: users.id }).from(users)).map((u) => u.id).sort();
    expect(all.length).toBeGreaterThanOrEqual(idsOf(root, a, b, network, member1, member2).length);
    expect(await listUserIds(tokens.admin!)).toEqual(all);
  });

  it('with customerId=-1 sees all tenants too', async () => {
    expect(await listUserIds(tokens.admin!, -1)).toEqual(await listUserIds(tokens.admin!));
  });

  it('with a value sees only that tenant', async () => {
    expect(await listUserIds(tokens.admin!, a.id)).toEqual(idsOf(a));
    expect(await listUserIds(tokens.admin!, member2.id)).toEqual(idsOf(member2));
  });

  it('with a customer id that names no customer gets 404 customer.error.notFound (reads and writes alike)', async () => {
    for (const [method, path] of [
      ['GET', '/api/v2/user'],
      ['POST', '/api/messageGroup'],
    ] as const) {
      const res = await t.request(method, `${path}?customerId=9999999`, {
        token: tokens.admin!,
        json: method === 'POST' ? { name: 'Nowhere' } : undefined,
      });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ status: 404, key: 'customer.error.notFound' });
    }
  });
});

describe("a network owner's OWNER", () => {
  it('without customerId sees its own and its members’ users', async () => {
    expect(await listUserIds(tokens.networkOwner!)).toEqual(idsOf(network, member1, member2));
  });

  it('with a member’s id sees only that member', async () => {
    expect(await listUserIds(tokens.networkOwner!, member1.id)).toEqual(idsOf(member1));
  });

  it('with its own id sees only its own customer', async () => {
    expect(await listUserIds(tokens.networkOwner!, network.id)).toEqual(idsOf(network));
  });

  it('gets 403 for a non-member, for -1 and for a non-existent id', async () => {
    await expectForbidden(tokens.networkOwner!, a.id);
    await expectForbidden(tokens.networkOwner!, root.id);
    await expectForbidden(tokens.networkOwner!, -1);
    await expectForbidden(tokens.networkOwner!, 9_999_999);
  });
});

describe('other roles', () => {
  it('a non-OWNER of a network owner sees only its own tenant and cannot select a member', async () => {
    expect(await listUserIds(tokens.networkTechnician!)).toEqual(idsOf(network));
    await expectForbidden(tokens.networkTechnician!, member1.id);
  });

  it('the OWNER of a member sees only the member, not its network siblings or owner', async () => {
    expect(await listUserIds(tokens.memberOwner!)).toEqual(idsOf(member1));
    await expectForbidden(tokens.memberOwner!, member2.id);
    await expectForbidden(tokens.memberOwner!, network.id);
  });

  it.each(['viewerA', 'ownerA'])('%s sees only its own tenant, with or without its own customerId', async (name) => {
    expect(await listUserIds(tokens[name]!)).toEqual(idsOf(a));
    expect(await listUserIds(tokens[name]!, a.id)).toEqual(idsOf(a));
  });

  it.each(['viewerA', 'ownerA'])('%s gets 403 for another customerId and for -1', async (name) => {
    await expectForbidden(tokens[name]!, b.id);
    await expectForbidden(tokens[name]!, member1.id);
    await expectForbidden(tokens[name]!, -1);
  });
});

describe('malformed customerId', () => {
  it.each(['abc', '1.5', '1e3', '0x10'])('customerId=%s → 400 request.error.invalid', async (value) => {
    for (const token of [tokens.admin!, tokens.viewerA!]) {
      const res = await t.request('GET', `/api/v2/user?customerId=${value}`, { token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, key: 'request.error.invalid', details: { parameter: 'customerId' } });
    }
  });
});

describe('GET /api/customer/select', () => {
  async function accessible(token: string) {
    const res = await t.request('GET', '/api/customer/select?size=1000&select=id,name', { token });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(res.body.content.length);

    return (res.body.content as { id: number }[]).map((c) => c.id).sort((x, y) => x - y);
  }
  const sorted = (...ids: number[]) => ids.sort((x, y) => x - y);

  it('ADMIN: every customer', async () => {
    const all = (await t.db.select({ id: customers.id }).from(customers)).map((c) => c.id);
    expect(await accessible(tokens.admin!)).toEqual(sorted(...all));
  });

  it("network owner's OWNER: its own customer and its members", async () => {
    expect(await accessible(tokens.networkOwner!)).toEqual(sorted(network.id, member1.id, member2.id));
  });

  it('everyone else: their own customer only', async () => {
    expect(await accessible(tokens.networkTechnician!)).toEqual([network.id]);
    expect(await accessible(tokens.memberOwner!)).toEqual([member1.id]);
    expect(await accessible(tokens.viewerA!)).toEqual([a.id]);
    expect(await accessible(tokens.ownerA!)).toEqual([a.id]);
  });

  it('a search cannot widen the scope', async () => {
    const res = await t.request('GET', `/api/customer/select?search=${encodeURIComponent(`id=${b.id}`)}`, { token: tokens.viewerA! });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(0);
  });
});
