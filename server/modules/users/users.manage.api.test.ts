import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { createTestContext, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { UserSchema } from './users.schemas';
import { users } from './users.table';

let t: TestContext;
type Signed = Awaited<ReturnType<TestContext['actor']>>;
let customerA: number;
let customerB: number;
let ownerA: Signed;
let viewerA: Signed;
let techA: Signed;
let ownerB: Signed;
let admin: Signed;

const NEW_PASSWORD = 'a-brand-new-secret-42';

beforeAll(async () => {
  t = await createTestContext();
  customerA = (await t.factories.customer({ name: 'Tenant A' })).id;
  customerB = (await t.factories.customer({ name: 'Tenant B' })).id;
  ownerA = await t.actor('OWNER', { customerId: customerA, name: 'Owner A' });
  viewerA = await t.actor('VIEWER', { customerId: customerA, name: 'Viewer A' });
  techA = await t.actor('TECHNICIAN', { customerId: customerA, name: 'Tech A' });
  ownerB = await t.actor('OWNER', { customerId: customerB, name: 'Owner B' });
  admin = await t.actor('ADMIN');
});
afterAll(() => t.close());

const asOwner = (method: string, path: string, json?: unknown, headers?: Record<string, string>) =>
  t.request(method, path, { token: ownerA.token, json, headers });

async function auditRows(entityId: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.entityId, entityId));
}

async function allAuditText() {
  return JSON.stringify(await t.db.select().from(auditLog));
}

function newUser(overrides: Record<string, unknown> = {}) {
  return {
    email: `New-${uuidv7().slice(-8)}@Example.COM`,
    name: 'New User',
    role: 'EDITOR',
    password: NEW_PASSWORD,
    language: 'de',
    ...overrides,
  };
}

describe('POST /api/user', () => {
  it('creates a user in the own tenant, e-mail lower-cased, without secrets, audited', async () => {
    const body = newUser();
    const res = await asOwner('POST', `/api/user?customerId=${customerA}`, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email: body.email.toLowerCase(),
      name: 'New User',
      role: 'EDITOR',
      language: 'de',
      authProvider: 'LOCAL',
      customerId: customerA,
      hasProfilePicture: false,
      active: true,
      use2FA: false,
      customer: { id: customerA, name: 'Tenant A' },
    });
    expect(UserSchema.strict().safeParse(res.body).success).toBe(true);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|"password"|totpSecret|totpPendingSecret|argon2/i);
    // The new user can sign in with the password given.
    expect(await t.signIn(body.email.toLowerCase(), NEW_PASSWORD)).toEqual(expect.any(String));
    const [entry] = await auditRows(res.body.id);
    expect(entry).toMatchObject({
      action: 'create',
      entityType: 'user',
      entityName: body.email.toLowerCase(),
      userId: ownerA.user.id,
      customerId: customerA,
    });
    expect(entry!.changes).toMatchObject({ name: 'New User', role: 'EDITOR' });
    expect(await allAuditText()).not.toContain(NEW_PASSWORD);
  });

  it('answers 400 with the offending keys', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [newUser({ email: 'not-an-email' }), 'email'],
      [newUser({ name: undefined }), 'name'],
      [newUser({ role: 'KING' }), 'role'],
      [newUser({ password: 'short' }), 'password'],
    ];
    for (const [body, field] of cases) {
      const res = await asOwner('POST', `/api/user?customerId=${customerA}`, body);
      expect(res.status, field).toBe(400);
      expect(res.body.key).toBe('request.error.invalid');
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
  });

  it('requires a password unless the user is SSO-only', async () => {
    const missing = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ password: undefined }));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ key: 'user.error.passwordRequired', details: { field: 'password' } });
    const saml = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ password: undefined, authProvider: 'SAML' }));
    expect(saml.status).toBe(201);
    expect(saml.body.authProvider).toBe('SAML');
    const samlWithPassword = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ authProvider: 'SAML' }));
    expect(samlWithPassword.body.key).toBe('user.error.passwordNotLocal');
  });

  it('requires customerId from everyone but an ADMIN (spec 3): 400 user.error.customerIdRequired', async () => {
    const res = await asOwner('POST', '/api/user', newUser());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'user.error.customerIdRequired', details: { parameter: 'customerId' } });
    const byAdmin = await t.request('POST', '/api/user', { token: admin.token, json: newUser() });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.customerId).toBe(admin.user.customerId);
  });

  it('audits the creation with the role as the console names it ("Administrator", not OWNER)', async () => {
    const res = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ role: 'OWNER' }));
    expect(res.status).toBe(201);
    expect((await auditRows(res.body.id)).map((row) => row.message)).toContain(`User '${res.body.email}' created (Administrator)`);
  });

  it('refuses a TECHNICIAN (one role below OWNER)', async () => {
    const res = await t.request('POST', '/api/user', { token: techA.token, json: newUser() });
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('auth.error.roleRequired');
  });

  it('refuses roles above the caller: an OWNER cannot create an ADMIN or set trustedAdmin', async () => {
    const res = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ role: 'ADMIN' }));
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('user.error.roleAboveOwn');
    const trusted = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ role: 'OWNER', trustedAdmin: true }));
    expect(trusted.status).toBe(403);
    const owner = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ role: 'OWNER' }));
    expect(owner.status).toBe(201);
  });

  it("refuses another tenant's customerId for an OWNER; an ADMIN creates there (trustedAdmin only for ADMIN users)", async () => {
    const res = await asOwner('POST', `/api/user?customerId=${customerB}`, newUser());
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('auth.error.tenantForbidden');
    const byAdmin = await t.request('POST', `/api/user?customerId=${customerB}`, { token: admin.token, json: newUser() });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.customerId).toBe(customerB);
    const trusted = await t.request('POST', '/api/user', { token: admin.token, json: newUser({ role: 'ADMIN', trustedAdmin: true }) });
    expect(trusted.status).toBe(201);
    expect(trusted.body).toMatchObject({ role: 'ADMIN', trustedAdmin: true });
    const notAdmin = await t.request('POST', '/api/user', { token: admin.token, json: newUser({ trustedAdmin: true }) });
    expect(notAdmin.body.key).toBe('user.error.trustedAdminNotAdmin');
  });

  it('answers 409 user.error.emailExists for an e-mail in use, whatever its case', async () => {
    const res = await asOwner('POST', `/api/user?customerId=${customerA}`, newUser({ email: viewerA.user.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('user.error.emailExists');
    // Also across tenants: the e-mail is the service-wide key.
    const other = await t.request('POST', `/api/user?customerId=${customerB}`, {
      token: ownerB.token,
      json: newUser({ email: viewerA.user.email }),
    });
    expect(other.status).toBe(409);
  });

  it('joins the teams of teamIds; an OWNER cannot join a team', async () => {
    const teamId = uuidv7();
    await t.db.insert(teams).values({ id: teamId, customerId: customerA, name: 'Night shift' });
    const res = await asOwner('POST', `/api/user?customerId=${customerA}&teamIds=${teamId}`, newUser());
    expect(res.status).toBe(201);
    const rows = await t.db
      .select()
      .from(teamAssignments)
      .where(and(eq(teamAssignments.resourceType, 'user'), eq(teamAssignments.resourceId, res.body.id)));
    expect(rows).toMatchObject([{ teamId, customerId: customerA, readOnly: false }]);
    const owner = await asOwner('POST', `/api/user?customerId=${customerA}&teamIds=${teamId}`, newUser({ role: 'OWNER' }));
    expect(owner.status).toBe(400);
    expect(owner.body.key).toBe('user.error.ownerInTeam');
    const foreignTeam = uuidv7();
    await t.db.insert(teams).values({ id: foreignTeam, customerId: customerB, name: 'Foreign' });
    const foreign = await asOwner('POST', `/api/user?customerId=${customerA}&teamIds=${foreignTeam}`, newUser());
    expect(foreign.status).toBe(404);
  });

  it('stops at the resource limit (STARTER: 5 users)', async () => {
    const starter = (await t.factories.customer({ licenseTier: 'STARTER' })).id;
    const owner = await t.actor('OWNER', { customerId: starter });
    for (let i = 0; i < 4; i++)
      expect((await t.request('POST', `/api/user?customerId=${starter}`, { token: owner.token, json: newUser() })).status).toBe(201);
    const res = await t.request('POST', `/api/user?customerId=${starter}`, { token: owner.token, json: newUser() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'USER', used: 5, limit: 5 } });
  });
});

describe('GET /api/v2/user/{id}', () => {
  it('answers the user with computed fields and honours select', async () => {
    const res = await asOwner('GET', `/api/v2/user/${viewerA.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: viewerA.user.id,
      name: 'Viewer A',
      role: 'VIEWER',
      active: true,
      hasProfilePicture: false,
      forceToSet2FA: false,
    });
    expect(res.body.profilePictureApiPath).toBeUndefined();
    expect(UserSchema.strict().safeParse(res.body).success).toBe(true);
    const selected = await asOwner('GET', `/api/v2/user/${viewerA.user.id}?select=name,customer(name)`);
    expect(selected.body).toEqual({ id: viewerA.user.id, name: 'Viewer A', customer: { id: customerA, name: 'Tenant A' } });
  });

  it("answers 404 for another tenant's user and 400 for a malformed id", async () => {
    expect((await asOwner('GET', `/api/v2/user/${ownerB.user.id}`)).status).toBe(404);
    expect((await asOwner('GET', `/api/v2/user/${uuidv7()}`)).status).toBe(404);
    expect((await asOwner('GET', '/api/v2/user/not-a-uuid')).status).toBe(400);
  });

  it('refuses a DEVICE_USER (one role below VIEWER)', async () => {
    const device = await t.actor('DEVICE_USER', { customerId: customerA });
    expect((await t.request('GET', `/api/v2/user/${viewerA.user.id}`, { token: device.token })).status).toBe(403);
  });

  it('is not active when the customer has expired', async () => {
    const expired = await t.factories.customer({ expirationDate: new Date(Date.now() - 86_400_000) });
    const user = await t.factories.user({ customerId: expired.id });
    const res = await t.request('GET', `/api/v2/user/${user.id}`, { token: admin.token });
    expect(res.body.active).toBe(false);
  });
});

describe('GET /api/user/simple', () => {
  it("answers e-mail and name of the own tenant's users only", async () => {
    const res = await t.request('GET', '/api/user/simple', { token: viewerA.token });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(3);
    for (const user of res.body) expect(Object.keys(user).sort()).toEqual(['email', 'name']);
    expect(res.body.map((u: { email: string }) => u.email)).toContain(viewerA.user.email);
    expect(res.body.map((u: { email: string }) => u.email)).not.toContain(ownerB.user.email);
  });

  it("refuses a DEVICE_USER and another tenant's customerId", async () => {
    const device = await t.actor('DEVICE_USER', { customerId: customerA });
    expect((await t.request('GET', '/api/user/simple', { token: device.token })).status).toBe(403);
    expect((await t.request('GET', `/api/user/simple?customerId=${customerB}`, { token: viewerA.token })).status).toBe(403);
  });
});

describe('PUT /api/user?email=', () => {
  const put = (token: string, email: string, json: unknown) =>
    t.request('PUT', `/api/user?email=${encodeURIComponent(email)}`, { token, json });

  it('lets an OWNER change a user of its tenant; audits the changed fields', async () => {
    const target = await t.factories.user({ customerId: customerA, role: 'VIEWER', name: 'Before' });
    const res = await put(ownerA.token, target.email.toUpperCase(), {
      name: 'After',
      role: 'EDITOR',
      comment: 'moved',
      editorLevel: 'ADVANCED',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: target.id, name: 'After', role: 'EDITOR', comment: 'moved', editorLevel: 'ADVANCED' });
    const [entry] = await auditRows(target.id);
    expect(entry).toMatchObject({ action: 'update', entityName: target.email, userId: ownerA.user.id });
    expect(entry!.changes).toEqual({
      name: { from: 'Before', to: 'After' },
      role: { from: 'VIEWER', to: 'EDITOR' },
      comment: { from: null, to: 'moved' },
      editorLevel: { from: null, to: 'ADVANCED' },
    });
  });

  it('lets anyone change their own name, language, editorLevel, comment and address, nothing else', async () => {
    const self = await t.actor('VIEWER', { customerId: customerA });
    const ok = await put(self.token, self.user.email, { name: 'Me', language: 'fr', address: 'Here', role: 'VIEWER' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Me', language: 'fr', address: 'Here' });
    const role = await put(self.token, self.user.email, { role: 'EDITOR' });
    expect(role.status).toBe(403);
    expect(role.body).toMatchObject({ key: 'user.error.fieldNotAllowed', details: { fields: ['role'] } });
    const other = await put(self.token, viewerA.user.email, { name: 'Hacked' });
    expect(other.status).toBe(403);
    expect(other.body.key).toBe('user.error.notAllowed');
  });

  it('keeps authProvider immutable (400) and validates the body (400)', async () => {
    const res = await put(ownerA.token, viewerA.user.email, { authProvider: 'SAML' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'user.error.authProviderImmutable', details: { field: 'authProvider' } });
    expect((await put(ownerA.token, viewerA.user.email, { authProvider: 'LOCAL' })).status).toBe(200);
    const bad = await put(ownerA.token, viewerA.user.email, { name: '', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['name', 'password']);
    expect((await t.request('PUT', '/api/user', { token: ownerA.token, json: { name: 'x' } })).status).toBe(400);
    expect((await put(ownerA.token, viewerA.user.email, { use2FA: true })).status).toBe(400);
  });

  it("keeps role changes within the caller's reach", async () => {
    const target = await t.factories.user({ customerId: customerA, role: 'EDITOR' });
    const res = await put(ownerA.token, target.email, { role: 'ADMIN' });
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('user.error.roleAboveOwn');
    const adminInA = await t.factories.user({ customerId: customerA, role: 'ADMIN' });
    expect((await put(ownerA.token, adminInA.email, { name: 'x' })).body.key).toBe('user.error.roleAboveOwn');
    expect((await put(ownerA.token, ownerA.user.email, { role: 'EDITOR' })).body.key).toBe('user.error.ownRole');
    expect((await put(ownerA.token, target.email, { trustedAdmin: true })).body.key).toBe('user.error.trustedAdminForbidden');
    expect((await put(ownerA.token, target.email, { role: 'OWNER' })).status).toBe(200);
  });

  it("answers 404 for another tenant's user and 409 for an e-mail in use", async () => {
    expect((await put(ownerA.token, ownerB.user.email, { name: 'x' })).status).toBe(404);
    const target = await t.factories.user({ customerId: customerA });
    const res = await put(ownerA.token, target.email, { email: viewerA.user.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('user.error.emailExists');
  });

  it('a password change signs the user out everywhere and never reaches the audit log', async () => {
    const target = await t.actor('EDITOR', { customerId: customerA });
    const res = await put(ownerA.token, target.user.email, { password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/api/v2/user/me', { token: target.token })).status).toBe(401);
    expect(await t.signIn(target.user.email, NEW_PASSWORD)).toEqual(expect.any(String));
    expect((await t.token({ grant_type: 'password', username: target.user.email, password: TEST_PASSWORD })).status).toBe(400);
    const [entry] = await auditRows(target.user.id).then((rows) => rows.filter((r) => r.action === 'update'));
    expect(Object.keys(entry!.changes!)).toEqual(['password']);
    expect(await allAuditText()).not.toContain(NEW_PASSWORD);
  });

  it('usernamePasswordLoginEnabled=false refuses the password grant', async () => {
    const target = await t.factories.user({ customerId: customerA });
    expect((await put(ownerA.token, target.email, { usernamePasswordLoginEnabled: false })).status).toBe(200);
    const grant = await t.token({ grant_type: 'password', username: target.email, password: TEST_PASSWORD });
    expect(grant.status).toBe(400);
    expect(grant.body.error).toBe('invalid_grant');
  });

  it("an OWNER resets another user's second factor with use2FA:false", async () => {
    const target = await t.factories.user({ customerId: customerA, use2FA: true, totpSecret: 'JBSWY3DPEHPK3PXP' });
    const res = await put(ownerA.token, target.email, { use2FA: false });
    expect(res.status).toBe(200);
    expect(res.body.use2FA).toBe(false);
    const [row] = await t.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ use2FA: false, totpSecret: null, totpPendingSecret: null });
  });
});

describe('DELETE /api/user?email=', () => {
  const del = (token: string, email: string) => t.request('DELETE', `/api/user?email=${encodeURIComponent(email)}`, { token });

  it('deletes the user, ends their sessions and audits it', async () => {
    const target = await t.actor('EDITOR', { customerId: customerA });
    const res = await del(ownerA.token, target.user.email);
    expect(res.status).toBe(204);
    expect((await t.request('GET', '/api/v2/user/me', { token: target.token })).status).toBe(401);
    expect((await asOwner('GET', `/api/v2/user/${target.user.id}`)).status).toBe(404);
    const entries = await auditRows(target.user.id);
    expect(entries.find((e) => e.action === 'delete')).toMatchObject({ entityName: target.user.email, userId: ownerA.user.id });
  });

  it("refuses a TECHNICIAN (403), another tenant's user (404) and an ADMIN target for an OWNER (403)", async () => {
    const target = await t.factories.user({ customerId: customerA });
    expect((await del(techA.token, target.email)).status).toBe(403);
    expect((await del(ownerA.token, ownerB.user.email)).status).toBe(404);
    const adminInA = await t.factories.user({ customerId: customerA, role: 'ADMIN' });
    expect((await del(ownerA.token, adminInA.email)).status).toBe(403);
  });
});
