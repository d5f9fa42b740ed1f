import { and, eq, sql } from 'drizzle-orm';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { insertFile, insertFolder, rootFileFolder } from '@/server/modules/files/tagged-rows.test-kit';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { quickFilterCondition } from './quick-filter-condition';

let t: TestContext;
let customerId: number;
let owner: { token: string; id: string };
let editor: { token: string; id: string; email: string };
let viewer: string;
let otherEditor: string;
let root: { id: string; path: string[] };
let f1: { id: string; path: string[] };
let f2: { id: string; path: string[] };
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  const o = await t.actor('OWNER', { customerId });
  owner = { token: o.token, id: o.user.id };
  const e = await t.actor('EDITOR', { customerId });
  editor = { token: e.token, id: e.user.id, email: e.user.email };
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherEditor = (await t.actor('EDITOR')).token;
  root = await rootFileFolder(t.db, customerId);
  f1 = await insertFolder(t.db, { customerId, parent: root, name: 'F1' });
  f2 = await insertFolder(t.db, { customerId, parent: f1, name: 'F2' });
  const now = Date.now();
  await insertFile(t.db, { customerId, folder: root, name: 'Alpha.png', tags: ['promo'] });
  await insertFile(t.db, {
    customerId,
    folder: f1,
    name: 'beta.png',
    tags: ['promo', 'lobby'],
    validFrom: new Date(now - DAY),
    validTo: new Date(now + DAY),
  });
  await insertFile(t.db, { customerId, folder: f2, name: 'gamma.jpg', tags: ['lobby'], validTo: new Date(now - DAY) });
  await insertFile(t.db, { customerId, folder: f2, name: 'alphabet.png', validFrom: new Date(now + DAY) });
  // Another tenant's file that every criterion below would match.
  const other = (await t.factories.customer()).id;
  await insertFile(t.db, {
    customerId: other,
    folder: await rootFileFolder(t.db, other),
    name: 'Alpha beta gamma',
    tags: ['promo', 'lobby'],
  });
});
afterAll(() => t.close());

const fileFilter = (name: string, criteria: Record<string, unknown> = {}) => ({
  name,
  filteredEntityType: 'FILE',
  criteria: { type: 'FILE', ...criteria },
});

async function create(body: unknown, token = editor.token, query = '') {
  return t.request('POST', `/api/quickFilter/${query}`, { token, json: body });
}

describe('POST /api/quickFilter', () => {
  it('creates a filter (defaults listed true, custom false, readOnly false) with an audit entry', async () => {
    const res = await create({ ...fileFilter('Promos', { tags: ['promo'], search: 'name:png' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Promos',
      filteredEntityType: 'FILE',
      criteria: { type: 'FILE', tags: ['promo'], search: 'name:png' },
      listed: true,
      custom: false,
      readOnly: false,
      customerId,
    });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'quickFilter'), eq(auditLog.entityId, res.body.id)));
    expect(entries.map((x) => x.action)).toEqual(['create']);
    expect(entries[0]!.message).not.toMatch(/\([A-Z_]+\)/);
  });

  it('refuses a duplicate name in the customer (409), not in another one', async () => {
    await create(fileFilter('Dup'));
    const dup = await create(fileFilter('Dup'));
    expect(dup.status).toBe(409);
    expect(dup.body.key).toBe('quickFilter.error.nameExists');
    expect((await create(fileFilter('Dup'), otherEditor)).status).toBe(201);
  });

  it('validates the criteria against the type', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', filteredEntityType: 'FILE', criteria: { type: 'DEVICE' } }, 'quickFilter.error.typeMismatch'],
      [fileFilter('x', { search: 'nope:1' }), 'search.error.unknownField'],
      [fileFilter('x', { search: '(name:a' }), 'search.error.syntax'],
      // The tag syntax is the criteria schema's pattern (issue 27 §3.3).
      [fileFilter('x', { tags: ['-bad'] }), 'request.error.invalid'],
      [fileFilter('x', { folderId: uuidv4() }), 'quickFilter.error.unknownFolder'],
      [fileFilter('x', { deviceGroupId: uuidv4() }), 'request.error.invalid'],
      [fileFilter('x', { validFileOnly: 'yes' }), 'request.error.invalid'],
      [{ name: 'x', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE', search: 'a:1,(' } }, 'search.error.syntax'],
      [{ name: '', filteredEntityType: 'FILE', criteria: { type: 'FILE' } }, 'request.error.invalid'],
      [{ name: 'x', filteredEntityType: 'CAR', criteria: { type: 'FILE' } }, 'request.error.invalid'],
    ];
    for (const [body, key] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.key, JSON.stringify(res.body)).toMatch(
        key === 'search.error.syntax' ? /^search\.error\./ : new RegExp(`^${key.replace(/\./g, '\\.')}$`),
      );
    }
    const bad = await create(fileFilter('x', { search: 'name:a,size>big' }));
    expect(bad.body.details).toMatchObject({ position: 7, field: 'criteria.search' });
  });

  it('stores CONTENT and DEVICE criteria (their lists do not exist yet)', async () => {
    const content = await create({
      name: 'Content tags',
      filteredEntityType: 'CONTENT',
      criteria: { type: 'CONTENT', tags: ['x'], searchRecursively: true },
    });
    expect(content.status).toBe(201);
    const device = await create({
      name: 'Devices',
      filteredEntityType: 'DEVICE',
      criteria: { type: 'DEVICE', search: 'name:lobby' },
      listed: false,
    });
    expect(device.status).toBe(201);
    expect(device.body.listed).toBe(false);
  });

  it('is EDITOR and above', async () => {
    expect((await create(fileFilter('viewer'), viewer)).status).toBe(403);
  });

  it('counts against the QUICK_FILTER resource limit', async () => {
    const limited = await t.factories.customer({ licenseTier: 'ENTERPRISE', resourceLimits: { overrides: { QUICK_FILTER: 1 } } });
    const { token } = await t.actor('EDITOR', { customerId: limited.id });
    expect((await create(fileFilter('one'), token)).status).toBe(201);
    const second = await create(fileFilter('two'), token);
    expect(second.status).toBe(400);
    expect(second.body).toMatchObject({
      key: 'resourceLimit.error.limitReached',
      details: { resource: 'QUICK_FILTER', used: 1, limit: 1 },
    });
  });
});

describe('GET /api/v2/quickFilter and /api/quickFilter/{id}', () => {
  let id: string;
  beforeAll(async () => {
    id = (await create(fileFilter('Listed one', { name: 'alpha' }))).body.id;
  });

  it('pages with search, select and sort', async () => {
    const res = await t.request('GET', `/api/v2/quickFilter?search=${encodeURIComponent('name:Listed')}`, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(1);
    expect(res.body.content[0]).toMatchObject({
      id,
      name: 'Listed one',
      filteredEntityType: 'FILE',
      readOnly: false,
      criteria: { type: 'FILE', name: 'alpha' },
    });
    const narrow = await t.request(
      'GET',
      `/api/v2/quickFilter?select=name&sort=name,desc&search=${encodeURIComponent('filteredEntityType=FILE')}`,
      { token: viewer },
    );
    expect(narrow.body.content[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
    const names = narrow.body.content.map((x: { name: string }) => x.name);
    expect(names).toEqual([...names].sort().reverse());
    const usage = await t.request(
      'GET',
      `/api/v2/quickFilter?select=name,readOnly,campaignUsageDetails,messageUsageDetails&search=${encodeURIComponent(`id=${id}`)}`,
      { token: viewer },
    );
    expect(usage.body.content[0]).toEqual({ id, name: 'Listed one', readOnly: false, campaignUsageDetails: [], messageUsageDetails: [] });
    expect((await t.request('GET', '/api/v2/quickFilter?search=bogus:1', { token: viewer })).status).toBe(400);
  });

  it("lists only the caller's tenant", async () => {
    const res = await t.request('GET', '/api/v2/quickFilter?size=100&select=customerId', { token: otherEditor });
    expect(res.body.content.every((x: { customerId: number }) => x.customerId !== customerId)).toBe(true);
  });

  it('reads one; 404 for another tenant or a malformed id', async () => {
    const res = await t.request('GET', `/api/quickFilter/${id}`, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'Listed one', readOnly: false });
    expect((await t.request('GET', `/api/quickFilter/${id}?select=name`, { token: viewer })).body).toEqual({ id, name: 'Listed one' });
    expect((await t.request('GET', `/api/quickFilter/${id}`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('GET', '/api/quickFilter/not-a-uuid', { token: viewer })).status).toBe(404);
  });
});

describe('PUT /api/quickFilter', () => {
  it('changes name, listed and criteria; filteredEntityType is immutable', async () => {
    const id = (await create(fileFilter('To edit'))).body.id as string;
    const put = (body: unknown, token = editor.token) => t.request('PUT', `/api/quickFilter/?quickFilterId=${id}`, { token, json: body });
    const res = await put({ name: 'Edited', listed: false, criteria: { type: 'FILE', folderId: f1.id, searchRecursively: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Edited', listed: false, criteria: { type: 'FILE', folderId: f1.id, searchRecursively: true } });
    expect((await put({ filteredEntityType: 'FILE', name: 'Edited again' })).status).toBe(200);
    const typeChange = await put({ filteredEntityType: 'DEVICE' });
    expect(typeChange.status).toBe(400);
    expect(typeChange.body.key).toBe('quickFilter.error.immutableType');
    expect((await put({ criteria: { type: 'DEVICE' } })).body.key).toBe('quickFilter.error.typeMismatch');
    expect((await put({ criteria: { type: 'FILE', search: 'size>x' } })).status).toBe(400);
    await create(fileFilter('Taken'));
    expect((await put({ name: 'Taken' })).status).toBe(409);
    expect((await put({ name: 'x' }, viewer)).status).toBe(403);
    expect((await put({ name: 'x' }, otherEditor)).status).toBe(404);
    expect((await t.request('PUT', '/api/quickFilter/?quickFilterId=nope', { token: editor.token, json: { name: 'x' } })).status).toBe(404);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'quickFilter'), eq(auditLog.entityId, id)));
    expect(entries.map((x) => x.action)).toEqual(['create', 'update', 'update']);
  });
});

describe('DELETE /api/quickFilter', () => {
  it('is refused while a filtered folder uses the filter, then deletes', async () => {
    const id = (await create(fileFilter('Folder filter', { tags: ['promo'] }))).body.id as string;
    const folder = await insertFolder(t.db, { customerId, parent: root, name: 'Filtered', quickFilterId: id });
    const del = () => t.request('DELETE', `/api/quickFilter/?quickFilterId=${id}`, { token: editor.token });
    const refused = await del();
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      key: 'quickFilter.error.inUse',
      details: { count: 1, usages: [{ kind: 'fileFolder', count: 1 }] },
    });
    expect((await t.request('DELETE', `/api/quickFilter/?quickFilterId=${id}`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('DELETE', `/api/quickFilter/?quickFilterId=${id}`, { token: viewer })).status).toBe(403);
    await t.db.delete(fileFolders).where(eq(fileFolders.id, folder.id));
    expect((await del()).status).toBe(204);
    expect((await del()).status).toBe(404);
    expect((await t.request('GET', `/api/quickFilter/${id}`, { token: viewer })).status).toBe(404);
  });
});

describe('quickFilterCondition', () => {
  function ctxOf(values: { userId: string; email: string; role: UserActor['role']; customerId: number }): ServiceContext {
    const actor: UserActor = {
      kind: 'user',
      ...values,
      name: 'x',
      customerName: 'c',
      isNetworkOwner: false,
      isRestrictedUser: false,
      tokenFamilyId: 'f',
      via: 'bearer',
    };

    return { db: t.db, actor, scope: { kind: 'customer', customerId: values.customerId, explicit: false } } as ServiceContext;
  }
  const editorCtx = () => ctxOf({ userId: editor.id, email: editor.email, role: 'EDITOR', customerId });

  async function namesFor(criteria: Record<string, unknown>): Promise<string[]> {
    const res = await create(fileFilter(`cond ${JSON.stringify(criteria)}`, criteria));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const condition = await quickFilterCondition(t.db, editorCtx(), res.body.id, 'FILE');
    const rows = await t.db.select({ name: files.name }).from(files).where(condition);

    return rows.map((r) => r.name).sort();
  }

  it('compiles every criterion over real file rows, only within the filter tenant', async () => {
    expect(await namesFor({})).toEqual(['Alpha.png', 'alphabet.png', 'beta.png', 'gamma.jpg']);
    expect(await namesFor({ tags: ['promo'] })).toEqual(['Alpha.png', 'beta.png']);
    expect(await namesFor({ tags: ['promo', 'lobby'] })).toEqual(['Alpha.png', 'beta.png', 'gamma.jpg']);
    expect(await namesFor({ name: 'ALPHA' })).toEqual(['Alpha.png', 'alphabet.png']);
    expect(await namesFor({ folderId: f1.id })).toEqual(['beta.png']);
    expect(await namesFor({ folderId: f1.id, searchRecursively: true })).toEqual(['alphabet.png', 'beta.png', 'gamma.jpg']);
    expect(await namesFor({ validFileOnly: true })).toEqual(['beta.png']);
    expect(await namesFor({ validFileOnly: true, isUndefinedValidityValid: true })).toEqual(['Alpha.png', 'beta.png']);
    expect(await namesFor({ search: 'name^gamma|name^beta', tags: ['lobby'] })).toEqual(['beta.png', 'gamma.jpg']);
    expect(await namesFor({ search: 'name:png', folderId: root.id, searchRecursively: true, tags: ['promo', 'lobby'], name: 'a' })).toEqual(
      ['Alpha.png', 'beta.png'],
    );
  });

  it('answers 404 for an unknown id or another tenant, 400 for the wrong type', async () => {
    const fileId = (await create(fileFilter('cond type'))).body.id as string;
    await expect(quickFilterCondition(t.db, editorCtx(), uuidv4(), 'FILE')).rejects.toMatchObject({ status: 404 });
    await expect(quickFilterCondition(t.db, editorCtx(), 'nope', 'FILE')).rejects.toMatchObject({ status: 404 });
    const other = ctxOf({ userId: uuidv4(), email: 'o@example.com', role: 'OWNER', customerId: customerId + 100_000 });
    await expect(quickFilterCondition(t.db, other, fileId, 'FILE')).rejects.toMatchObject({ status: 404 });
    await expect(quickFilterCondition(t.db, editorCtx(), fileId, 'CONTENT')).rejects.toMatchObject({
      status: 400,
      key: 'quickFilter.error.wrongType',
    });
    const deviceId = (await create({ name: 'cond device', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE' } })).body.id as string;
    // Every type has its list now (FILE, CONTENT, DEVICE): a DEVICE filter compiles, and is refused for files.
    await expect(quickFilterCondition(t.db, editorCtx(), deviceId, 'DEVICE')).resolves.toBeDefined();
    await expect(quickFilterCondition(t.db, editorCtx(), deviceId, 'FILE')).rejects.toMatchObject({
      status: 400,
      key: 'quickFilter.error.wrongType',
    });
  });

  it('filters GET /api/v2/file?quickFilterId=, ANDed with search', async () => {
    const id = (await create(fileFilter('list promo', { tags: ['promo'] }))).body.id as string;
    const list = async (query: string, token = viewer) =>
      t.request('GET', `/api/v2/file?select=name&size=100&quickFilterId=${id}${query}`, { token });
    const all = await list('');
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.content.map((x: { name: string }) => x.name).sort()).toEqual(['Alpha.png', 'beta.png']);
    expect((await list(`&search=${encodeURIComponent('name:beta')}`)).body.content.map((x: { name: string }) => x.name)).toEqual([
      'beta.png',
    ]);
    expect((await list('', otherEditor)).status).toBe(404);
    const device = (await create({ name: 'list device', filteredEntityType: 'DEVICE', criteria: { type: 'DEVICE' } })).body.id as string;
    expect((await t.request('GET', `/api/v2/file?quickFilterId=${device}`, { token: viewer })).status).toBe(400);
  });

  it('is one condition the caller ANDs with its own (a raw count agrees)', async () => {
    const id = (await create(fileFilter('cond count', { tags: ['lobby'] }))).body.id as string;
    const condition = await quickFilterCondition(t.db, editorCtx(), id, 'FILE');
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(and(condition, eq(files.fileFolderId, f2.id)));
    expect(row?.n).toBe(1);
  });
});

describe('team visibility', () => {
  const teamIds: Record<string, string> = {};
  let member: { token: string; id: string; email: string };

  beforeAll(async () => {
    for (const name of ['T1', 'T2']) {
      const res = await t.request('POST', '/api/team', { token: owner.token, json: { name } });
      teamIds[name] = res.body.id;
    }
    const m = await t.actor('EDITOR', { customerId });
    member = { token: m.token, id: m.user.id, email: m.user.email };
    const put = await t.request('PUT', `/api/team/updateUserAssignments?teamId=${teamIds.T1}`, {
      token: owner.token,
      json: { resourcesToAdd: [{ id: member.id }] },
    });
    expect(put.status).toBe(200);
  });

  it("hides another team's filter from a member (list, read, write, condition) and marks read-only ones", async () => {
    const hidden = await create(fileFilter('Team 2 only'), owner.token, `?teamIds=${teamIds.T2}:false`);
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    const ro = await create(fileFilter('Team 1 read-only'), owner.token, `?teamIds=${teamIds.T1}:true`);
    const mine = await create(fileFilter('Team 1 writable'), owner.token, `?teamIds=${teamIds.T1}:false`);
    const list = await t.request('GET', '/api/v2/quickFilter?size=1000&select=name,readOnly', { token: member.token });
    const byName = Object.fromEntries((list.body.content as { name: string; readOnly: boolean }[]).map((x) => [x.name, x.readOnly]));
    expect(byName).toEqual({ 'Team 1 read-only': true, 'Team 1 writable': false });
    expect((await t.request('GET', `/api/quickFilter/${hidden.body.id}`, { token: member.token })).status).toBe(404);
    expect((await t.request('GET', `/api/quickFilter/${ro.body.id}`, { token: member.token })).body.readOnly).toBe(true);
    const roPut = await t.request('PUT', `/api/quickFilter?quickFilterId=${ro.body.id}`, { token: member.token, json: { name: 'nope' } });
    expect(roPut.status).toBe(403);
    expect(roPut.body.key).toBe('team.error.readOnly');
    expect(
      (await t.request('PUT', `/api/quickFilter?quickFilterId=${mine.body.id}`, { token: member.token, json: { listed: false } })).status,
    ).toBe(200);
    expect((await t.request('DELETE', `/api/quickFilter?quickFilterId=${hidden.body.id}`, { token: member.token })).status).toBe(404);
    const memberCtx = {
      db: t.db,
      actor: {
        kind: 'user',
        userId: member.id,
        email: member.email,
        name: 'm',
        role: 'EDITOR',
        customerId,
        customerName: 'c',
        isNetworkOwner: false,
        isRestrictedUser: false,
        tokenFamilyId: 'f',
        via: 'bearer',
      },
      scope: { kind: 'customer', customerId, explicit: false },
    } as unknown as ServiceContext;
    await expect(quickFilterCondition(t.db, memberCtx, hidden.body.id, 'FILE')).rejects.toMatchObject({ status: 404 });
    await expect(quickFilterCondition(t.db, memberCtx, ro.body.id, 'FILE')).resolves.toBeDefined();
    // The owner sees all three; the generic team route lists the assignment.
    const teamList = await t.request('GET', `/api/team/quickFilterAssignments?teamId=${teamIds.T1}`, { token: owner.token });
    expect(teamList.body).toEqual(
      expect.arrayContaining([
        { id: ro.body.id, readOnly: true },
        { id: mine.body.id, readOnly: false },
      ]),
    );
  });

  it('a member cannot assign a new filter to a team it is not in', async () => {
    const res = await create(fileFilter('Sneaky'), member.token, `?teamIds=${teamIds.T2}:false`);
    expect(res.status).toBe(403);
    expect((await create(fileFilter('Bad teams'), member.token, '?teamIds=garbage')).status).toBe(400);
  });
});
