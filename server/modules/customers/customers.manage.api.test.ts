import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { contentGroups, deviceGroups, fileFolders } from '@/server/modules/folders/folders.table';
import { users } from '@/server/modules/users/users.table';
import { createTestContext, TEST_PASSWORD, type TestContext } from '@/server/test/harness';
import { CustomerSchema } from './customers.schemas';
import { customers } from '@/server/tenant/customers.table';

/** Customer reads, updates, deletes, settings and network owners (spec 3 "Customers"). */

let t: TestContext;
let captcha: http.Server;
let admin: { token: string; customerId: number };
/** A network owner, its OWNER, one member, and an unrelated customer. */
let net: { ownerId: number; ownerToken: string; memberId: number; otherId: number };

beforeAll(async () => {
  // A stand-in CAPTCHA provider: the response `ok` is valid, anything else is not.
  captcha = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: new URLSearchParams(body).get('response') === 'ok' }));
    });
  });
  await new Promise<void>((resolve) => captcha.listen(0, '127.0.0.1', resolve));
  const { port } = captcha.address() as AddressInfo;
  t = await createTestContext({ CAPTCHA_SECRET: 'x', CAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/verify` });
  const a = await t.actor('ADMIN');
  admin = { token: a.token, customerId: a.user.customerId };
  net = await networkOwner();
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => captcha.close(resolve));
});

const unique = (prefix: string) => `${prefix} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
const q = (search: string) => encodeURIComponent(search);

async function networkOwner() {
  const owner = await t.factories.customer({ isSubreseller: true, subresellerSince: new Date() });
  const { token } = await t.actor('OWNER', { customerId: owner.id });
  const member = await t.factories.customer({ ownerSubresellerId: owner.id, licenseTier: 'BUSINESS' });
  const other = await t.factories.customer();

  return { ownerId: owner.id, ownerToken: token, memberId: member.id, otherId: other.id };
}

describe('GET /api/customer and /api/customer/{id}', () => {
  it('ADMIN lists every customer; customerId narrows to one', async () => {
    const all = await t.request('GET', '/api/customer?size=1000', { token: admin.token });
    expect(all.status).toBe(200);
    const ids = all.body.content.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([net.ownerId, net.memberId, net.otherId, admin.customerId]));
    const one = await t.request('GET', `/api/customer?customerId=${net.otherId}`, { token: admin.token });
    expect(one.body.content.map((c: { id: number }) => c.id)).toEqual([net.otherId]);
  });

  it('the OWNER of a network owner sees its own customer and its members only', async () => {
    const res = await t.request('GET', '/api/customer', { token: net.ownerToken });
    expect(res.body.content.map((c: { id: number }) => c.id).sort()).toEqual([net.ownerId, net.memberId].sort());
    expect((await t.request('GET', `/api/customer/${net.memberId}`, { token: net.ownerToken })).status).toBe(200);
    const outside = await t.request('GET', `/api/customer/${net.otherId}`, { token: net.ownerToken });
    expect(outside.status).toBe(404);
    expect(outside.body.key).toBe('customer.error.notFound');
  });

  it('other roles see their own customer only; another id is 404', async () => {
    const { user, token } = await t.actor('VIEWER');
    const res = await t.request('GET', '/api/customer', { token });
    expect(res.body.content.map((c: { id: number }) => c.id)).toEqual([user.customerId]);
    expect((await t.request('GET', `/api/customer/${user.customerId}`, { token })).body.id).toBe(user.customerId);
    expect((await t.request('GET', `/api/customer/${net.otherId}`, { token })).status).toBe(404);
  });

  it('network owners carry a subreseller object; subreseller=!NULL and ownerSubresellerId= filter', async () => {
    const owners = await t.request('GET', `/api/customer?size=1000&search=${q('subreseller=!NULL')}`, { token: admin.token });
    expect(owners.status).toBe(200);
    expect(owners.body.content.length).toBeGreaterThan(0);
    for (const c of owners.body.content) expect(c.subreseller).toMatchObject({ id: c.id, since: expect.any(String) });
    expect(owners.body.content.map((c: { id: number }) => c.id)).toContain(net.ownerId);
    const plain = await t.request('GET', `/api/customer?size=1000&search=${q('subreseller=NULL')}`, { token: admin.token });
    expect(plain.body.content.map((c: { id: number }) => c.id)).not.toContain(net.ownerId);
    const members = await t.request('GET', `/api/customer?search=${q(`ownerSubresellerId=${net.ownerId}`)}`, { token: admin.token });
    expect(members.body.content.map((c: { id: number }) => c.id)).toEqual([net.memberId]);
  });

  it('honours select, including the computed ownerSubresellerName', async () => {
    const res = await t.request('GET', `/api/customer/${net.memberId}?select=${q('name,ownerSubresellerName,subreseller')}`, {
      token: admin.token,
    });
    const [owner] = await t.db.select().from(customers).where(eq(customers.id, net.ownerId));
    expect(res.body).toEqual({ id: net.memberId, name: expect.any(String), ownerSubresellerName: owner!.name, subreseller: null });
    expect((await t.request('GET', `/api/customer/${net.memberId}?select=nope`, { token: admin.token })).status).toBe(400);
  });

  it('a non-numeric id is 400', async () => {
    expect((await t.request('GET', '/api/customer/abc', { token: admin.token })).status).toBe(400);
  });
});

describe('POST /api/customer', () => {
  it('ADMIN sets ADMIN-only fields; the customer starts with its root folders and Templates below the content root', async () => {
    const name = unique('Full');
    const res = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: {
        name,
        needsToBeInvoiced: true,
        freeLicenses: 3,
        browserSessionLicenses: 2,
        deviceSessionLimit: 5,
        storageSize: 1000,
        resourceLimits: { overrides: { USER: 7 } },
        adnetworkNetworkId: 'n1',
        adnetworkApiKey: 'super-secret-key',
        supportEmail: 'help@example.com',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      licenseTier: 'ENTERPRISE',
      needsToBeInvoiced: true,
      freeLicenses: 3,
      browserSessionLicenses: 2,
      deviceSessionLimit: 5,
      storageSize: 1000,
      resourceLimits: { overrides: { USER: 7 } },
      adnetworkNetworkId: 'n1',
      userFullAccessIfNotInTeam: true,
      isFileAndFolderCreationEnabledInRootForTeamUsers: true,
      currentCustomerFilesStorageSize: 0,
      currentTotalCustomerStorageSize: 0,
    });
    expect(res.body).not.toHaveProperty('adnetworkApiKey');
    expect(CustomerSchema.strict().safeParse(res.body).success).toBe(true);
    const id = res.body.id as number;
    const [device] = await t.db.select().from(deviceGroups).where(eq(deviceGroups.customerId, id));
    const [file] = await t.db.select().from(fileFolders).where(eq(fileFolders.customerId, id));
    const content = await t.db.select().from(contentGroups).where(eq(contentGroups.customerId, id));
    expect(device).toMatchObject({ parentId: null, path: [device!.id] });
    expect(file).toMatchObject({ parentId: null, path: [file!.id] });
    const contentRoot = content.find((g) => g.parentId === null)!;
    expect(content).toHaveLength(2);
    expect(contentRoot).toMatchObject({ isTemplateGroup: false, path: [contentRoot.id] });
    expect(content.find((g) => g.parentId !== null)).toMatchObject({
      name: 'Templates',
      isTemplateGroup: true,
      parentId: contentRoot.id,
      path: [contentRoot.id, expect.any(String)],
    });
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.entityName, name));
    expect(JSON.stringify(entry)).not.toContain('super-secret-key');
  });

  it('ADMIN creates a network owner, and a member of one; the owner must be a network owner', async () => {
    const owner = await t.request('POST', '/api/customer', { token: admin.token, json: { name: unique('NO'), createAsSubreseller: true } });
    expect(owner.body.subreseller).toMatchObject({ id: owner.body.id });
    const member = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name: unique('M'), ownerSubresellerId: owner.body.id },
    });
    expect(member.body.ownerSubresellerId).toBe(owner.body.id);
    const notOwner = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name: unique('M'), ownerSubresellerId: net.otherId },
    });
    expect(notOwner).toMatchObject({ status: 400, body: { key: 'customer.error.notSubreseller' } });
    expect(
      (await t.request('POST', '/api/customer', { token: admin.token, json: { name: unique('M'), ownerSubresellerId: 987654321 } })).status,
    ).toBe(404);
  });

  it('rejects unknown or too large resource-limit overrides', async () => {
    // The document names each resource and its maximum; the schema refuses the rest.
    const unknown = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name: unique('L'), resourceLimits: { overrides: { NOPE: 1 } } },
    });
    expect(unknown).toMatchObject({ status: 400, body: { key: 'request.error.invalid' } });
    const schema = (
      (await (await t.app.request('/api/openapi.json')).json()) as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      }
    ).components.schemas.CustomerResourceLimits;
    expect(schema?.properties.overrides).toMatchObject({
      additionalProperties: false,
      properties: { USER: { maximum: 100_000 }, API_KEY: { maximum: 1_000 } },
    });
    const big = await t.request('POST', '/api/customer', {
      token: admin.token,
      json: { name: unique('L'), resourceLimits: { overrides: { USER: 10_000_000 } } },
    });
    expect(big.status).toBe(400);
  });

  it('the OWNER of a network owner creates STARTER/BUSINESS members of its own network', async () => {
    const res = await t.request('POST', '/api/customer', {
      token: net.ownerToken,
      json: { name: unique('Member'), licenseTier: 'STARTER' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ownerSubresellerId: net.ownerId, licenseTier: 'STARTER' });
  });

  it.each([
    [{ licenseTier: 'ENTERPRISE' }, 403, 'customer.error.enterpriseNotAllowed'],
    [{}, 400, 'customer.error.licenseTierRequired'],
    [{ licenseTier: 'BUSINESS', freeLicenses: 1 }, 403, 'customer.error.adminOnlyField'],
    [{ licenseTier: 'BUSINESS', browserSessionLicenses: 1 }, 403, 'customer.error.adminOnlyField'],
    [{ licenseTier: 'BUSINESS', createAsSubreseller: true }, 403, 'customer.error.adminOnlyField'],
    [{ licenseTier: 'BUSINESS', ownerSubresellerId: 1 }, 403, 'customer.error.adminOnlyField'],
    [{ licenseTier: 'BUSINESS', resourceLimits: { overrides: {} } }, 403, 'customer.error.adminOnlyField'],
  ])('a network owner sending %j → %i %s', async (extra, status, key) => {
    const res = await t.request('POST', '/api/customer', { token: net.ownerToken, json: { name: unique('Refused'), ...extra } });
    expect(res).toMatchObject({ status, body: { key } });
    if (key === 'customer.error.adminOnlyField') expect(res.body.details.field).toBe(Object.keys(extra).find((k) => k !== 'licenseTier'));
  });

  it('a TECHNICIAN of a network owner and a plain OWNER are refused', async () => {
    const { token } = await t.actor('TECHNICIAN', { customerId: net.ownerId });
    expect((await t.request('POST', '/api/customer', { token, json: { name: unique('X'), licenseTier: 'STARTER' } })).status).toBe(403);
    const plain = await t.actor('OWNER');
    const res = await t.request('POST', '/api/customer', { token: plain.token, json: { name: unique('X'), licenseTier: 'STARTER' } });
    expect(res).toMatchObject({ status: 403, body: { key: 'auth.error.roleRequired' } });
  });
});

describe('PUT /api/customer/{id}', () => {
  it('ADMIN updates partially; the audit entry names the changed fields and hides the secret', async () => {
    const c = await t.factories.customer();
    const res = await t.request('PUT', `/api/customer/${c.id}`, {
      token: admin.token,
      json: { comment: 'new', expirationDate: '2030-01-01T00:00:00.000Z', adnetworkApiKey: 'other-secret-value', storageSize: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: c.name, comment: 'new', expirationDate: '2030-01-01T00:00:00.000Z' });
    expect(res.body).not.toHaveProperty('adnetworkApiKey');
    const [row] = await t.db.select().from(customers).where(eq(customers.id, c.id));
    expect(row!.adnetworkApiKey).toBe('other-secret-value');
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(c.id)));
    expect(entry).toMatchObject({ action: 'update', entityType: 'customer', entityName: c.name });
    expect(entry!.changes).toMatchObject({ comment: { from: null, to: 'new' }, adnetworkApiKey: '[redacted]' });
    expect(entry!.message).toContain('comment');
    expect(JSON.stringify(entry)).not.toContain('other-secret-value');
  });

  it('a duplicate name → 409 customer.error.nameExists; an invalid body → 400', async () => {
    const a = await t.factories.customer();
    const b = await t.factories.customer();
    expect((await t.request('PUT', `/api/customer/${b.id}`, { token: admin.token, json: { name: a.name } })).body.key).toBe(
      'customer.error.nameExists',
    );
    expect((await t.request('PUT', `/api/customer/${b.id}`, { token: admin.token, json: { supportEmail: 'not-an-email' } })).status).toBe(
      400,
    );
    expect((await t.request('PUT', '/api/customer/987654321', { token: admin.token, json: { comment: 'x' } })).status).toBe(404);
  });

  it('the OWNER of a network owner edits members within the rules, nothing else', async () => {
    const ok = await t.request('PUT', `/api/customer/${net.memberId}`, {
      token: net.ownerToken,
      json: { comment: 'by owner', licenseTier: 'STARTER' },
    });
    expect(ok).toMatchObject({ status: 200, body: { comment: 'by owner', licenseTier: 'STARTER' } });
    const enterprise = await t.request('PUT', `/api/customer/${net.memberId}`, {
      token: net.ownerToken,
      json: { licenseTier: 'ENTERPRISE' },
    });
    expect(enterprise).toMatchObject({ status: 403, body: { key: 'customer.error.enterpriseNotAllowed' } });
    const adminOnly = await t.request('PUT', `/api/customer/${net.memberId}`, { token: net.ownerToken, json: { storageSize: 1 } });
    expect(adminOnly).toMatchObject({ status: 403, body: { key: 'customer.error.adminOnlyField', details: { field: 'storageSize' } } });
    expect((await t.request('PUT', `/api/customer/${net.otherId}`, { token: net.ownerToken, json: { comment: 'x' } })).status).toBe(404);
    expect((await t.request('PUT', `/api/customer/${net.ownerId}`, { token: net.ownerToken, json: { comment: 'x' } })).status).toBe(403);
  });

  it('restricted=true revokes every token of the customer at once and refuses sign-in', async () => {
    const c = await t.factories.customer();
    const { user, token } = await t.actor('VIEWER', { customerId: c.id });
    expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(200);
    const res = await t.request('PUT', `/api/customer/${c.id}`, { token: admin.token, json: { restricted: true } });
    expect(res.body.restricted).toBe(true);
    const after = await t.request('GET', '/api/v2/user/me', { token });
    expect([401, 403]).toContain(after.status);
    const signIn = await t.token({ grant_type: 'password', username: user.email, password: TEST_PASSWORD });
    expect(signIn.status).toBe(400);
    // Lifting the restriction does not bring the revoked tokens back.
    await t.request('PUT', `/api/customer/${c.id}`, { token: admin.token, json: { restricted: false } });
    expect((await t.request('GET', '/api/v2/user/me', { token })).status).toBe(401);
  });

  it("refuses restricting the caller's own customer", async () => {
    const res = await t.request('PUT', `/api/customer/${admin.customerId}`, { token: admin.token, json: { restricted: true } });
    expect(res).toMatchObject({ status: 409, body: { key: 'customer.error.restrictOwn' } });
  });
});

describe('DELETE /api/customer/{id}', () => {
  const proof = { 'g-recaptcha-response': 'ok' };

  it('is a protected operation: without or with a wrong CAPTCHA 403, nothing deleted', async () => {
    const c = await t.factories.customer();
    const missing = await t.request('DELETE', `/api/customer/${c.id}`, { token: admin.token });
    expect(missing).toMatchObject({ status: 403, body: { key: 'auth.error.captchaRequired' } });
    const wrong = await t.request('DELETE', `/api/customer/${c.id}`, { token: admin.token, headers: { 'g-recaptcha-response': 'bad' } });
    expect(wrong.status).toBe(403);
    expect(await t.db.select().from(customers).where(eq(customers.id, c.id))).toHaveLength(1);
  });

  it('deletes the customer with its users and folders (204) and audits it', async () => {
    const created = await t.request('POST', '/api/customer', { token: admin.token, json: { name: unique('Doomed') } });
    const id = created.body.id as number;
    const user = await t.factories.user({ customerId: id });
    const res = await t.request('DELETE', `/api/customer/${id}`, { token: admin.token, headers: proof });
    expect(res.status).toBe(204);
    expect(await t.db.select().from(customers).where(eq(customers.id, id))).toEqual([]);
    expect(await t.db.select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await t.db.select().from(deviceGroups).where(eq(deviceGroups.customerId, id))).toEqual([]);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(id)));
    expect(entries.map((e) => e.action)).toContain('delete');
  });

  it("refuses the caller's own customer and a network owner with members (409)", async () => {
    expect((await t.request('DELETE', `/api/customer/${admin.customerId}`, { token: admin.token, headers: proof })).body.key).toBe(
      'customer.error.deleteOwn',
    );
    const res = await t.request('DELETE', `/api/customer/${net.ownerId}`, { token: admin.token, headers: proof });
    expect(res).toMatchObject({ status: 409, body: { key: 'customer.error.hasMembers' } });
  });

  it('the OWNER of a network owner deletes its members only', async () => {
    const member = await t.factories.customer({ ownerSubresellerId: net.ownerId });
    expect((await t.request('DELETE', `/api/customer/${net.otherId}`, { token: net.ownerToken, headers: proof })).status).toBe(404);
    expect((await t.request('DELETE', `/api/customer/${member.id}`, { token: net.ownerToken, headers: proof })).status).toBe(204);
  });
});

describe('customer settings', () => {
  it("PUT settings/teams changes the flags of the caller's customer; VIEWER-visible on the entity", async () => {
    const { user, token } = await t.actor('OWNER');
    const res = await t.request('PUT', '/api/customer/settings/teams', {
      token,
      json: { userFullAccessIfNotInTeam: false, isDeviceAndGroupCreationEnabledInRootForTeamUsers: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: user.customerId,
      userFullAccessIfNotInTeam: false,
      accessResourcesWithoutTeam: true,
      isDeviceAndGroupCreationEnabledInRootForTeamUsers: false,
      isContentAndGroupCreationEnabledInRootForTeamUsers: true,
    });
    const viewer = await t.actor('VIEWER', { customerId: user.customerId });
    expect((await t.request('GET', `/api/customer/${user.customerId}`, { token: viewer.token })).body.userFullAccessIfNotInTeam).toBe(
      false,
    );
    expect((await t.request('PUT', '/api/customer/settings/teams', { token, json: { userFullAccessIfNotInTeam: 'no' } })).status).toBe(400);
  });

  it("ADMIN changes another customer's settings through customerId", async () => {
    const c = await t.factories.customer();
    const res = await t.request('PUT', `/api/customer/settings/teams?customerId=${c.id}`, {
      token: admin.token,
      json: { accessResourcesWithoutTeam: false },
    });
    expect(res.body).toMatchObject({ id: c.id, accessResourcesWithoutTeam: false });
  });

  it('PUT settings/devices sets the default time zone (a TimeZone name), readable by a TECHNICIAN; "" removes it; OWNER only', async () => {
    const { user, token } = await t.actor('OWNER');
    const set = await t.request('PUT', '/api/customer/settings/devices', { token, json: { defaultTimeZone: 'Europe/Berlin' } });
    expect(set).toMatchObject({ status: 200, body: { id: user.customerId, defaultTimeZone: 'Europe/Berlin' } });
    const technician = await t.actor('TECHNICIAN', { customerId: user.customerId });
    expect((await t.request('GET', `/api/customer/${user.customerId}`, { token: technician.token })).body.defaultTimeZone).toBe(
      'Europe/Berlin',
    );
    expect(
      (await t.request('PUT', '/api/customer/settings/devices', { token: technician.token, json: { defaultTimeZone: 'UTC' } })).status,
    ).toBe(403);
    // Names the server does not accept (an offset, another spelling) are refused, as in every TimeZone field.
    for (const zone of ['+01:00', 'europe/berlin', 'Mars/Olympus']) {
      expect((await t.request('PUT', '/api/customer/settings/devices', { token, json: { defaultTimeZone: zone } })).status, zone).toBe(400);
    }
    // Null keeps it; "" removes it.
    expect(
      (await t.request('PUT', '/api/customer/settings/devices', { token, json: { defaultTimeZone: null } })).body.defaultTimeZone,
    ).toBe('Europe/Berlin');
    expect((await t.request('PUT', '/api/customer/settings/devices', { token, json: { defaultTimeZone: '' } })).body).not.toHaveProperty(
      'defaultTimeZone',
    );
  });

  it('PUT settings/setDefaultContents stores the customer’s own content id (404 otherwise); the word null removes it; anything else is 400', async () => {
    const { user, token } = await t.actor('OWNER');
    const root = (await t.request('GET', '/api/v2/contentGroup?search=parentId=NULL', { token })).body.content[0].id as string;
    const loop = await t.request('POST', `/api/simpleLoop?contentGroupId=${root}`, {
      token,
      json: {
        name: 'Emergency',
        simpleLoopType: 'NORMAL',
        version: '2.0',
        data: { loopData: { resolution: { width: 1920, height: 1080 } }, slides: [] },
      },
    });
    const contentId = loop.body.id as string;
    expect(
      (
        await t.request('PUT', `/api/customer/settings/setDefaultContents?defaultEmergencyContentId=0190a3e2-7b1c-7cde-8f00-000000000001`, {
          token,
        })
      ).status,
    ).toBe(404);
    const set = await t.request('PUT', `/api/customer/settings/setDefaultContents?defaultEmergencyContentId=${contentId}`, { token });
    expect(set).toMatchObject({ status: 200, body: { id: user.customerId, defaultEmergencyContentId: contentId } });
    const removed = await t.request('PUT', '/api/customer/settings/setDefaultContents?defaultEmergencyContentId=null', { token });
    expect(removed.body).not.toHaveProperty('defaultEmergencyContentId');
    expect((await t.request('PUT', '/api/customer/settings/setDefaultContents?defaultEmergencyContentId=abc', { token })).status).toBe(400);
    expect((await t.request('PUT', '/api/customer/settings/setDefaultContents', { token })).status).toBe(400);
    // Deleting the content removes it as the default.
    await t.request('PUT', `/api/customer/settings/setDefaultContents?defaultEmergencyContentId=${contentId}`, { token });
    expect((await t.request('DELETE', `/api/simpleLoop/${contentId}`, { token })).status).toBe(204);
    expect(
      (await t.request('GET', `/api/customer/${user.customerId}?select=defaultEmergencyContentId`, { token })).body
        .defaultEmergencyContentId,
    ).toBeNull();
  });
});

describe('network owners', () => {
  it('promote → subreseller object; twice → 409; remove privilege → plain again', async () => {
    const c = await t.factories.customer();
    const promoted = await t.request('POST', `/api/customer/${c.id}/promoteAsSubreseller`, { token: admin.token });
    expect(promoted).toMatchObject({ status: 200, body: { subreseller: { id: c.id, since: expect.any(String) } } });
    expect((await t.request('POST', `/api/customer/${c.id}/promoteAsSubreseller`, { token: admin.token })).body.key).toBe(
      'customer.error.alreadySubreseller',
    );
    const removed = await t.request('POST', `/api/customer/${c.id}/removeSubresellerPrivilege`, { token: admin.token });
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('subreseller');
    expect((await t.request('POST', `/api/customer/${c.id}/removeSubresellerPrivilege`, { token: admin.token })).body.key).toBe(
      'customer.error.notSubreseller',
    );
    expect((await t.request('POST', '/api/customer/987654321/promoteAsSubreseller', { token: admin.token })).status).toBe(404);
  });

  it('removing the privilege while members exist → 409 customer.error.hasMembers', async () => {
    const res = await t.request('POST', `/api/customer/${net.ownerId}/removeSubresellerPrivilege`, { token: admin.token });
    expect(res).toMatchObject({ status: 409, body: { key: 'customer.error.hasMembers' } });
  });

  it('moveToSubreseller moves a customer in and out; the target must be another network owner', async () => {
    const c = await t.factories.customer();
    const moved = await t.request('PUT', `/api/customer/${c.id}/moveToSubreseller?subresellerId=${net.ownerId}`, { token: admin.token });
    expect(moved).toMatchObject({ status: 200, body: { ownerSubresellerId: net.ownerId } });
    const reach = await t.request('GET', `/api/customer/${c.id}`, { token: net.ownerToken });
    expect(reach.status).toBe(200);
    const left = await t.request('PUT', `/api/customer/${c.id}/moveToSubreseller`, { token: admin.token });
    expect(left.body).not.toHaveProperty('ownerSubresellerId');
    expect((await t.request('GET', `/api/customer/${c.id}`, { token: net.ownerToken })).status).toBe(404);
    expect(
      (await t.request('PUT', `/api/customer/${c.id}/moveToSubreseller?subresellerId=${net.otherId}`, { token: admin.token })).body.key,
    ).toBe('customer.error.notSubreseller');
    expect((await t.request('PUT', `/api/customer/${c.id}/moveToSubreseller?subresellerId=987654321`, { token: admin.token })).status).toBe(
      404,
    );
    expect((await t.request('PUT', `/api/customer/${c.id}/moveToSubreseller?subresellerId=${c.id}`, { token: admin.token })).status).toBe(
      400,
    );
    expect(
      (await t.request('PUT', `/api/customer/${net.ownerId}/moveToSubreseller?subresellerId=${net.ownerId}`, { token: admin.token }))
        .status,
    ).toBe(400);
  });

  it('network-owner operations are ADMIN only', async () => {
    for (const [method, path] of [
      ['POST', `/api/customer/${net.memberId}/promoteAsSubreseller`],
      ['PUT', `/api/customer/${net.memberId}/moveToSubreseller`],
    ] as const) {
      expect((await t.request(method, path, { token: net.ownerToken })).status).toBe(403);
    }
  });
});
