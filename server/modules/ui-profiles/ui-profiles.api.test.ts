import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { users } from '@/server/modules/users/users.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { UiProfileSchema } from './ui-profiles.schemas';

const BASE = '/api/v2/userInterfaceProfile';
const rules = { version: 2, dashboard: { devices: false }, newUi: { campaigns: true, reports: null } };

let t: TestContext;
type Signed = Awaited<ReturnType<TestContext['actor']>>;
let customerA: number;
let customerB: number;
let ownerA: Signed;
let techA: Signed;
let ownerB: Signed;
let admin: Signed;

beforeAll(async () => {
  t = await createTestContext();
  customerA = (await t.factories.customer()).id;
  customerB = (await t.factories.customer()).id;
  ownerA = await t.actor('OWNER', { customerId: customerA });
  techA = await t.actor('TECHNICIAN', { customerId: customerA });
  ownerB = await t.actor('OWNER', { customerId: customerB });
  admin = await t.actor('ADMIN');
});
afterAll(() => t.close());

const as = (who: Signed, method: string, path: string, json?: unknown) => t.request(method, path, { token: who.token, json });
let seq = 0;
async function createProfile(who: Signed = ownerA, body: Record<string, unknown> = {}) {
  const res = await as(who, 'POST', BASE, { name: `Profile ${++seq}`, hiddenUIElementRules: rules, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; customerId: number };
}

describe('POST /api/v2/userInterfaceProfile', () => {
  it('creates a profile in the own customer and audits it', async () => {
    const res = await as(ownerA, 'POST', BASE, { name: 'Kiosk staff', comment: 'reduced', hiddenUIElementRules: rules });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Kiosk staff',
      comment: 'reduced',
      hiddenUIElementRules: rules,
      customerId: customerA,
    });
    expect(UiProfileSchema.strict().safeParse(res.body).success).toBe(true);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(res.body.id)));
    expect(entry).toMatchObject({
      action: 'create',
      entityType: 'userInterfaceProfile',
      entityName: 'Kiosk staff',
      userId: ownerA.user.id,
      customerId: customerA,
    });
  });

  it('answers 400 without name or hiddenUIElementRules, or with rules that are not an object', async () => {
    for (const [body, field] of [
      [{ hiddenUIElementRules: rules }, 'name'],
      [{ name: 'x' }, 'hiddenUIElementRules'],
      [{ name: 'x', hiddenUIElementRules: [1, 2] }, 'hiddenUIElementRules'],
    ] as const) {
      const res = await as(ownerA, 'POST', BASE, body);
      expect(res.status).toBe(400);
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
  });

  it('answers 409 for a name used in the customer; another customer may use it', async () => {
    await createProfile(ownerA, { name: 'Shared name' });
    const dup = await as(ownerA, 'POST', BASE, { name: 'Shared name', hiddenUIElementRules: {} });
    expect(dup.status).toBe(409);
    expect(dup.body.key).toBe('userInterfaceProfile.error.nameExists');
    await createProfile(ownerB, { name: 'Shared name' });
  });

  it("refuses a TECHNICIAN and another tenant's customerId; an ADMIN creates in the selected customer", async () => {
    expect((await as(techA, 'POST', BASE, { name: 'x', hiddenUIElementRules: {} })).body.key).toBe('auth.error.roleRequired');
    expect((await as(ownerA, 'POST', `${BASE}?customerId=${customerB}`, { name: 'x', hiddenUIElementRules: {} })).body.key).toBe(
      'auth.error.tenantForbidden',
    );
    const res = await as(admin, 'POST', `${BASE}?customerId=${customerB}`, { name: 'By admin', hiddenUIElementRules: {} });
    expect(res.status).toBe(201);
    expect(res.body.customerId).toBe(customerB);
  });

  it('stops at the resource limit (STARTER: 0 UI profiles)', async () => {
    const starter = (await t.factories.customer({ licenseTier: 'STARTER' })).id;
    const owner = await t.actor('OWNER', { customerId: starter });
    const res = await as(owner, 'POST', BASE, { name: 'x', hiddenUIElementRules: {} });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'UI_PROFILE', limit: 0 } });
  });
});

describe('GET /api/v2/userInterfaceProfile and /{id}', () => {
  it('lists the own tenant paged, with search and select', async () => {
    const a = await createProfile(ownerA, { name: 'Searchable one' });
    const foreign = await createProfile(ownerB);
    const res = await as(ownerA, 'GET', `${BASE}?size=100`);
    expect(res.status).toBe(200);
    expect(res.body.content.every((p: { customerId: number }) => p.customerId === customerA)).toBe(true);
    expect(res.body.content.map((p: { id: number }) => p.id)).not.toContain(foreign.id);
    const found = await as(ownerA, 'GET', `${BASE}?search=${encodeURIComponent('name:Searchable')}&select=name`);
    expect(found.body.content).toEqual([{ id: a.id, name: 'Searchable one' }]);
    expect((await as(ownerA, 'GET', `${BASE}?select=nope`)).status).toBe(400);
  });

  it("answers one profile; another tenant's id is 404; TECHNICIAN is 403", async () => {
    const a = await createProfile();
    const res = await as(ownerA, 'GET', `${BASE}/${a.id}`);
    expect(res.body).toMatchObject({ id: a.id, hiddenUIElementRules: rules });
    expect((await as(ownerA, 'GET', `${BASE}/${a.id}?select=name`)).body).toEqual({ id: a.id, name: a.name });
    expect((await as(ownerB, 'GET', `${BASE}/${a.id}`)).status).toBe(404);
    expect((await as(techA, 'GET', `${BASE}/${a.id}`)).status).toBe(403);
    expect((await as(ownerA, 'GET', `${BASE}/abc`)).status).toBe(400);
  });
});

describe('PUT /api/v2/userInterfaceProfile/{id}', () => {
  it('keeps the rules when omitted and replaces the whole document when sent', async () => {
    const a = await createProfile();
    const renamed = await as(ownerA, 'PUT', `${BASE}/${a.id}`, { name: `${a.name} renamed`, comment: 'c' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: `${a.name} renamed`, comment: 'c', hiddenUIElementRules: rules });
    const replaced = await as(ownerA, 'PUT', `${BASE}/${a.id}`, { hiddenUIElementRules: { version: 3 } });
    expect(replaced.body.hiddenUIElementRules).toEqual({ version: 3 });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(a.id)));
    expect(entries.filter((e) => e.action === 'update')).toHaveLength(2);
  });

  it('answers 409 for a duplicate name, 404 for another tenant, 400 for bad input, 403 below OWNER', async () => {
    const a = await createProfile();
    const b = await createProfile();
    expect((await as(ownerA, 'PUT', `${BASE}/${b.id}`, { name: a.name })).status).toBe(409);
    expect((await as(ownerB, 'PUT', `${BASE}/${a.id}`, { name: 'x' })).status).toBe(404);
    expect((await as(ownerA, 'PUT', `${BASE}/${a.id}`, { hiddenUIElementRules: 'x' })).status).toBe(400);
    expect((await as(techA, 'PUT', `${BASE}/${a.id}`, { name: 'x' })).status).toBe(403);
  });
});

describe('POST /api/v2/userInterfaceProfile/{id}/assign', () => {
  it('assigns and removes users of the tenant; users read their rules through /me', async () => {
    const profile = await createProfile();
    const viewer = await t.actor('VIEWER', { customerId: customerA });
    const other = await t.factories.user({ customerId: customerA });
    const res = await as(ownerA, 'POST', `${BASE}/${profile.id}/assign`, { assignUserIds: [viewer.user.id, other.id] });
    expect(res.status).toBe(200);
    const me = await t.request('GET', '/api/v2/user/me', { token: viewer.token });
    expect(me.body.userInterfaceProfile).toEqual({ id: profile.id, name: profile.name });
    const withRules = await t.request('GET', '/api/v2/user/me?select=userInterfaceProfile(*)', { token: viewer.token });
    expect(withRules.body.userInterfaceProfile.hiddenUIElementRules).toEqual(rules);

    await as(ownerA, 'POST', `${BASE}/${profile.id}/assign`, { removeUserIds: [other.id] });
    const [row] = await t.db.select({ uiProfileId: users.uiProfileId }).from(users).where(eq(users.id, other.id));
    expect(row!.uiProfileId).toBeNull();
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(profile.id)));
    expect(entries.filter((e) => e.action === 'assign')).toHaveLength(2);
  });

  it("answers 400 for another tenant's users (naming them), 404 for another tenant's profile", async () => {
    const profile = await createProfile();
    const res = await as(ownerA, 'POST', `${BASE}/${profile.id}/assign`, { assignUserIds: [ownerB.user.id] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'userInterfaceProfile.error.userNotInTenant', details: { userIds: [ownerB.user.id] } });
    expect((await as(ownerB, 'POST', `${BASE}/${profile.id}/assign`, { assignUserIds: [] })).status).toBe(404);
    expect((await as(ownerA, 'POST', `${BASE}/${profile.id}/assign`, { assignUserIds: ['nope'] })).status).toBe(400);
    expect((await as(techA, 'POST', `${BASE}/${profile.id}/assign`, {})).status).toBe(403);
  });
});

describe('DELETE /api/v2/userInterfaceProfile/{id}', () => {
  it('deletes the profile; its users lose it', async () => {
    const profile = await createProfile();
    const viewer = await t.actor('VIEWER', { customerId: customerA });
    await as(ownerA, 'POST', `${BASE}/${profile.id}/assign`, { assignUserIds: [viewer.user.id] });
    expect((await as(ownerB, 'DELETE', `${BASE}/${profile.id}`)).status).toBe(404);
    expect((await as(techA, 'DELETE', `${BASE}/${profile.id}`)).status).toBe(403);
    expect((await as(ownerA, 'DELETE', `${BASE}/${profile.id}`)).status).toBe(204);
    expect((await as(ownerA, 'GET', `${BASE}/${profile.id}`)).status).toBe(404);
    expect((await t.request('GET', '/api/v2/user/me', { token: viewer.token })).body.userInterfaceProfile).toBeUndefined();
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(profile.id)));
    expect(entries.find((e) => e.action === 'delete')?.message).toContain('1 user(s)');
  });
});
