import { and, eq, inArray } from 'drizzle-orm';
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
let approver: string;
let otherFile: FileRow;
type Folder = { id: string; customerId: number; path: string[] };
let root: Folder;
let sub: Folder;
let a: FileRow;
let b: FileRow;
let c: FileRow;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  approver = (await t.actor('APPROVER', { customerId })).token;
  root = await rootFolderOf(t.db, customerId);
  sub = await insertFolder(t.db, root, 'Sub');
  a = await insertFile(t.db, root, { name: 'a.png', tags: ['x'] });
  b = await insertFile(t.db, sub, { name: 'b.png', tags: ['y'] });
  c = await insertFile(t.db, sub, { name: 'c.png', tags: [] });
  const other = await t.factories.customer();
  otherFile = await insertFile(t.db, await rootFolderOf(t.db, other.id), { name: 'o.png', tags: ['x'] });
});
afterAll(() => t.close());

async function tagsOf(...rows: FileRow[]) {
  const found = await t.db
    .select({ id: files.id, tags: files.tags })
    .from(files)
    .where(
      inArray(
        files.id,
        rows.map((r) => r.id),
      ),
    );

  return rows.map((r) => found.find((x) => x.id === r.id)!.tags);
}

describe('POST /api/v2/file/tags/{add,set,remove}', () => {
  it('adds tags to the files matching search, counting only changed files, and registers them', async () => {
    const res = await t.request('POST', `/api/v2/file/tags/add?search=${encodeURIComponent(`fileFolderPath:${sub.id}`)}`, {
      token: editor,
      json: ['z', 'y'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    expect(await tagsOf(a, b, c, otherFile)).toEqual([['x'], ['y', 'z'], ['z', 'y'], ['x']]);
    const again = await t.request('POST', `/api/v2/file/tags/add?search=${encodeURIComponent(`fileFolderPath:${sub.id}`)}`, {
      token: editor,
      json: ['z'],
    });
    expect(again.body).toEqual({ updated: 0 });
    const registered = await t.db
      .select()
      .from(tagTable)
      .where(and(eq(tagTable.customerId, customerId), eq(tagTable.tagType, 'FILE')));
    expect(registered.map((r) => r.tag).sort()).toEqual(['y', 'z']);
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'addTags'));
    expect(entry).toMatchObject({ entityType: 'file', customerId });
  });

  it('removes tags; without search it applies to every file of the tenant only', async () => {
    const res = await t.request('POST', '/api/v2/file/tags/remove', { token: editor, json: ['x', 'z'] });
    expect(res.body).toEqual({ updated: 3 });
    expect(await tagsOf(a, b, c, otherFile)).toEqual([[], ['y'], ['y'], ['x']]);
  });

  it('sets tags on the matching files', async () => {
    const res = await t.request('POST', '/api/v2/file/tags/set?search=name:a.png', { token: editor, json: ['only'] });
    expect(res.body).toEqual({ updated: 1 });
    expect(await tagsOf(a, b)).toEqual([['only'], ['y']]);
  });

  it("refuses an add that would take one file's tags past 2048 characters, changing nothing", async () => {
    const long = await insertFile(t.db, root, { name: 'long.png', tags: ['t'.repeat(2040)] });
    const res = await t.request('POST', '/api/v2/file/tags/add?search=name:.png', { token: editor, json: ['abcdefgh'] });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('tag.error.invalid');
    expect(await tagsOf(long, a)).toEqual([['t'.repeat(2040)], ['only']]);
    await t.db.delete(files).where(eq(files.id, long.id));
  });

  it('answers 400 for an invalid tag or search, 403 to a VIEWER', async () => {
    expect((await t.request('POST', '/api/v2/file/tags/add', { token: editor, json: ['bad tag'] })).status).toBe(400);
    expect((await t.request('POST', '/api/v2/file/tags/add', { token: editor, json: 'x' })).status).toBe(400);
    expect((await t.request('POST', '/api/v2/file/tags/set?search=nope:1', { token: editor, json: ['x'] })).status).toBe(400);
    expect((await t.request('POST', '/api/v2/file/tags/add', { token: viewer, json: ['x'] })).status).toBe(403);
  });
});

describe('POST /api/v2/file/validity/set', () => {
  it('sets and clears the validity window of the matching files', async () => {
    const res = await t.request(
      'POST',
      `/api/v2/file/validity/set?search=${encodeURIComponent(`fileFolderId=${sub.id}`)}&validFrom=1000&validTo=5000`,
      { token: approver },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    const list = await t.request('GET', '/api/v2/file?select=name,validFrom,validTo&sort=name', { token: viewer });
    expect(list.body.content.map((x: { name: string; validFrom?: number; validTo?: number }) => [x.name, x.validFrom, x.validTo])).toEqual([
      ['a.png', null, null],
      ['b.png', 1000, 5000],
      ['c.png', 1000, 5000],
    ]);
    const cleared = await t.request('POST', '/api/v2/file/validity/set?search=name:b.png&validFrom=2000', { token: approver });
    expect(cleared.body).toEqual({ updated: 1 });
    const [row] = await t.db.select().from(files).where(eq(files.id, b.id));
    expect([row!.validFrom?.getTime(), row!.validTo]).toEqual([2000, null]);
  });

  it('answers 400 when validFrom is after validTo or not a number, 403 to an EDITOR', async () => {
    expect((await t.request('POST', '/api/v2/file/validity/set?validFrom=5000&validTo=1000', { token: approver })).status).toBe(400);
    expect((await t.request('POST', '/api/v2/file/validity/set?validFrom=soon', { token: approver })).status).toBe(400);
    expect((await t.request('POST', '/api/v2/file/validity/set?validFrom=1', { token: editor })).status).toBe(403);
  });
});
