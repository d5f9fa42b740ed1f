import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyActor } from '@/server/context/actor';
import type { ServiceContext } from '@/server/context/service-context';
import { customerScope } from '@/server/context/tenant-scope';
import type { Database } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import { createLogger } from '@/server/logger';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { files } from '@/server/modules/files/files.table';
import { fileFolders } from '@/server/modules/folders/folders.table';
import { teamAssignments, teams } from '@/server/modules/teams/teams.table';
import { createOutboundClient, type OutboundClient } from '@/server/outbound';
import { startServer, type TestServer } from '@/server/outbound/outbound.test-kit';
import { fileBlobKey } from '@/server/storage/keys';
import { blobCleanup } from '@/server/storage/storage.table';
import { customers } from '@/server/tenant/customers.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { discardDownloadedFile, downloadFileForFolder, storeDownloadedFile, type DownloadedFile } from './index';
import { createFolder, png } from './uploads.test-kit';

/*
 * A webhook's UPLOAD_FILE_TO_FOLDER (spec 5 §4) as the lead's executor runs it, against a server on 127.0.0.1: the
 * download outside any transaction as the key, then the file in the execution's transaction.
 */

let t: TestContext;
let remote: TestServer;
let outbound: OutboundClient;
let customerId: number;
/** What the remote answers, by path. */
const routes = new Map<string, { status?: number; headers?: Record<string, string>; body: Buffer | string }>();

beforeAll(async () => {
  t = await createTestContext({ ALLOW_PRIVATE_NETWORK_FETCH: 'true' });
  // As the lead builds it: the guarded client from the configuration.
  outbound = createOutboundClient({ allowPrivateNetwork: t.config.allowPrivateNetworkFetch });
  remote = await startServer((request, response) => {
    const route = routes.get((request.url ?? '/').split('?')[0]!);
    if (!route) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    response.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body);
  });
  customerId = (await t.factories.customer()).id;
});
afterAll(async () => {
  await outbound.close();
  await remote.close();
  await t.close();
});
beforeEach(async () => {
  await t.db.update(customers).set({ storageSize: null }).where(eq(customers.id, customerId));
});

function keyActor(input: { restricted?: boolean; id?: string; customer?: number } = {}): ApiKeyActor {
  return {
    kind: 'apiKey',
    apiKeyId: input.id ?? uuidv7(),
    name: 'Poster drop',
    customerId: input.customer ?? customerId,
    customerName: 'Test customer',
    scopes: ['WEBHOOK_CALL'],
    restricted: input.restricted ?? false,
  };
}

function contextOf(db: Database, actor: ApiKeyActor = keyActor()): ServiceContext<ApiKeyActor> {
  return {
    db,
    config: t.config,
    storage: t.storage,
    actor,
    scope: customerScope(actor.customerId),
    requestId: 'webhook-test',
    log: createLogger('silent'),
    proof: {},
  };
}

const download = (input: { folderId: string; url: string; name?: string }, actor?: ApiKeyActor) =>
  downloadFileForFolder(contextOf(t.db, actor), { outbound }, input);
/** Phase two as the executor runs it: inside its open transaction. */
const store = (file: DownloadedFile, actor?: ApiKeyActor) => withTransaction(t.db, (tx) => storeDownloadedFile(contextOf(tx, actor), file));

const filesIn = (folderId: string) =>
  t.db.select({ id: files.id, name: files.name, size: files.size }).from(files).where(eq(files.fileFolderId, folderId));
const usedStorage = async () =>
  (await t.db.select({ used: customers.usedStorageSize }).from(customers).where(eq(customers.id, customerId)))[0]!.used;

/** The customer's blobs on disk and the local store's temporary files (none once a write ended). */
async function blobsOnDisk(): Promise<{ files: string[]; temporary: string[] }> {
  const root = path.join(t.config.dataDir, 'storage');
  const list = (dir: string) => readdir(dir).catch(() => [] as string[]);

  return {
    files: (await list(path.join(root, 'customer', String(customerId), 'files'))).sort(),
    temporary: await list(path.join(root, '.tmp')),
  };
}

async function bytesOf(fileId: string): Promise<Buffer> {
  const stream = await t.storage.read(fileBlobKey(customerId, fileId));
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);

  return Buffer.concat(chunks);
}

describe('UPLOAD_FILE_TO_FOLDER', () => {
  it('stores exactly the served bytes as a file of the folder, counted, audited as the key', async () => {
    const folderId = await createFolder(t, customerId, 'Posters');
    const served = png(40, 30, 5_000);
    routes.set('/media/poster.png', { headers: { 'content-type': 'image/png' }, body: served });
    const usedBefore = await usedStorage();

    const downloaded = await download({ folderId, url: `${remote.origin}/media/poster.png` });
    expect(downloaded).toMatchObject({ customerId, folderId, name: 'poster.png', contentType: 'image/png', width: 40, height: 30 });
    // Not yet a file: the blob waits for phase two, its clean-up entry keeping it safe from a crash meanwhile.
    expect(await filesIn(folderId)).toEqual([]);
    const key = fileBlobKey(customerId, downloaded.blob.id);
    expect(await t.db.select().from(blobCleanup).where(eq(blobCleanup.key, key))).toHaveLength(1);

    const stored = await store(downloaded);
    expect(stored).toEqual({ fileId: downloaded.blob.id, name: 'poster.png' });
    expect(await filesIn(folderId)).toEqual([{ id: stored.fileId, name: 'poster.png', size: served.length }]);
    expect((await bytesOf(stored.fileId)).equals(served)).toBe(true);
    expect(await usedStorage()).toBe(usedBefore + served.length);
    expect(await t.db.select().from(blobCleanup).where(eq(blobCleanup.key, key))).toEqual([]);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'file'), eq(auditLog.entityId, stored.fileId)));
    expect(entry).toMatchObject({ action: 'create', actorKind: 'apiKey', actorName: 'Poster drop', userId: null, customerId });
    expect((await blobsOnDisk()).temporary).toEqual([]);
  });

  it('names the file by `name`, else by the Content-Disposition, else by the last segment of the address', async () => {
    const folderId = await createFolder(t, customerId, 'Menus');
    const pdf = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
    routes.set('/export', {
      headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''Men%C3%BC.pdf` },
      body: pdf,
    });
    routes.set('/files/today', { headers: { 'content-type': 'application/pdf' }, body: pdf });
    const url = (p: string) => `${remote.origin}${p}`;

    expect((await download({ folderId, url: url('/export'), name: 'Lunch/../Menu of the day' })).name).toBe('Menu of the day.pdf');
    expect((await download({ folderId, url: url('/export'), name: '\u0000..' })).name).toBe('Menü.pdf');
    expect((await download({ folderId, url: url('/files/today?session=secret') })).name).toBe('today.pdf');
  });

  it('refuses a file larger than the free storage, and a full storage, leaving no blob', async () => {
    const folderId = await createFolder(t, customerId, 'Videos');
    routes.set('/big.png', { headers: { 'content-type': 'image/png' }, body: png(10, 10, 20_000) });
    const before = await blobsOnDisk();
    await t.db
      .update(customers)
      .set({ storageSize: (await usedStorage()) + 1_000 })
      .where(eq(customers.id, customerId));
    await expect(download({ folderId, url: `${remote.origin}/big.png` })).rejects.toMatchObject({
      status: 400,
      key: 'upload.error.downloadFailed',
      message: expect.stringMatching(/does not fit in the tenant’s free storage \(1000 bytes\)/),
      details: { reason: 'tooLarge' },
    });
    await t.db
      .update(customers)
      .set({ storageSize: await usedStorage() })
      .where(eq(customers.id, customerId));
    await expect(download({ folderId, url: `${remote.origin}/big.png` })).rejects.toMatchObject({
      key: 'upload.error.downloadFailed',
      details: { reason: 'storageFull' },
    });
    expect(await blobsOnDisk()).toEqual(before);
    expect(await filesIn(folderId)).toEqual([]);
  });

  it('refuses the file when other files took the room during the download; the blob is then discarded', async () => {
    const folderId = await createFolder(t, customerId, 'Crowded');
    const served = png(10, 10, 3_000);
    routes.set('/late.png', { headers: { 'content-type': 'image/png' }, body: served });
    const before = await blobsOnDisk();
    const used = await usedStorage();
    await t.db
      .update(customers)
      .set({ storageSize: used + 4_000 })
      .where(eq(customers.id, customerId));
    const downloaded = await download({ folderId, url: `${remote.origin}/late.png` });
    // Meanwhile another upload takes most of the room.
    await t.db
      .update(customers)
      .set({ usedStorageSize: used + 2_000 })
      .where(eq(customers.id, customerId));
    await expect(store(downloaded)).rejects.toMatchObject({ status: 400, key: 'resourceLimit.error.limitReached' });
    await discardDownloadedFile(contextOf(t.db), downloaded);
    expect(await blobsOnDisk()).toEqual(before);
    expect(await filesIn(folderId)).toEqual([]);
    await t.db.update(customers).set({ usedStorageSize: used }).where(eq(customers.id, customerId));
  });

  it('keeps the blob of a stored file when asked to discard it after all', async () => {
    const folderId = await createFolder(t, customerId, 'Kept');
    routes.set('/kept.png', { headers: { 'content-type': 'image/png' }, body: png(8, 8, 500) });
    const downloaded = await download({ folderId, url: `${remote.origin}/kept.png` });
    const stored = await store(downloaded);
    await discardDownloadedFile(contextOf(t.db), downloaded);
    expect((await bytesOf(stored.fileId)).length).toBe(500);
  });

  it.each<[string, string, string | RegExp, string]>([
    ['a remote 404', '/missing.png', 'The server answered HTTP 404', 'http'],
    ['an HTML page', '/login', /not of a supported type \(the server calls it text\/html\)/, 'type'],
    ['an empty answer', '/empty.png', 'The server answered with an empty file', 'empty'],
  ])('refuses %s in readable words, leaving no blob', async (_name, remotePath, message, reason) => {
    const folderId = await createFolder(t, customerId);
    routes.set('/login', { headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Sign in</p>' });
    routes.set('/empty.png', { headers: { 'content-type': 'image/png' }, body: '' });
    const before = await blobsOnDisk();
    await expect(download({ folderId, url: `${remote.origin}${remotePath}` })).rejects.toMatchObject({
      status: 400,
      key: 'upload.error.downloadFailed',
      message,
      details: { reason },
    });
    expect(await blobsOnDisk()).toEqual(before);
  });

  it('refuses a refused address and what is not an address, before anything is stored', async () => {
    const folderId = await createFolder(t, customerId);
    await expect(download({ folderId, url: 'http://169.254.169.254/latest/meta-data' })).rejects.toMatchObject({
      key: 'upload.error.downloadFailed',
      details: { reason: 'address' },
    });
    await expect(download({ folderId, url: 'file:///etc/passwd' })).rejects.toMatchObject({ details: { reason: 'scheme' } });
    await expect(download({ folderId, url: '' })).rejects.toMatchObject({ status: 400, key: 'request.error.invalid' });
    await expect(download({ folderId, url: `http://x/${'a'.repeat(9_000)}` })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a deleted, unknown, foreign or filtered folder (404, 409), before the download and after it', async () => {
    routes.set('/a.png', { headers: { 'content-type': 'image/png' }, body: png(4, 4, 300) });
    const url = `${remote.origin}/a.png`;
    const doomed = await createFolder(t, customerId, 'Doomed');
    await t.db.delete(fileFolders).where(eq(fileFolders.id, doomed));
    await expect(download({ folderId: doomed, url })).rejects.toMatchObject({ status: 404, key: 'fileFolder.error.notFound' });
    await expect(download({ folderId: uuidv7(), url })).rejects.toMatchObject({ status: 404 });
    await expect(download({ folderId: 'x\u0000y', url })).rejects.toMatchObject({ status: 404, message: 'No fileFolder with id x?y' });
    const foreign = await createFolder(t, (await t.factories.customer()).id);
    await expect(download({ folderId: foreign, url })).rejects.toMatchObject({ status: 404 });
    const filtered = await createFolder(t, customerId, 'Filtered');
    await t.db.update(fileFolders).set({ fileFolderType: 2 }).where(eq(fileFolders.id, filtered));
    await expect(download({ folderId: filtered, url })).rejects.toMatchObject({ status: 409, key: 'fileFolder.error.filtered' });
    const requestsBefore = remote.requests.length;

    // Deleted while the file downloaded: phase two refuses it, and the blob goes.
    const before = await blobsOnDisk();
    const vanishing = await createFolder(t, customerId, 'Vanishing');
    const downloaded = await download({ folderId: vanishing, url });
    expect(remote.requests.length).toBe(requestsBefore + 1);
    await t.db.delete(fileFolders).where(eq(fileFolders.id, vanishing));
    await expect(store(downloaded)).rejects.toMatchObject({ status: 404, key: 'fileFolder.error.notFound' });
    await discardDownloadedFile(contextOf(t.db), downloaded);
    expect(await blobsOnDisk()).toEqual(before);
  });

  it("lets a restricted key add files only to its teams' folders", async () => {
    const keyId = uuidv7();
    const teamId = uuidv7();
    await t.db.insert(teams).values({ id: teamId, customerId, name: `Keys ${teamId}` });
    const ours = await createFolder(t, customerId, 'Ours');
    const theirs = await createFolder(t, customerId, 'Theirs');
    await t.db.insert(teamAssignments).values([
      { teamId, resourceType: 'webhookApiKey', resourceId: keyId, readOnly: false, customerId },
      { teamId, resourceType: 'fileFolder', resourceId: ours, readOnly: false, customerId },
    ]);
    routes.set('/team.png', { headers: { 'content-type': 'image/png' }, body: png(4, 4, 300) });
    const key = keyActor({ restricted: true, id: keyId });
    await expect(download({ folderId: theirs, url: `${remote.origin}/team.png` }, key)).rejects.toMatchObject({ status: 404 });
    const stored = await store(await download({ folderId: ours, url: `${remote.origin}/team.png` }, key), key);
    // The file takes the folder's teams, so the key (and its team) see what it added.
    const [assigned] = await t.db
      .select({ teamId: teamAssignments.teamId })
      .from(teamAssignments)
      .where(and(eq(teamAssignments.resourceType, 'file'), eq(teamAssignments.resourceId, stored.fileId)));
    expect(assigned).toEqual({ teamId });
  });

  it('refuses to download inside a transaction (the blob must be safe before its first byte; no lock held for minutes)', async () => {
    const folderId = await createFolder(t, customerId);
    await expect(
      withTransaction(t.db, (tx) => downloadFileForFolder(contextOf(tx), { outbound }, { folderId, url: `${remote.origin}/a.png` })),
    ).rejects.toThrow(/outside any transaction/);
  });
});
