import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/server/logger';
import { files } from '@/server/modules/files/files.table';
import { teams } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { signPath } from './signed-urls';
import { cleanupBlobs, expireUploadSessions } from './uploads.jobs';
import { uploadParts, uploadSessions } from './uploads.table';
import { bytes, crcOf, multipartDirs, png, send, storedKeys } from './uploads.test-kit';

let t: TestContext;
let customerId: number;
let editor: string;
let viewer: string;
let otherEditor: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  otherEditor = (await t.actor('EDITOR')).token;
});
afterAll(() => t.close());

async function init(body: Record<string, unknown>, token = editor, query = '') {
  return t.request('POST', `/api/v2/file/upload/init${query}`, { token, json: body });
}

function putPart(id: string, n: number, data: Buffer, options: { token?: string; length?: boolean; url?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (options.length) headers['content-length'] = String(data.length);

  return send(t, 'PUT', options.url ?? `/api/v2/file/upload/${id}/part/${n}`, {
    token: options.url ? undefined : (options.token ?? editor),
    body: new Uint8Array(data),
    headers,
  });
}

const jobDeps = () => ({ db: t.db, storage: t.storage, log: createLogger('silent') });

describe('POST /api/v2/file/upload/init', () => {
  it('opens a session with maxChunkSize = ceil(size/totalChunks) and a signed URL per chunk', async () => {
    const res = await init({ name: 'movie.mp4', size: 1000, totalChunks: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'movie.mp4', size: 1000, totalChunks: 3, maxChunkSize: 334 });
    expect(Object.keys(res.body.uploadUrls)).toEqual(['1', '2', '3']);
    expect(res.body.uploadUrls['2']).toMatch(new RegExp(`/api/v2/file/upload/${res.body.uploadId}/part/2\\?token=\\d+\\.[\\w-]{43}$`));
  });

  it('refuses sizes, chunk counts and names outside the rules', async () => {
    for (const body of [
      { name: 'a.mp4', size: 0, totalChunks: 1 },
      { name: 'a.mp4', size: 10737418241, totalChunks: 1 },
      { name: 'a.mp4', size: 100, totalChunks: 0 },
      { name: 'a.mp4', size: 100000, totalChunks: 10001 },
      { name: 'a.mp4', size: 10, totalChunks: 6 }, // the last chunk would be empty
      { name: 'a.exe', size: 10, totalChunks: 1 },
      { name: 'a.mp4', size: 10, totalChunks: 1, crcChecksum: 'xyz' },
      { size: 10, totalChunks: 1 },
    ]) {
      const res = await init(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await init({ name: 'a.mp4', size: 10, totalChunks: 1 }, viewer)).status).toBe(403);
  });
});

describe("the origin of the service's own URLs", () => {
  it('local part and download URLs name the origin the request came to, not PUBLIC_URL', async () => {
    const at = (origin: string, headers: Record<string, string> = {}) =>
      t.app.request(`${origin}/api/v2/file/upload/init`, {
        method: 'POST',
        headers: { authorization: `Bearer ${editor}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'o.mp4', size: 10, totalChunks: 2 }),
      });
    const other = (await (await at('http://127.0.0.1:4567')).json()) as { uploadId: string; uploadUrls: Record<string, string> };
    expect(other.uploadUrls['1']).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:4567/api/v2/file/upload/${other.uploadId}/part/1\\?token=`));
    // Behind a TLS-terminating proxy the scheme comes from X-Forwarded-Proto.
    const proxied = (await (await at('http://signage.lan', { 'x-forwarded-proto': 'https' })).json()) as {
      uploadUrls: Record<string, string>;
    };
    expect(proxied.uploadUrls['2']).toMatch(/^https:\/\/signage\.lan\/api\/v2\/file\/upload\//);
    // On PUBLIC_URL's own host, PUBLIC_URL (here http://console.test) is used as configured.
    const own = (await (await at('http://console.test')).json()) as { uploadUrls: Record<string, string> };
    expect(own.uploadUrls['1']).toMatch(/^http:\/\/console\.test\/api\//);

    const data = bytes(10, 4);
    const uploaded = await init({ name: 'dl.mp4', size: 10, totalChunks: 1 });
    await putPart(uploaded.body.uploadId, 1, data);
    await t.request('POST', `/api/v2/file/upload/${uploaded.body.uploadId}/complete`, { token: editor });
    const signed = await t.app.request(`http://10.1.2.3:3000/api/v2/file/${uploaded.body.uploadId}/signedUrl`, {
      headers: { authorization: `Bearer ${editor}` },
    });
    expect(((await signed.json()) as { url: string }).url).toMatch(/^http:\/\/10\.1\.2\.3:3000\/api\/storage\/customer\//);
  });
});

describe('hostile init bodies', () => {
  it('refuses a NUL character anywhere in the body with 400 request.error.nulCharacter and opens no session', async () => {
    const before = (await t.db.select().from(uploadSessions)).length;
    for (const body of [
      { name: 'a\u0000.mp4', size: 10, totalChunks: 1 },
      { name: 'a.mp4', size: 10, totalChunks: 1, contentType: 'video/mp4\u0000' },
      { name: 'a.mp4', size: 10, totalChunks: 1, tags: ['ok', 'b\u0000d'] },
      { name: 'a.mp4', size: 10, totalChunks: 1, metaData: { note: 'x\u0000y' } },
      { name: 'a.mp4', size: 10, totalChunks: 1, metaData: { 'k\u0000': 1 } },
    ]) {
      const res = await init(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'json' } });
    }
    expect((await t.db.select().from(uploadSessions)).length).toBe(before);
  });
});

describe('parts, recover and complete', () => {
  it('takes parts in any order and in parallel, replaces a re-sent part, and completes into the file', async () => {
    const data = bytes(1000);
    const started = await init({
      name: 'clip.webm',
      size: 1000,
      totalChunks: 4,
      tags: ['promo'],
      validTo: 1900000000000,
      muted: true,
      width: 320,
      height: 240,
      metaData: { source: 'test' },
    });
    const id = started.body.uploadId as string;
    const chunk = (n: number) => data.subarray((n - 1) * 250, n * 250);
    // Part 2 first with wrong bytes, then the others in parallel, then part 2 again with the right ones.
    expect((await putPart(id, 2, bytes(250, 9))).status).toBe(200);
    const parallel = await Promise.all([4, 1, 3].map((n) => putPart(id, n, chunk(n))));
    for (const res of parallel) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parallel[0]!.body).toMatchObject({
      partNumber: 4,
      uploadedSize: 250,
      sessionId: id,
      success: true,
      etag: expect.any(String),
      message: expect.any(String),
    });
    const resent = await putPart(id, 2, chunk(2));
    expect(resent.status).toBe(200);

    const recover = await t.request('GET', `/api/v2/file/upload/${id}/recover`, { token: viewer });
    expect(recover.status).toBe(200);
    expect(recover.body).toMatchObject({ uploadId: id, uploadedChunks: [1, 2, 3, 4], missingChunks: [], totalChunks: 4, size: 1000 });

    const done = await t.request('POST', `/api/v2/file/upload/${id}/complete`, { token: editor });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      id,
      name: 'clip.webm',
      size: 1000,
      crcCheckSum: crcOf(data),
      tags: ['promo'],
      validTo: 1900000000000,
      muted: true,
      width: 320,
      height: 240,
      metaData: { source: 'test' },
    });
    const download = await send(t, 'GET', done.body.location, { token: viewer });
    expect(download.raw.equals(data)).toBe(true);
    // Idempotent: the same file again, no second row.
    const again = await t.request('POST', `/api/v2/file/upload/${id}/complete`, { token: editor });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(id);
    expect((await t.db.select().from(files).where(eq(files.id, id))).length).toBe(1);
    expect(await t.db.select().from(uploadParts).where(eq(uploadParts.sessionId, id))).toEqual([]);
    expect((await t.db.select().from(blobCleanup)).filter((e) => e.key.includes(id))).toEqual([]);
    // A completed session takes no more parts.
    expect((await putPart(id, 1, chunk(1))).status).toBe(409);
  });

  it('reads width and height from the assembled file when the session has none', async () => {
    const image = png(800, 600, 3000);
    const { body } = await init({ name: 'wide.png', size: 3000, totalChunks: 2, crcChecksum: crcOf(image) });
    expect((await putPart(body.uploadId, 1, image.subarray(0, 1500))).status).toBe(200);
    expect((await putPart(body.uploadId, 2, image.subarray(1500))).status).toBe(200);
    const done = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: editor });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ width: 800, height: 600, orientation: 'landscape', contentType: 'image/png' });
  });

  it('refuses wrong part sizes (400), oversized parts (413) and part numbers out of range', async () => {
    const { body } = await init({ name: 'x.mp4', size: 100, totalChunks: 2 });
    const id = body.uploadId;
    const short = await putPart(id, 1, bytes(49));
    expect(short.status).toBe(400);
    expect(short.body.key).toBe('upload.error.wrongPartSize');
    expect((await putPart(id, 1, bytes(49), { length: true })).status).toBe(400);
    expect((await putPart(id, 1, bytes(51), { length: true })).status).toBe(413);
    expect((await putPart(id, 1, bytes(51))).status).toBe(413);
    expect((await putPart(id, 3, bytes(50))).status).toBe(400);
    expect((await putPart(id, 0, bytes(50))).status).toBe(400);
    // The route's schema parses the part number; one the session cannot have is the service's own 400.
    expect((await putPart(id, 3, bytes(50))).body).toMatchObject({
      key: 'upload.error.invalidPartNumber',
      details: { partNumber: 3, totalChunks: 2 },
    });
    const notANumber = await send(t, 'PUT', `/api/v2/file/upload/${id}/part/x1`, {
      token: editor,
      body: new Uint8Array(bytes(50)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(notANumber.status).toBe(400);
    expect(notANumber.body).toMatchObject({ key: 'upload.error.invalidPartNumber', details: { partNumber: -1, totalChunks: 2 } });
    const recover = await t.request('GET', `/api/v2/file/upload/${id}/recover`, { token: editor });
    expect(recover.body).toMatchObject({ uploadedChunks: [], missingChunks: [1, 2] });
    expect(Object.keys(recover.body.uploadUrls)).toEqual(['1', '2']);
    const incomplete = await t.request('POST', `/api/v2/file/upload/${id}/complete`, { token: editor });
    expect(incomplete.status).toBe(409);
    expect(incomplete.body).toMatchObject({ key: 'upload.error.partsMissing', details: { missingChunks: [1, 2] } });
  });

  it('answers 415 to a part body that is not application/octet-stream (none counts as one)', async () => {
    const { body } = await init({ name: 'typed.mp4', size: 20, totalChunks: 2 });
    for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/json', 'image/png']) {
      const res = await send(t, 'PUT', `/api/v2/file/upload/${body.uploadId}/part/1`, {
        token: editor,
        body: new Uint8Array(bytes(10)),
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(415);
      expect(res.body.key).toBe('request.error.unsupportedMediaType');
    }
    const signed = new URL(body.uploadUrls['1']);
    const viaUrl = await send(t, 'PUT', signed.pathname + signed.search, {
      body: new Uint8Array(bytes(10)),
      headers: { 'content-type': 'text/html' },
    });
    expect(viaUrl.status).toBe(415);
    expect((await t.request('GET', `/api/v2/file/upload/${body.uploadId}/recover`, { token: editor })).body.uploadedChunks).toEqual([]);
    expect((await putPart(body.uploadId, 1, bytes(10))).status).toBe(200);
    const untyped = await t.app.request(`/api/v2/file/upload/${body.uploadId}/part/2`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${editor}` },
      body: new Uint8Array(bytes(10)),
    });
    expect(untyped.status, await untyped.clone().text()).toBe(200);
    const withParameter = await send(t, 'PUT', `/api/v2/file/upload/${body.uploadId}/part/2`, {
      token: editor,
      body: new Uint8Array(bytes(10)),
      headers: { 'content-type': 'Application/Octet-Stream; x=1' },
    });
    expect(withParameter.status).toBe(200);
  });

  it("answers 404 for unknown sessions and for another tenant's session", async () => {
    const unknown = '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11';
    expect((await putPart(unknown, 1, bytes(5))).status).toBe(404);
    expect((await t.request('GET', `/api/v2/file/upload/${unknown}/recover`, { token: editor })).status).toBe(404);
    const { body } = await init({ name: 'mine.mp4', size: 10, totalChunks: 1 });
    expect((await putPart(body.uploadId, 1, bytes(10), { token: otherEditor })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/file/upload/${body.uploadId}/recover`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: otherEditor })).status).toBe(404);
    expect((await t.request('DELETE', `/api/v2/file/upload/${body.uploadId}`, { token: otherEditor })).status).toBe(404);
  });

  it('accepts parts on the signed uploadUrls without a bearer token, and refuses bad or expired tokens', async () => {
    const data = bytes(20, 3);
    const { body } = await init({ name: 'signed.mp4', size: 20, totalChunks: 2 });
    const url = (n: number) => new URL(body.uploadUrls[String(n)]).pathname + new URL(body.uploadUrls[String(n)]).search;
    expect((await putPart(body.uploadId, 1, data.subarray(0, 10), { url: url(1) })).status).toBe(200);
    // A token opens only its own path.
    const wrongPath = url(1).replace('/part/1?', '/part/2?');
    expect((await putPart(body.uploadId, 2, data.subarray(10), { url: wrongPath })).status).toBe(401);
    const expired = `/api/v2/file/upload/${body.uploadId}/part/2?token=${signPath(t.config, { method: 'PUT', path: `/api/v2/file/upload/${body.uploadId}/part/2`, expiresAt: new Date(Date.now() - 1000) })}`;
    const expiredRes = await putPart(body.uploadId, 2, data.subarray(10), { url: expired });
    expect(expiredRes.status).toBe(401);
    expect(expiredRes.body.key).toBe('auth.error.tokenExpired');
    expect((await putPart(body.uploadId, 2, data.subarray(10), { url: url(2) })).status).toBe(200);
    const done = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: editor });
    expect(done.body.crcCheckSum).toBe(crcOf(data));
  });

  it('checks teamIds at init, and a complete that fails after assembling can be repeated', async () => {
    const owner = (await t.actor('OWNER', { customerId })).token;
    expect(
      (await init({ name: 'team.mp4', size: 10, totalChunks: 1 }, owner, '?teamIds=0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11:false')).status,
    ).toBe(404);
    const team = await t.request('POST', '/api/team', { token: owner, json: { name: 'chunk team' } });
    expect((await init({ name: 'team.mp4', size: 10, totalChunks: 1 }, editor, `?teamIds=${team.body.id}:true`)).status).toBe(403);
    const { body } = await init({ name: 'team.mp4', size: 10, totalChunks: 1 }, owner, `?teamIds=${team.body.id}:true`);
    expect((await putPart(body.uploadId, 1, bytes(10), { token: owner })).status).toBe(200);
    // The team disappears between init and complete: the file row cannot be written after the assembly.
    const [teamRow] = await t.db.select().from(teams).where(eq(teams.id, team.body.id));
    await t.db.delete(teams).where(eq(teams.id, team.body.id));
    const failed = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: owner });
    expect(failed.status).toBe(404);
    const recover = await t.request('GET', `/api/v2/file/upload/${body.uploadId}/recover`, { token: owner });
    expect(recover.body).toMatchObject({ uploadedChunks: [1], missingChunks: [] });
    await t.db.insert(teams).values(teamRow!);
    const done = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: owner });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: body.uploadId, size: 10, crcCheckSum: crcOf(bytes(10)) });
  });

  it('refuses a complete whose bytes do not match crcChecksum and keeps no file or blob', async () => {
    const { body } = await init({ name: 'crc.mp4', size: 10, totalChunks: 1, crcChecksum: '00000000' });
    expect((await putPart(body.uploadId, 1, bytes(10))).status).toBe(200);
    const res = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: editor });
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('upload.error.checksumMismatch');
    expect(await t.db.select().from(files).where(eq(files.id, body.uploadId))).toEqual([]);
    expect((await storedKeys(t)).filter((k) => k.includes(body.uploadId))).toEqual([]);
  });

  it('enforces the storage quota at init and complete', async () => {
    const small = await t.factories.customer({ storageSize: 100 });
    const token = (await t.actor('EDITOR', { customerId: small.id })).token;
    const refused = await init({ name: 'big.mp4', size: 101, totalChunks: 1 }, token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'STORAGE', used: 0, limit: 100 } });
  });
});

describe('cancel and expiry', () => {
  it('cancel removes the parts and leaves no file and no blob', async () => {
    const { body } = await init({ name: 'gone.mp4', size: 10, totalChunks: 2 });
    expect((await putPart(body.uploadId, 1, bytes(5))).status).toBe(200);
    const [session] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, body.uploadId));
    expect(await multipartDirs(t)).toContain(session!.storageUploadId);
    const res = await t.request('DELETE', `/api/v2/file/upload/${body.uploadId}`, { token: editor });
    expect(res.status).toBe(204);
    expect(await multipartDirs(t)).not.toContain(session!.storageUploadId);
    expect((await storedKeys(t)).filter((k) => k.includes(body.uploadId))).toEqual([]);
    expect(await t.db.select().from(files).where(eq(files.id, body.uploadId))).toEqual([]);
    expect((await putPart(body.uploadId, 2, bytes(5))).status).toBe(409);
    expect((await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: editor })).status).toBe(409);
    expect((await t.request('DELETE', `/api/v2/file/upload/${body.uploadId}`, { token: viewer })).status).toBe(403);
  });

  it('the uploads.expire job cancels sessions older than 24 hours and removes their parts', async () => {
    const { body } = await init({ name: 'late.mp4', size: 10, totalChunks: 2 });
    expect((await putPart(body.uploadId, 1, bytes(5))).status).toBe(200);
    const fresh = await init({ name: 'fresh.mp4', size: 10, totalChunks: 1 });
    await t.db
      .update(uploadSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(uploadSessions.id, body.uploadId));
    const [session] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, body.uploadId));
    expect(await expireUploadSessions(jobDeps())).toBe(1);
    const [after] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, body.uploadId));
    expect(after!.state).toBe('CANCELLED');
    expect(await multipartDirs(t)).not.toContain(session!.storageUploadId);
    const [other] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, fresh.body.uploadId));
    expect(other!.state).toBe('OPEN');
    expect((await putPart(body.uploadId, 2, bytes(5))).status).toBe(409);
  });

  it("the storage.cleanup job removes blobs left by a crash, never a live file's blob", async () => {
    // A crash between storing a blob and committing its row leaves the blob and its entry.
    const orphanKey = `customer/${customerId}/files/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a99`;
    await t.storage.put(orphanKey, (await import('node:stream')).Readable.from([bytes(10)]));
    await t.db.insert(blobCleanup).values({ key: orphanKey, notBefore: new Date(Date.now() - 1000), reason: 'upload in progress' });
    const notYet = `customer/${customerId}/files/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a98`;
    await t.storage.put(notYet, (await import('node:stream')).Readable.from([bytes(10)]));
    await t.db.insert(blobCleanup).values({ key: notYet, notBefore: new Date(Date.now() + 60_000), reason: 'upload in progress' });
    const { body } = await init({ name: 'live.mp4', size: 10, totalChunks: 1 });
    await putPart(body.uploadId, 1, bytes(10));
    const live = await t.request('POST', `/api/v2/file/upload/${body.uploadId}/complete`, { token: editor });
    const liveKey = `customer/${customerId}/files/${live.body.id}`;
    await t.db.insert(blobCleanup).values({ key: liveKey, notBefore: new Date(Date.now() - 1000), reason: 'thumbnail upload' });

    await cleanupBlobs(jobDeps());
    const keys = await storedKeys(t);
    expect(keys).not.toContain(orphanKey);
    expect(keys).toContain(notYet);
    expect(keys).toContain(liveKey);
    const entries = (await t.db.select().from(blobCleanup)).map((e) => e.key);
    expect(entries).toEqual([notYet]);
    expect(await t.db.select().from(files).where(eq(files.id, '0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a99'))).toEqual([]);
  });
});
