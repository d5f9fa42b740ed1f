import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { folderTestKit, type Folder, type FolderTestKit } from './file-folders.test-kit';

let k: FolderTestKit;
let t: FolderTestKit['t'];
let customerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;
let rootId: string;
const insertFile: FolderTestKit['insertFile'] = (folder, values) => k.insertFile(folder, values);
const create: FolderTestKit['create'] = (...args) => k.create(...args);
const createOk: FolderTestKit['createOk'] = (parentId, name) => k.createOk(parentId, name);
const names: FolderTestKit['names'] = (token, query) => k.names(token, query);

beforeAll(async () => {
  k = await folderTestKit();
  ({ t, customerId, editor, viewer, otherEditor, rootId } = k);
});
afterAll(() => t.close());

describe('create, list, read', () => {
  let a: Folder;
  let b: Folder;
  let c: Folder;

  beforeAll(async () => {
    a = await createOk(rootId, 'Alpha');
    b = await createOk(a.id, 'Beta');
    c = await createOk(b.id, 'Gamma');
  });

  it('creates nested folders with their materialised path, audited', async () => {
    expect(c.path).toEqual([rootId, a.id, b.id, c.id]);
    expect(c.parentId).toBe(b.id);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, a.id), eq(auditLog.action, 'create')));
    expect(entry?.entityType).toBe('fileFolder');
  });

  it('answers the created folder in the read shape', async () => {
    const res = await create(editor, a.id, 'Delta', '&cleanupOutdatedFiles=true');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Delta',
      parentId: a.id,
      customerId,
      fileFolderType: 1,
      cleanupOutdatedFiles: true,
      syncType: 'NOT_SYNCED',
    });
    expect(res.body.fileFolderPath).toBe(`${rootId}/${a.id}/${res.body.id}`);
    expect(typeof res.body.lastChange).toBe('number');
  });

  it('refuses a duplicate sibling name (case-insensitive) with 409, but allows it elsewhere', async () => {
    const res = await create(editor, rootId, 'ALPHA');
    expect(res.status).toBe(409);
    expect(res.body.key).toBe('fileFolder.error.duplicateName');
    expect((await create(editor, b.id, 'Alpha')).status).toBe(201);
  });

  it('validates its query: name and parentId are required', async () => {
    expect((await t.request('POST', `/api/fileFolder?parentId=${rootId}`, { token: editor })).status).toBe(400);
    expect((await t.request('POST', `/api/fileFolder?name=x`, { token: editor })).status).toBe(400);
    expect((await create(editor, 'not-a-uuid', 'x')).status).toBe(400);
    expect((await create(editor, rootId, '   ')).status).toBe(400);
  });

  it("refuses a VIEWER (403) and another tenant's parent (404)", async () => {
    const res = await create(viewer, rootId, 'Nope');
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('auth.error.roleRequired');
    const other = await create(otherEditor, a.id, 'Intruder');
    expect(other.status).toBe(404);
    expect(other.body.key).toBe('fileFolder.error.notFound');
  });

  it('lists recursively by fileFolderPath, directly by parentId, and the root by parentId=NULL', async () => {
    expect(await names(viewer, `search=fileFolderPath:${b.id}`)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names(viewer, `search=parentId=${a.id}`)).toEqual(['Beta', 'Delta']);
    const res = await t.request('GET', '/api/v2/fileFolder?search=parentId=NULL', { token: viewer });
    expect(res.body.totalElements).toBe(1);
    expect(res.body.content[0].id).toBe(rootId);
    expect(res.body.content[0].name).toBeUndefined();
    expect(res.body.content[0].parentId).toBeUndefined();
  });

  it('sorts and pages', async () => {
    const res = await t.request('GET', `/api/v2/fileFolder?search=fileFolderPath:${a.id}&sort=name,desc&size=2&select=name`, {
      token: viewer,
    });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(5);
    expect(res.body.content.map((f: { name: string }) => f.name)).toEqual(['Gamma', 'Delta']);
  });

  it("never lists another tenant's folders", async () => {
    const res = await t.request('GET', `/api/v2/fileFolder?search=fileFolderPath:${a.id}`, { token: otherEditor });
    expect(res.body.totalElements).toBe(0);
  });

  it('computes fileCount (files directly in the folder) and firstFileThumbnail only when selected', async () => {
    await insertFile(b, { name: 'b.png' });
    await insertFile(b, { name: 'a.png' });
    const withThumb = await insertFile(b, { name: 'c.png', lastPreviewUploadTime: new Date() });
    await insertFile(c, { name: 'deeper.png', lastPreviewUploadTime: new Date() });
    const plain = await t.request('GET', `/api/v2/fileFolder/${b.id}`, { token: viewer });
    expect(plain.status).toBe(200);
    expect(plain.body.fileCount).toBeUndefined();
    const res = await t.request('GET', `/api/v2/fileFolder/${b.id}?select=name,fileCount,firstFileThumbnail`, { token: viewer });
    expect(res.body).toMatchObject({
      id: b.id,
      name: 'Beta',
      fileCount: 3,
      firstFileThumbnail: expect.stringMatching(new RegExp(`^/api/storage/customer/${customerId}/files/${withThumb.id}\\.tmb\\?v=\\d+$`)),
    });
    const empty = await t.request('GET', `/api/v2/fileFolder/${a.id}?select=fileCount,firstFileThumbnail`, { token: viewer });
    expect(empty.body).toMatchObject({ fileCount: 0, firstFileThumbnail: null });
    const sorted = await t.request('GET', `/api/v2/fileFolder?search=fileFolderPath:${a.id}&sort=fileCount,desc&select=fileCount`, {
      token: viewer,
    });
    expect(sorted.body.content[0]).toMatchObject({ id: b.id, fileCount: 3 });
  });

  it("reads one folder; another tenant's or an unknown id is 404; a bad id 400", async () => {
    expect((await t.request('GET', `/api/v2/fileFolder/${c.id}`, { token: viewer })).body).toMatchObject({
      id: c.id,
      name: 'Gamma',
      parentId: b.id,
    });
    expect((await t.request('GET', `/api/v2/fileFolder/${c.id}`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/fileFolder/${uuidv7()}`, { token: viewer })).status).toBe(404);
    expect((await t.request('GET', '/api/v2/fileFolder/xyz', { token: viewer })).status).toBe(400);
  });

  it('answers the breadcrumb root first', async () => {
    const res = await t.request('GET', `/api/fileFolder/breadcrumb?folderId=${c.id}`, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body.fileFolders.map((f: { id: string }) => f.id)).toEqual([rootId, a.id, b.id, c.id]);
    expect(res.body.fileFolders[0].name).toBeUndefined();
    expect((await t.request('GET', `/api/fileFolder/breadcrumb?folderId=${c.id}`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('GET', '/api/fileFolder/breadcrumb', { token: viewer })).status).toBe(400);
  });

  it('renames; refuses the root, a duplicate, a VIEWER and another tenant', async () => {
    const res = await t.request('POST', `/api/fileFolder/rename?folderId=${c.id}&newName=Gamma2`, { token: editor });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: c.id, name: 'Gamma2' });
    const root = await t.request('POST', `/api/fileFolder/rename?folderId=${rootId}&newName=Top`, { token: editor });
    expect(root.status).toBe(409);
    expect(root.body.key).toBe('fileFolder.error.root');
    expect((await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}&newName=alpha`, { token: editor })).status).toBe(200);
    const dup = await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}&newName=Delta`, { token: editor });
    expect(dup.status).toBe(200); // Delta is a child of Alpha, not a sibling
    await createOk(rootId, 'Sibling');
    const clash = await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}&newName=sibling`, { token: editor });
    expect(clash.status).toBe(409);
    expect(clash.body.key).toBe('fileFolder.error.duplicateName');
    expect((await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}&newName=x`, { token: viewer })).status).toBe(403);
    expect((await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}&newName=x`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('POST', `/api/fileFolder/rename?folderId=${a.id}`, { token: editor })).status).toBe(400);
  });
});
