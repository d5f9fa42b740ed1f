import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '@/server/tenant/customers.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { UserSchema } from './users.schemas';
import { users } from './users.table';

let t: TestContext;
let owner: { token: string; userId: string; customerId: number };
const names = ['Ada Lovelace', 'Bob Builder', 'Cyd Charisse', 'Dee Dee', 'Eve Online'];
const SECRET_TOTP = 'JBSWY3DPEHPK3PXPSECRETTOTP';

beforeAll(async () => {
  t = await createTestContext();
  const customer = await t.factories.customer({ name: `Users Tenant ${Date.now()}`, force2FA: false });
  const roles = ['VIEWER', 'EDITOR', 'APPROVER', 'TECHNICIAN', 'DEVICE_USER'] as const;
  for (const [i, name] of names.entries()) {
    await t.factories.user({
      customerId: customer.id,
      name,
      role: roles[i],
      email: `${name.split(' ')[0]!.toLowerCase()}-${customer.id}@example.com`,
    });
  }
  const signed = await t.actor('OWNER', { customerId: customer.id, name: 'Zed Owner' });
  owner = { token: signed.token, userId: signed.user.id, customerId: customer.id };
  // Secrets stored after signing in (a TOTP secret with use2FA=false does not demand a code).
  await t.db.update(users).set({ totpSecret: SECRET_TOTP }).where(eq(users.customerId, customer.id));
  // Another tenant whose users must never show up.
  await t.factories.user({ name: 'Other Tenant User' });
});
afterAll(() => t.close());

function expectNoSecrets(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/passwordHash|password_hash|totpSecret|totp_secret|\$argon2/);
  expect(text).not.toContain(SECRET_TOTP);
}

function nullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullPaths(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nullPaths(v, path ? `${path}.${k}` : k));

  return [];
}

describe('GET /api/v2/user/me', () => {
  it('answers the caller with its customer object', async () => {
    const res = await t.request('GET', '/api/v2/user/me', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: owner.userId,
      name: 'Zed Owner',
      role: 'OWNER',
      customerId: owner.customerId,
      authProvider: 'LOCAL',
      use2FA: false,
      customer: { id: owner.customerId, name: expect.stringMatching(/^Users Tenant /), force2FA: false },
    });
    expect(res.body.email).toMatch(/@example\.com$/);
    expect(new Date(res.body.createdDate).toISOString()).toBe(res.body.createdDate);
    expect(res.body.lastLogin).toEqual(expect.any(String));
  });

  it('never contains the password hash or the TOTP secret', async () => {
    const res = await t.request('GET', '/api/v2/user/me', { token: owner.token });
    expectNoSecrets(res.body);
    expectNoSecrets(await t.request('GET', '/api/v2/user/me?select=*', { token: owner.token }));
  });

  it('omits null attributes, also inside the customer object (DECISIONS §2: absent means null)', async () => {
    const res = await t.request('GET', '/api/v2/user/me', { token: owner.token });
    expect(nullPaths(res.body)).toEqual([]);
  });

  it('conforms to the documented User schema', async () => {
    const res = await t.request('GET', '/api/v2/user/me', { token: owner.token });
    const parsed = UserSchema.strict().safeParse(res.body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('shows the customer expiration date as ISO-8601 when set', async () => {
    const customer = await t.factories.customer({ expirationDate: new Date('2030-01-02T03:04:05.000Z'), force2FA: true });
    const { token } = await t.actor('VIEWER', { customerId: customer.id });
    const res = await t.request('GET', '/api/v2/user/me', { token });
    expect(res.body.customer).toEqual({ id: customer.id, name: customer.name, expirationDate: '2030-01-02T03:04:05.000Z', force2FA: true });
  });

  it('honours select', async () => {
    const res = await t.request('GET', '/api/v2/user/me?select=name,role', { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: owner.userId, name: 'Zed Owner', role: 'OWNER' });
  });

  it('refuses selecting secret columns (400)', async () => {
    for (const select of ['passwordHash', 'totpSecret', 'customer(resourceLimits)']) {
      const res = await t.request('GET', `/api/v2/user/me?select=${select}`, { token: owner.token });
      expect(res.status, select).toBe(400);
    }
  });
});

describe('GET /api/v2/user', () => {
  const list = (query: string) => t.request('GET', `/api/v2/user?${query}`, { token: owner.token });

  it('answers the page envelope of the own tenant, without secrets', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first: true, last: true, number: 0, size: 20, totalElements: 6, totalPages: 1, numberOfElements: 6 });
    expect(res.body.content).toHaveLength(6);
    for (const user of res.body.content) expect(user.customerId).toBe(owner.customerId);
    expectNoSecrets(res.body);
    expect(nullPaths(res.body.content)).toEqual([]);
  });

  it('pages with page and size', async () => {
    const res = await list('size=2&page=1&sort=name,asc');
    expect(res.body).toMatchObject({ first: false, last: false, number: 1, size: 2, numberOfElements: 2, totalElements: 6, totalPages: 3 });
    expect(res.body.content.map((u: { name: string }) => u.name)).toEqual(['Cyd Charisse', 'Dee Dee']);
    const lastPage = await list('size=2&page=2&sort=name,asc');
    expect(lastPage.body).toMatchObject({ last: true, numberOfElements: 2 });
    const beyond = await list('size=2&page=5');
    expect(beyond.body).toMatchObject({ content: [], numberOfElements: 0, totalElements: 6, last: true });
  });

  it('sorts ascending and descending, and pages are stable', async () => {
    const asc = (await list('sort=name,asc&select=name')).body.content.map((u: { name: string }) => u.name);
    expect(asc).toEqual([...names, 'Zed Owner']);
    const desc = (await list('sort=name,desc&select=name')).body.content.map((u: { name: string }) => u.name);
    expect(desc).toEqual([...asc].reverse());
    const byRole = (await list('sort=role,asc&sort=name,desc&select=name,role')).body.content;
    expect(byRole.length).toBe(6);
  });

  it('searches with the query language', async () => {
    const contains = await list(`search=${encodeURIComponent('name:Dee')}`);
    expect(contains.body.content.map((u: { name: string }) => u.name)).toEqual(['Dee Dee']);
    const or = await list(`search=${encodeURIComponent('role=VIEWER|role=EDITOR')}&sort=name,asc`);
    expect(or.body.content.map((u: { name: string }) => u.name)).toEqual(['Ada Lovelace', 'Bob Builder']);
    const prefix = await list(`search=${encodeURIComponent('name^Ev')}`);
    expect(prefix.body.totalElements).toBe(1);
    const relation = await list(`search=${encodeURIComponent(`customer.id=${owner.customerId}`)}`);
    expect(relation.body.totalElements).toBe(6);
    const none = await list(`search=${encodeURIComponent('name:Other Tenant')}`);
    expect(none.body.totalElements).toBe(0);
  });

  it('cannot search on secret columns (no oracle for hashes)', async () => {
    for (const search of ['passwordHash^$argon2', 'totpSecret:JBSW', `customer.resourceLimits=NULL`]) {
      const res = await list(`search=${encodeURIComponent(search)}`);
      expect(res.status, search).toBe(400);
      expect(res.body.key).toMatch(/^search\.error\./);
    }
  });

  it('projects with select, always including id', async () => {
    const res = await list('select=email&sort=name,asc&size=1');
    expect(Object.keys(res.body.content[0]).sort()).toEqual(['email', 'id']);
    const rel = await list('select=name,customer(name)&sort=name,asc&size=1');
    expect(rel.body.content[0]).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      customer: { id: owner.customerId, name: expect.stringMatching(/^Users Tenant /) },
    });
  });

  it('counts cheaply with size=1&select=id', async () => {
    const res = await list('size=1&select=id');
    expect(res.body.totalElements).toBe(6);
    expect(res.body.content).toEqual([{ id: expect.any(String) }]);
  });

  it('sorts by a related field', async () => {
    const admin = await t.actor('ADMIN', { customerId: (await t.factories.customer({ name: 'AAA First Tenant' })).id });
    const res = await t.request('GET', '/api/v2/user?sort=customer.name,asc&select=customer(name)&size=1', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.content[0].customer.name).toBe('AAA First Tenant');
  });

  it('reflects a restricted customer immediately (no listing after restriction)', async () => {
    const customer = await t.factories.customer();
    const { token } = await t.actor('VIEWER', { customerId: customer.id });
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customer.id));
    expect((await t.request('GET', '/api/v2/user', { token })).status).toBe(403);
  });
});
