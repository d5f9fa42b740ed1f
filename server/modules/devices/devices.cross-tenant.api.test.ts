import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@/server/context/roles';
import { customers } from '@/server/tenant/customers.table';
import { deviceGroups } from '@/server/modules/folders/folders.table';
import { devicesTestKit, type DevicesTestKit } from './devices.test-kit';

/**
 * The screens of several tenants in one list (issue 28 item 10): ADMIN under "All tenants" and a network owner's
 * OWNER under its whole network read GET /api/v2/device without `customerId`; the tenant scope (one mechanism, the
 * network as a subquery on its membership) decides whose screens they are. Search, sort and paging run in SQL.
 */

let k: DevicesTestKit;
let t: DevicesTestKit['t'];
type Tenant = { id: number; name: string };
let network: Tenant;
let memberA: Tenant;
let memberB: Tenant;
let otherNetwork: Tenant;
let otherMember: Tenant;
let plain: Tenant;
const tokens: Partial<Record<'admin' | 'networkOwner' | 'networkTechnician' | 'memberOwner' | 'plainOwner' | 'otherNetworkOwner', string>> =
  {};

async function tenant(name: string, values: Partial<typeof customers.$inferInsert> = {}): Promise<Tenant> {
  const row = await t.factories.customer({ name: `${name} ${Math.random().toString(36).slice(2, 8)}`, ...values });

  return { id: row.id, name: row.name };
}

async function screen(owner: Tenant, name: string, status: 'ONLINE' | 'OFFLINE') {
  const [root] = await t.db
    .select()
    .from(deviceGroups)
    .where(and(eq(deviceGroups.customerId, owner.id), isNull(deviceGroups.parentId)))
    .limit(1);

  return k.device({ name, deviceStatus: status }, root!);
}

async function signIn(role: Role, owner: Tenant) {
  return (await t.actor(role, { customerId: owner.id })).token;
}

beforeAll(async () => {
  k = await devicesTestKit();
  t = k.t;
  network = await tenant('Network', { isSubreseller: true, subresellerSince: new Date() });
  memberA = await tenant('Member A', { ownerSubresellerId: network.id });
  memberB = await tenant('Member B', { ownerSubresellerId: network.id });
  otherNetwork = await tenant('Other network', { isSubreseller: true, subresellerSince: new Date() });
  otherMember = await tenant('Other member', { ownerSubresellerId: otherNetwork.id });
  plain = await tenant('Plain');
  await screen(network, 'Net HQ', 'ONLINE');
  await screen(memberA, 'A lobby', 'OFFLINE');
  await screen(memberA, 'A menu', 'ONLINE');
  await screen(memberB, 'B door', 'OFFLINE');
  await screen(memberB, 'B till', 'OFFLINE');
  await screen(otherMember, 'Other lobby', 'OFFLINE');
  await screen(plain, 'Plain lobby', 'OFFLINE');
  await k.device({ name: 'Unclaimed', activationCode: '5512', deviceStatus: 'OFFLINE' }, null);
  tokens.admin = k.admin;
  tokens.networkOwner = await signIn('OWNER', network);
  tokens.networkTechnician = await signIn('TECHNICIAN', network);
  tokens.memberOwner = await signIn('OWNER', memberA);
  tokens.plainOwner = await signIn('OWNER', plain);
  tokens.otherNetworkOwner = await signIn('OWNER', otherNetwork);
});
afterAll(() => t.close());

type Row = { name: string; deviceStatus: string; customer?: { id: number; name: string } };
type ListQuery = { search?: string; sort?: string; page?: number; size?: number; customerId?: number | string };

async function list(token: string, query: ListQuery = {}) {
  const params = new URLSearchParams({
    select: 'name,deviceStatus,customer',
    size: String(query.size ?? 100),
    page: String(query.page ?? 0),
  });
  if (query.search) params.set('search', query.search);
  if (query.sort) params.set('sort', query.sort);
  if (query.customerId !== undefined) params.set('customerId', String(query.customerId));

  return t.request('GET', `/api/v2/device?${params}`, { token });
}

async function namesOf(token: string, query: ListQuery = {}): Promise<string[]> {
  const res = await list(token, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return (res.body.content as Row[]).map((d) => d.name);
}

/** The offline screens of tenants, as the console asks for them ("offline screens across my customers"). */
const OFFLINE_CLAIMED = 'customerId=!NULL,deviceStatus=OFFLINE';

describe("a network owner's OWNER without customerId", () => {
  it("lists its own and its members' screens, each with its tenant, never another network's or a plain tenant's", async () => {
    const res = await list(tokens.networkOwner!, { sort: 'name,asc' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.content as Row[];
    expect(rows.map((d) => d.name)).toEqual(['A lobby', 'A menu', 'B door', 'B till', 'Net HQ']);
    expect(rows.find((d) => d.name === 'B door')!.customer).toEqual({ id: memberB.id, name: memberB.name });
    expect(rows.find((d) => d.name === 'Net HQ')!.customer).toEqual({ id: network.id, name: network.name });
  });

  it('filters offline screens across its customers and sorts by tenant', async () => {
    expect(await namesOf(tokens.networkOwner!, { search: OFFLINE_CLAIMED, sort: 'customer.name,desc' })).toEqual([
      'B door',
      'B till',
      'A lobby',
    ]);
    expect(await namesOf(tokens.networkOwner!, { search: 'name~lobby' })).toEqual(['A lobby']);
  });

  it("with a member's customerId lists that member only; another network's member or everything (-1) is refused", async () => {
    expect(await namesOf(tokens.networkOwner!, { customerId: memberB.id, sort: 'name,asc' })).toEqual(['B door', 'B till']);
    for (const customerId of [otherMember.id, otherNetwork.id, plain.id, -1]) {
      const res = await list(tokens.networkOwner!, { customerId });
      expect(res.status, `customerId=${customerId}`).toBe(403);
      expect(res.body).toMatchObject({ status: 403, key: 'auth.error.tenantForbidden' });
    }
  });

  it("the other network's owner sees its own network only", async () => {
    expect(await namesOf(tokens.otherNetworkOwner!)).toEqual(['Other lobby']);
  });
});

describe('users who manage one tenant', () => {
  it.each([
    ["a network owner's technician (network scope is the OWNER's)", 'networkTechnician', ['Net HQ']],
    ["a member's OWNER", 'memberOwner', ['A lobby', 'A menu']],
    ["a plain tenant's OWNER", 'plainOwner', ['Plain lobby']],
  ] as const)("%s lists its own tenant's screens only", async (_name, who, expected) => {
    expect(await namesOf(tokens[who]!, { sort: 'name,asc' })).toEqual(expected);
  });

  it.each([
    ["a member's OWNER naming its network owner", 'memberOwner', (): number => network.id],
    ["a member's OWNER naming a sibling member", 'memberOwner', (): number => memberB.id],
    ["a plain tenant's OWNER naming another tenant", 'plainOwner', (): number => memberA.id],
    ["a network owner's technician naming a member", 'networkTechnician', (): number => memberA.id],
    ["a plain tenant's OWNER asking for every tenant", 'plainOwner', (): number => -1],
  ] as const)('%s is refused (403)', async (_name, who, customerId) => {
    const res = await list(tokens[who]!, { customerId: customerId() });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, key: 'auth.error.tenantForbidden' });
  });
});

describe('ADMIN under "All tenants" (no customerId)', () => {
  it('filters the offline screens of every tenant (the unclaimed left out by customerId=!NULL), sorted and paged in SQL', async () => {
    const expected = ['A lobby', 'B door', 'B till', 'Other lobby', 'Plain lobby'];
    const all = await namesOf(tokens.admin!, { search: OFFLINE_CLAIMED, sort: 'name,asc' });
    expect(all).toEqual(expected);
    const pages = [];
    for (let page = 0; page < 3; page++) {
      const res = await list(tokens.admin!, { search: OFFLINE_CLAIMED, sort: 'name,asc', size: 2, page });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ totalElements: 5, totalPages: 3, number: page, size: 2, first: page === 0, last: page === 2 });
      pages.push(...(res.body.content as Row[]).map((d) => d.name));
    }
    expect(pages).toEqual(expected);
    const byTenant = (await list(tokens.admin!, { search: `${OFFLINE_CLAIMED},name~lobby`, sort: 'customer.name,asc' })).body
      .content as Row[];
    expect(byTenant.map((d) => d.customer?.name)).toEqual([memberA.name, otherMember.name, plain.name].sort());
    expect(await namesOf(tokens.admin!, { search: 'name=Unclaimed' })).toEqual(['Unclaimed']);
    expect(await namesOf(tokens.admin!, { search: 'customerId=!NULL,name=Unclaimed' })).toEqual([]);
  });

  it('refuses a sort or search on a field the tenant has not (400)', async () => {
    expect((await list(tokens.admin!, { sort: 'customer.secret,asc' })).status).toBe(400);
    expect((await list(tokens.admin!, { search: 'customer.restricted=true' })).status).toBe(400);
  });
});
