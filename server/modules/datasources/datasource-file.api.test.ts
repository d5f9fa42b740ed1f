import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { insertFolder, rootFolderOf } from '@/server/modules/files/files.test-kit';
import { files } from '@/server/modules/files/files.table';
import { contentGroups } from '@/server/modules/folders/folders.table';
import { fileBlobKey } from '@/server/storage/keys';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { customers } from '@/server/tenant/customers.table';
import { refreshDatasource, type RefreshDeps } from './datasource-refresh';
import { datasourceOutbound } from './datasource-refresh.service';
import { startRemote } from './datasources.test-kit';

/*
 * FILE_FROM_URL (spec 5 §2) against a remote on 127.0.0.1: the file lands in the datasource's folder through the
 * upload's own path, is counted in the tenant's storage, replaces itself everywhere it is used when the remote
 * changes, and stays as it is when the remote does not (304, or the same bytes). Refreshes run as the scheduler's do.
 */

let t: TestContext;
let remote: Awaited<ReturnType<typeof startRemote>>;
let customerId: number;
let editor: string;
let otherFolderId: string;
let root: Awaited<ReturnType<typeof rootFolderOf>>;
let deps: RefreshDeps;

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
  remote = await startRemote();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  root = await rootFolderOf(t.db, customerId);
  const other = (await t.factories.customer()).id;
  otherFolderId = (await insertFolder(t.db, await rootFolderOf(t.db, other), 'Theirs')).id;
  deps = { db: t.db, outbound: datasourceOutbound(t.config), log: createLogger('silent'), blobStore: async () => t.storage };
});
afterAll(async () => {
  await remote.close();
  await t.close();
});

/** A small PDF (ASCII only, so the console's text answers compare byte for byte). */
const pdf = (text: string) => `%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`;

const create = (body: Record<string, unknown>) =>
  t.request('POST', '/api/datasource', {
    token: editor,
    json: { sourceType: 'EXTERNAL', structureType: 'KEY_VALUE', type: 'FILE_FROM_URL', ...body },
  });
async function fileDatasource(name: string, url: string, folderId: string): Promise<string> {
  const res = await create({ name, remoteUrl: url, fileFolderId: folderId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body.id as string;
}
const read = async (id: string) => (await t.request('GET', `/api/v2/datasource/${id}`, { token: editor })).body;
const documentOf = async (id: string) => (await t.request('GET', `/api/datasource/${id}/data`, { token: editor })).body;
const filesIn = async (folderId: string) =>
  t.db.select({ id: files.id, name: files.name, size: files.size }).from(files).where(eq(files.fileFolderId, folderId));
const usedStorage = async () =>
  (await t.db.select({ used: customers.usedStorageSize }).from(customers).where(eq(customers.id, customerId)))[0]!.used;
/** The blobs of the customer's files on disk, and the local store's temporary files (none once a write ended). */
async function blobsOnDisk(): Promise<{ files: string[]; temporary: string[] }> {
  const storageRoot = path.join(t.config.dataDir, 'storage');
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);

  return {
    files: await list(path.join(storageRoot, 'customer', String(customerId), 'files')),
    temporary: await list(path.join(storageRoot, '.tmp')),
  };
}
async function bytesOf(fileId: string): Promise<string> {
  const stream = await t.storage.read(fileBlobKey(customerId, fileId));
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);

  return Buffer.concat(chunks).toString('latin1');
}

describe('FILE_FROM_URL datasources', () => {
  it('take a stored folder of the customer: unknown and foreign folders are 404, a filtered one 409, other types none', async () => {
    const folder = await insertFolder(t.db, root, 'Downloads');
    const url = remote.url('/menu.pdf');
    expect((await create({ name: 'Good', remoteUrl: url, fileFolderId: folder.id })).status).toBe(201);
    const unknown = await create({ name: 'Unknown folder', remoteUrl: url, fileFolderId: '0190d9a2-0000-7000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.key).toBe('fileFolder.error.notFound');
    const foreign = await create({ name: 'Foreign folder', remoteUrl: url, fileFolderId: otherFolderId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.key).toBe('fileFolder.error.notFound');
    const filtered = await insertFolder(t.db, root, 'Filtered', { fileFolderType: 2 });
    expect((await create({ name: 'Filtered folder', remoteUrl: url, fileFolderId: filtered.id })).body.key).toBe(
      'fileFolder.error.filtered',
    );
    const missing = await create({ name: 'No folder', remoteUrl: url });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('fileFolderId');
    const json = await t.request('POST', '/api/datasource', {
      token: editor,
      json: {
        name: 'JSON with a folder',
        sourceType: 'EXTERNAL',
        structureType: 'CUSTOM',
        type: 'JSON',
        remoteUrl: url,
        fileFolderId: folder.id,
      },
    });
    expect(json.status).toBe(400);
    expect(json.body.key).toBe('request.error.invalidCombination');
  });

  it('store the file in the folder, replace it everywhere it is used when the remote changes, and count it in the storage', async () => {
    const folder = await insertFolder(t.db, root, 'Menus');
    let served = pdf('Monday');
    let etag = '"v1"';
    remote.routes['/menu.pdf'] = (req, res) => {
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();

        return;
      }
      res.writeHead(200, { 'content-type': 'application/pdf', etag }).end(served);
    };
    const usedBefore = await usedStorage();
    const id = await fileDatasource('Menu of the day', remote.url('/menu.pdf'), folder.id);
    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: true });

    const first = await documentOf(id);
    expect(first).toMatchObject({ name: 'menu.pdf', contentType: 'application/pdf', size: served.length, width: null, height: null });
    expect(first.url).toBe(`/api/storage/customer/${customerId}/files/${first.fileId}`);
    const file = await t.request('GET', `/api/v2/file/${first.fileId}`, { token: editor });
    expect(file.status).toBe(200);
    expect(file.body).toMatchObject({ name: 'menu.pdf', fileFolderId: folder.id, size: served.length, contentType: 'application/pdf' });
    expect(await bytesOf(first.fileId)).toBe(served);
    const download = await t.request('GET', first.url, { token: editor });
    expect(download.status).toBe(200);
    expect(download.body).toBe(served);
    expect(await usedStorage()).toBe(usedBefore + served.length);

    // A slide shows the file; the remote changes: the slide shows the new file, the old one is gone.
    const [contentRoot] = await t.db
      .select()
      .from(contentGroups)
      .where(and(eq(contentGroups.customerId, customerId), isNull(contentGroups.parentId)))
      .limit(1);
    const widget = { id: 'menu', type: 'image', x: 0, y: 0, width: 800, height: 600, zIndex: 1, fileId: first.fileId };
    const slide = await t.request('POST', `/api/content?contentGroupId=${contentRoot!.id}`, {
      token: editor,
      json: {
        name: 'Menu board',
        structureType: 'SLIDE',
        data: { Default: { tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 } }, widgets: [widget] } },
      },
    });
    expect(slide.status, JSON.stringify(slide.body)).toBe(201);

    served = pdf('Tuesday, with soup');
    etag = '"v2"';
    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: true });
    const second = await documentOf(id);
    expect(second.fileId).not.toBe(first.fileId);
    expect(await bytesOf(second.fileId)).toBe(served);
    expect((await t.request('GET', `/api/v2/file/${first.fileId}`, { token: editor })).status).toBe(404);
    expect((await filesIn(folder.id)).map((f) => f.id)).toEqual([second.fileId]);
    const shown = await t.request('GET', `/api/v2/deviceContent/${slide.body.id}`, { token: editor });
    expect(shown.body.data.Default.widgets[0].fileId).toBe(second.fileId);
    expect(await usedStorage()).toBe(usedBefore + served.length);
    // The old bytes go the way of every deleted file's: queued for the storage clean-up job.
    const queued = await t.db
      .select()
      .from(blobCleanup)
      .where(eq(blobCleanup.key, fileBlobKey(customerId, first.fileId)));
    expect(queued).toHaveLength(1);
    expect((await blobsOnDisk()).temporary).toEqual([]);
  });

  it('change nothing when the remote is unchanged: a 304, or a 200 with the same bytes', async () => {
    const folder = await insertFolder(t.db, root, 'Posters');
    const body = pdf('Summer sale');
    let answers304 = true;
    remote.routes['/poster'] = (req, res) => {
      if (answers304 && req.headers['if-none-match'] === '"p1"') {
        res.writeHead(304).end();

        return;
      }
      // No validators the second time: only the bytes can tell they are the same.
      res
        .writeHead(200, answers304 ? { 'content-type': 'application/pdf', etag: '"p1"' } : { 'content-type': 'application/pdf' })
        .end(body);
    };
    const id = await fileDatasource('Poster', remote.url('/poster'), folder.id);
    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: true });
    const first = await documentOf(id);
    // No extension in the address: the bytes name the type.
    expect(first).toMatchObject({ name: 'poster.pdf', contentType: 'application/pdf' });
    const lastUpdated = (await read(id)).lastUpdated;
    const before = await blobsOnDisk();

    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: false });
    answers304 = false;
    expect(await refreshDatasource(deps, id)).toEqual({ ok: true, changed: false });
    expect(remote.requests.filter((r) => r.path === '/poster').map((r) => r.headers['if-none-match'])).toEqual([undefined, '"p1"', '"p1"']);

    expect(await documentOf(id)).toEqual(first);
    expect((await read(id)).lastUpdated).toBe(lastUpdated);
    expect((await filesIn(folder.id)).map((f) => f.id)).toEqual([first.fileId]);
    expect(await blobsOnDisk()).toEqual(before);
  });

  it('fail a download larger than the free storage with a reason, keeping the file and leaving no blob', async () => {
    const folder = await insertFolder(t.db, root, 'Videos');
    remote.routes['/clip.pdf'] = { headers: { 'content-type': 'application/pdf' }, body: pdf('short') };
    const id = await fileDatasource('Clip', remote.url('/clip.pdf'), folder.id);
    expect(await refreshDatasource(deps, id)).toMatchObject({ ok: true });
    const kept = await documentOf(id);
    const used = await usedStorage();
    await t.db
      .update(customers)
      .set({ storageSize: used + 1_000 })
      .where(eq(customers.id, customerId));
    try {
      const before = await blobsOnDisk();
      // Declared: refused before the body is read.
      remote.routes['/clip.pdf'] = { headers: { 'content-type': 'application/pdf' }, body: pdf('x'.repeat(5_000)) };
      const declared = await refreshDatasource(deps, id);
      expect(declared).toMatchObject({ ok: false, error: expect.stringMatching(/free storage/) });
      // Not declared (chunked): the body is cut off at the cap while it streams to storage.
      remote.routes['/clip.pdf'] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write(pdf('y'.repeat(600)));
        res.end(pdf('z'.repeat(600)));
      };
      const streamed = await refreshDatasource(deps, id);
      expect(streamed).toMatchObject({ ok: false, error: expect.stringMatching(/free storage/) });

      expect(await read(id)).toMatchObject({ errorCounter: 2, lastError: expect.stringMatching(/free storage/) });
      expect(await documentOf(id)).toEqual(kept);
      expect((await filesIn(folder.id)).map((f) => f.id)).toEqual([kept.fileId]);
      expect(await blobsOnDisk()).toEqual(before);
      expect(await usedStorage()).toBe(used);
    } finally {
      await t.db.update(customers).set({ storageSize: null }).where(eq(customers.id, customerId));
    }
  });

  it('fail with a readable reason for a refused address, an unsupported type, an HTTP error, a silent server and a deleted folder', async () => {
    const folder = await insertFolder(t.db, root, 'Doomed');
    const metadata = await fileDatasource('Metadata', 'http://169.254.169.254/latest/meta-data', folder.id);
    expect(await refreshDatasource(deps, metadata)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/169\.254\.169\.254|address/i),
    });

    remote.routes['/page'] = { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Sign in</p>' };
    const page = await fileDatasource('Login page', remote.url('/page'), folder.id);
    expect(await refreshDatasource(deps, page)).toMatchObject({ ok: false, error: expect.stringMatching(/supported type.*text\/html/) });
    const missing = await fileDatasource('Missing', remote.url('/nothing.pdf'), folder.id);
    expect(await refreshDatasource(deps, missing)).toMatchObject({ ok: false, error: 'The server answered HTTP 404' });
    remote.routes['/silent.pdf'] = () => undefined; // never answers
    const silent = await fileDatasource('Silent', remote.url('/silent.pdf'), folder.id);
    expect(await refreshDatasource({ ...deps, limits: { headersTimeoutMs: 300 } }, silent)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/did not answer|time/i),
    });
    expect((await filesIn(folder.id)).length).toBe(0);

    expect((await t.request('DELETE', `/api/fileFolder/${folder.id}`, { token: editor })).status).toBe(204);
    expect(await refreshDatasource(deps, page)).toMatchObject({ ok: false, error: expect.stringMatching(/folder.*deleted/) });
    const stored = await read(page);
    expect(stored.fileFolderId ?? null).toBeNull();
    expect(stored).toMatchObject({ errorCounter: 2, lastError: expect.stringMatching(/folder.*deleted/) });
  });

  it('“Test” tells the name, type and declared size without storing a file', async () => {
    const folder = await insertFolder(t.db, root, 'Tested');
    remote.routes['/flyer'] = {
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(pdf('flyer').length),
        'content-disposition': `attachment; filename*=UTF-8''Flyer%20M%C3%A4rz.pdf`,
      },
      body: pdf('flyer'),
    };
    const body = {
      name: 'Flyer',
      sourceType: 'EXTERNAL',
      structureType: 'KEY_VALUE',
      type: 'FILE_FROM_URL',
      remoteUrl: remote.url('/flyer'),
    };
    const res = await t.request('POST', '/api/datasource/test', { token: editor, json: { ...body, fileFolderId: folder.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, document: { name: 'Flyer März.pdf', contentType: 'application/pdf', size: pdf('flyer').length } });
    expect(await filesIn(folder.id)).toEqual([]);
    const html = await t.request('POST', '/api/datasource/test', {
      token: editor,
      json: { ...body, remoteUrl: remote.url('/page'), fileFolderId: folder.id },
    });
    expect(html.body).toMatchObject({ ok: false, error: expect.stringMatching(/supported type/) });
  });
});
