import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { tags as tagTable } from '@/server/modules/tags/tags.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { insertFile, insertFolder, rootFolderOf } from './files.test-kit';
import { files, type FileRow } from './files.table';

let t: TestContext;
let customerId: number;
let editor: string;
let viewer: string;
let otherOwner: string;
let otherFile: FileRow;
type Folder = { id: string; customerId: number; path: string[] };
let root: Folder;
let sub: Folder;
let subSub: Folder;
const f = {} as Record<'alpha' | 'beta' | 'gamma', FileRow>;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  await t.actor('OWNER', { customerId });
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  root = await rootFolderOf(t.db, customerId);
  sub = await insertFolder(t.db, root, 'Sub');
  subSub = await insertFolder(t.db, sub, 'SubSub');
  f.alpha = await insertFile(t.db, root, {
    name: 'alpha.png',
    tags: ['red'],
    width: 1920,
    height: 1080,
    size: 300,
    crcCheckSum: 'aaaa0001',
    lastPreviewUploadTime: new Date(),
  });
  f.beta = await insertFile(t.db, sub, {
    name: 'beta.jpg',
    contentType: 'image/jpeg',
    tags: ['blue'],
    width: 1080,
    height: 1920,
    size: 100,
  });
  f.gamma = await insertFile(t.db, subSub, {
    name: 'gamma.mp4',
    contentType: 'video/mp4',
    tags: ['red', 'blue'],
    size: 200,
    crcCheckSum: 'aaaa0001',
  });

  const other = await t.factories.customer();
  otherOwner = (await t.actor('OWNER', { customerId: other.id })).token;
  otherFile = await insertFile(t.db, await rootFolderOf(t.db, other.id), { name: 'alpha-other.png', tags: ['red'] });
});
afterAll(() => t.close());

const names = (body: { content: { name: string }[] }) => body.content.map((x) => x.name);

async function list(query: string, token = viewer) {
  const res = await t.request('GET', `/api/v2/file?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body;
}

describe('GET /api/v2/file', () => {
  it("lists the tenant's files by name (id last), never another tenant's", async () => {
    const body = await list('');
    expect(names(body)).toEqual(['alpha.png', 'beta.jpg', 'gamma.mp4']);
    expect(body.totalElements).toBe(3);
    expect(body.content[0]).toMatchObject({
      id: f.alpha.id,
      customerId,
      fileFolderId: root.id,
      creator: { email: 'creator@example.com', name: 'Creator' },
    });
    expect(body.content[0].usageDetails).toBeUndefined();
  });

  it('searches by name, tags and folder (recursive fileFolderPath, direct fileFolderId)', async () => {
    expect(names(await list('search=name:lph'))).toEqual(['alpha.png']);
    expect(names(await list('search=tags:red'))).toEqual(['alpha.png', 'gamma.mp4']);
    expect(names(await list(`search=${encodeURIComponent('tags∈blue%2Cred')}`))).toEqual(['alpha.png', 'beta.jpg', 'gamma.mp4']);
    expect(names(await list(`search=fileFolderPath:${sub.id}`))).toEqual(['beta.jpg', 'gamma.mp4']);
    expect(names(await list(`search=fileFolderPath:${root.id}`))).toEqual(['alpha.png', 'beta.jpg', 'gamma.mp4']);
    expect(names(await list(`search=fileFolderId=${sub.id}`))).toEqual(['beta.jpg']);
    expect(names(await list('search=orientation=portrait'))).toEqual(['beta.jpg']);
  });

  it('matches strings case-sensitively (spec 1), and ignoring case only with the ~ extension', async () => {
    const search = async (expression: string) => names(await list(`search=${encodeURIComponent(expression)}`));
    expect(await search('name:ALP')).toEqual([]);
    expect(await search('name:Alpha')).toEqual([]);
    expect(await search('name:alpha')).toEqual(['alpha.png']);
    expect(await search('name^Alpha')).toEqual([]);
    expect(await search('name^alpha')).toEqual(['alpha.png']);
    expect(await search('name∉ALPHA')).toEqual(['alpha.png', 'beta.jpg', 'gamma.mp4']);
    expect(await search('name∉alpha')).toEqual(['beta.jpg', 'gamma.mp4']);
    expect(await search('name~ALP')).toEqual(['alpha.png']);
    expect(await search('name~A|name~JPG')).toEqual(['alpha.png', 'beta.jpg', 'gamma.mp4']);
    expect(await search('name~%25')).toEqual([]);
    const tagged = await t.request('GET', `/api/v2/file?search=${encodeURIComponent('tags~red')}`, { token: viewer });
    expect(tagged.body).toMatchObject({ status: 400, key: 'search.error.invalidOperator' });
  });

  it('answers 400 with the position for an unescaped parenthesis, deep nesting and long input', async () => {
    const bad = async (query: string) => {
      const res = await t.request('GET', `/api/v2/file?${query}`, { token: viewer });
      expect(res.status, query.slice(0, 40)).toBe(400);

      return res.body;
    };
    expect(await bad(`search=${encodeURIComponent('name:(')}`)).toMatchObject({
      key: 'search.error.syntax',
      details: { position: 5, token: '(' },
    });
    expect(await bad(`search=${encodeURIComponent('name:a)')}`)).toMatchObject({
      key: 'search.error.syntax',
      details: { position: 6, token: ')' },
    });
    expect(names(await list(`search=${encodeURIComponent('name:alpha%28')}`))).toEqual([]);
    const deep = `${'('.repeat(4000)}name:a${')'.repeat(4000)}`;
    expect(await bad(`search=${encodeURIComponent(deep)}`)).toMatchObject({
      key: 'search.error.tooDeep',
      details: { position: 32, limit: 32 },
    });
    expect(await bad(`search=name:${'a'.repeat(20_000)}`)).toMatchObject({ key: 'search.error.tooLong', details: { position: 16_384 } });
    expect(await bad(`select=${Array.from({ length: 2000 }, () => 'name').join(',')}`)).toMatchObject({ key: 'select.error.tooLong' });
    expect(await bad(Array.from({ length: 40 }, () => 'sort=name').join('&'))).toMatchObject({ key: 'sort.error.tooMany' });
  });

  it('selects computed fields', async () => {
    const body = await list('select=name,orientation,location,thumbnail,fileFolderPath,createDate,isCloudAFile&sort=name,asc');
    const [alpha, beta, gamma] = body.content;
    expect(alpha).toEqual({
      id: f.alpha.id,
      name: 'alpha.png',
      orientation: 'landscape',
      location: `/api/storage/customer/${customerId}/files/${f.alpha.id}`,
      thumbnail: expect.stringMatching(new RegExp(`^/api/storage/customer/${customerId}/files/${f.alpha.id}\\.tmb\\?v=\\d+$`)),
      fileFolderPath: root.id,
      createDate: f.alpha.createdDate.getTime(),
      isCloudAFile: false,
    });
    // The path is a string (spec 2): the folder ids from the root down, joined by '/'.
    expect(beta).toMatchObject({ orientation: 'portrait', fileFolderPath: `${root.id}/${sub.id}` });
    expect(gamma).toMatchObject({ fileFolderPath: `${root.id}/${sub.id}/${subSub.id}` });
    // No thumbnail uploaded, no dimensions: asked-for nulls are answered as null.
    expect(gamma).toMatchObject({ thumbnail: null, orientation: null });
  });

  it('selects usage and duplicate details (select-only)', async () => {
    const body = await list(
      `select=name,usageDetails,duplicateDetails,campaignUsageDetails,topLevelCampaignUsageDetails,messageUsageDetails&search=id=${f.alpha.id}`,
    );
    expect(body.content[0]).toEqual({
      id: f.alpha.id,
      name: 'alpha.png',
      usageDetails: { contentUsage: [] },
      duplicateDetails: [
        { id: f.gamma.id, name: 'gamma.mp4', fileFolderId: subSub.id, size: 200, createDate: f.gamma.createdDate.getTime() },
      ],
      campaignUsageDetails: [],
      topLevelCampaignUsageDetails: [],
      messageUsageDetails: [],
    });
    const beta = await list(`select=duplicateDetails&search=id=${f.beta.id}`);
    expect(beta.content[0].duplicateDetails).toEqual([]);
  });

  it('sorts and pages', async () => {
    expect(names(await list('sort=size,desc&select=name'))).toEqual(['alpha.png', 'gamma.mp4', 'beta.jpg']);
    const page = await list('sort=size,asc&size=2&page=1&select=name');
    expect(names(page)).toEqual(['alpha.png']);
    expect(page).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, last: true });
  });

  it('applies quickFilterId (ANDed with search); unknown filter 404', async () => {
    const { quickFilters } = await import('@/server/modules/quick-filters/quick-filters.table');
    const id = uuidv7();
    const criteria = { type: 'FILE', tags: ['red'], folderId: sub.id, searchRecursively: true };
    await t.db.insert(quickFilters).values({ id, customerId, name: 'red below sub', filteredEntityType: 'FILE', criteria });
    expect(names(await list(`quickFilterId=${id}`))).toEqual(['gamma.mp4']);
    expect(names(await list(`quickFilterId=${id}&search=name:alpha`))).toEqual([]);
    expect((await t.request('GET', `/api/v2/file?quickFilterId=${uuidv7()}`, { token: viewer })).status).toBe(404);
  });

  it('answers 400 for bad search, select, sort and paging', async () => {
    for (const query of ['search=nope:1', 'select=nope', 'sort=location,asc', 'size=0', 'search=fileFolderPath:not-a-uuid']) {
      const res = await t.request('GET', `/api/v2/file?${query}`, { token: viewer });
      expect(res.status, query).toBe(400);
    }
  });
});

describe('GET /api/v2/file/{id}', () => {
  it('answers one file with readOnly, honouring select', async () => {
    const res = await t.request('GET', `/api/v2/file/${f.beta.id}`, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: f.beta.id,
      name: 'beta.jpg',
      readOnly: false,
      tags: ['blue'],
      creator: { email: 'creator@example.com' },
    });
    const picked = await t.request('GET', `/api/v2/file/${f.beta.id}?select=name,creator(name)`, { token: viewer });
    expect(picked.body).toEqual({ id: f.beta.id, name: 'beta.jpg', creator: { name: 'Creator' }, readOnly: false });
    const anonymous = await insertFile(t.db, root, { name: 'anonymous.png', creatorEmail: null, creatorName: null });
    const noCreator = await t.request('GET', `/api/v2/file/${anonymous.id}`, { token: viewer });
    expect(noCreator.body.creator).toBeUndefined();
    expect(
      (await t.request('GET', `/api/v2/file?select=name&search=${encodeURIComponent('creator=NULL')}`, { token: viewer })).body.content,
    ).toEqual([{ id: anonymous.id, name: 'anonymous.png' }]);
    await t.db.delete(files).where(eq(files.id, anonymous.id));
  });

  it("answers 404 for another tenant's file and 400 for a malformed id", async () => {
    expect((await t.request('GET', `/api/v2/file/${otherFile.id}`, { token: viewer })).status).toBe(404);
    expect((await t.request('GET', '/api/v2/file/not-a-uuid', { token: viewer })).status).toBe(400);
  });
});

describe('PUT /api/file/{fileId}', () => {
  it('changes the given fields, keeps null/omitted ones, registers tags and writes an audit entry', async () => {
    const file = await insertFile(t.db, root, { name: 'put.png', tags: ['keep'], metaData: { a: 1 } });
    const res = await t.request('PUT', `/api/file/${file.id}`, {
      token: editor,
      json: { name: 'renamed.png', tags: ['new-tag', 'new-tag', 'other'], validFrom: 1_000, validTo: 2_000, metaData: null, muted: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: file.id,
      name: 'renamed.png',
      tags: ['new-tag', 'other'],
      validFrom: 1_000,
      validTo: 2_000,
      metaData: { a: 1 },
      muted: true,
    });
    const registered = await t.db
      .select()
      .from(tagTable)
      .where(and(eq(tagTable.customerId, customerId), eq(tagTable.tagType, 'FILE')));
    expect(registered.map((r) => r.tag)).toEqual(expect.arrayContaining(['new-tag', 'other']));
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, file.id), eq(auditLog.action, 'update')));
    expect(entry?.entityType).toBe('file');

    const partial = await t.request('PUT', `/api/file/${file.id}`, { token: editor, json: { validFrom: 1_500 } });
    expect(partial.body).toMatchObject({ name: 'renamed.png', validFrom: 1_500, validTo: 2_000 });
  });

  it('answers 400 for a bad body, tag or validity window', async () => {
    for (const json of [{ validFrom: 3_000 }, { tags: ['bad tag'] }, { name: '' }, { validTo: 'soon' }]) {
      const res = await t.request('PUT', `/api/file/${f.alpha.id}`, { token: editor, json: { validTo: 2_500, ...json } });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });

  it("answers 403 to a VIEWER and 404 for another tenant's file", async () => {
    expect((await t.request('PUT', `/api/file/${f.alpha.id}`, { token: viewer, json: { muted: true } })).status).toBe(403);
    expect((await t.request('PUT', `/api/file/${otherFile.id}`, { token: editor, json: { muted: true } })).status).toBe(404);
  });
});

describe('POST /api/file/rename', () => {
  it('renames; refuses an empty or too long name; 404 for another tenant', async () => {
    const file = await insertFile(t.db, root, { name: 'old.png' });
    const res = await t.request('POST', `/api/file/rename?fileId=${file.id}&newName=${encodeURIComponent('new name.png')}`, {
      token: editor,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, name: 'new name.png' });
    expect((await t.request('POST', `/api/file/rename?fileId=${file.id}&newName=`, { token: editor })).status).toBe(400);
    expect((await t.request('POST', `/api/file/rename?fileId=${file.id}&newName=${'x'.repeat(256)}`, { token: editor })).status).toBe(400);
    expect((await t.request('POST', `/api/file/rename?fileId=${otherFile.id}&newName=x`, { token: editor })).status).toBe(404);
    expect((await t.request('POST', `/api/file/rename?fileId=${file.id}&newName=x`, { token: viewer })).status).toBe(403);
  });
});

describe('DELETE /api/file/{fileId}', () => {
  it('deletes the row, queues its blobs and returns the quota', async () => {
    const file = await insertFile(t.db, sub, { name: 'doomed.png', size: 5_000 });
    const { customers } = await import('@/server/tenant/customers.table');
    await t.db.update(customers).set({ usedStorageSize: 10_000 }).where(eq(customers.id, customerId));
    const res = await t.request('DELETE', `/api/file/${file.id}`, { token: editor });
    expect(res.status).toBe(204);
    expect((await t.request('GET', `/api/v2/file/${file.id}`, { token: viewer })).status).toBe(404);
    const { blobCleanup } = await import('@/server/storage/storage.table');
    const keys = (await t.db.select().from(blobCleanup)).map((r) => r.key);
    expect(keys).toEqual(
      expect.arrayContaining([`customer/${customerId}/files/${file.id}`, `customer/${customerId}/files/${file.id}.tmb`]),
    );
    const [customer] = await t.db.select().from(customers).where(eq(customers.id, customerId));
    expect(customer!.usedStorageSize).toBe(5_000);
  });

  it("answers 404 for another tenant's file or an unknown one, 403 to a VIEWER", async () => {
    expect((await t.request('DELETE', `/api/file/${otherFile.id}`, { token: editor })).status).toBe(404);
    expect((await t.request('DELETE', `/api/file/${f.alpha.id}`, { token: viewer })).status).toBe(403);
    expect((await t.request('DELETE', `/api/file/${otherFile.id}`, { token: otherOwner })).status).toBe(204);
    expect((await t.request('DELETE', `/api/file/${otherFile.id}`, { token: otherOwner })).status).toBe(404);
    otherFile = await insertFile(t.db, await rootFolderOf(t.db, otherFile.customerId), { name: 'alpha-other.png', tags: ['red'] });
  });
});
