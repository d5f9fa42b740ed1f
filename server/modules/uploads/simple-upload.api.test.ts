import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/server/modules/audit-log/audit-log.table';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { createFolder, crcOf, png, send, storedKeys, uploadRequest } from './uploads.test-kit';

let t: TestContext;
let customerId: number;
let editor: string;
let owner: string;
let viewer: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  owner = (await t.actor('OWNER', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
});
afterAll(() => t.close());

/** Cleanup entries of uploads in flight (deleted files queue theirs too, under another reason). */
async function uploadEntries() {
  return (await t.db.select().from(blobCleanup)).filter((e) => e.reason !== 'file deleted');
}

async function fileRows() {
  return t.db.select().from(files).where(eq(files.customerId, customerId));
}

describe('POST /api/file', () => {
  it('stores a file with its preview, computes size, CRC32 and dimensions, and answers the file objects', async () => {
    const image = png(640, 480, 5000);
    const preview = png(64, 48, 300);
    const res = await uploadRequest(t, editor, [
      { field: 'files', name: 'photo.png', data: image, type: 'image/png' },
      { field: 'previews', name: 'photo.png', data: preview, type: 'image/png' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toHaveLength(1);
    const file = res.body[0];
    expect(file).toMatchObject({
      name: 'photo.png',
      contentType: 'image/png',
      size: 5000,
      crcCheckSum: crcOf(image),
      width: 640,
      height: 480,
      customerId,
      orientation: 'landscape',
    });
    expect(file.location).toBe(`/api/storage/customer/${customerId}/files/${file.id}`);
    expect(file).toMatchObject({ readOnly: false, creator: { email: expect.stringContaining('@example.com') } });
    expect(file.thumbnail).toMatch(new RegExp(`^${file.location}\\.tmb\\?v=\\d+$`));
    expect(file.lastPreviewUploadTime).toEqual(expect.any(Number));

    const download = await send(t, 'GET', file.location, { token: viewer });
    expect(download.status).toBe(200);
    expect(download.raw.equals(image)).toBe(true);
    const thumb = await send(t, 'GET', file.thumbnail, { token: viewer });
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/png');
    expect(thumb.raw.equals(preview)).toBe(true);
    // The blob's cleanup entries were taken over by the committed row; an audit entry exists.
    expect(await uploadEntries()).toEqual([]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, file.id));
    expect(audit.map((a) => a.action)).toContain('create');
  });

  it('pairs previews with files by exact name, a preview arriving before or after its file', async () => {
    const a = png(100, 200, 400);
    const b = png(300, 300, 500);
    const res = await uploadRequest(t, editor, [
      { field: 'previews', name: 'b.png', data: png(10, 10) },
      { field: 'files', name: 'a.png', data: a },
      { field: 'files', name: 'b.png', data: b },
      { field: 'previews', name: 'a.png', data: png(20, 40) },
      { field: 'previews', name: 'nobody.png', data: png(5, 5) },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [fa, fb] = res.body;
    expect(fa).toMatchObject({ name: 'a.png', width: 100, height: 200, orientation: 'portrait' });
    expect(fb).toMatchObject({ name: 'b.png', width: 300, height: 300, orientation: 'square' });
    expect((await send(t, 'GET', fa.thumbnail, { token: viewer })).raw.equals(png(20, 40))).toBe(true);
    expect((await send(t, 'GET', fb.thumbnail, { token: viewer })).raw.equals(png(10, 10))).toBe(true);
    // The unmatched preview is not kept.
    const keys = await storedKeys(t);
    expect(keys.filter((k) => k.includes(fa.id) || k.includes(fb.id))).toHaveLength(4);
    expect(keys.every((k) => /^customer\/\d+\/files\/[0-9a-f-]{36}(\.tmb)?$/.test(k))).toBe(true);
  });

  it('applies every query parameter', async () => {
    const folderId = await createFolder(t, customerId);
    const team = await t.request('POST', '/api/team', { token: owner, json: { name: 'uploaders' } });
    expect(team.status).toBe(201);
    const inherited = await t.request('POST', '/api/team', { token: owner, json: { name: 'folder team' } });
    await t.db
      .insert(teamAssignments)
      .values({ teamId: inherited.body.id, resourceType: 'fileFolder', resourceId: folderId, readOnly: true, customerId });
    const query = new URLSearchParams({
      customerId: String(customerId),
      parentId: folderId,
      teamIds: `${team.body.id}:false`,
      inheritParentTeams: 'true',
      validFrom: '1790000000000',
      validTo: '1800000000000',
      tags: 'summer,sale',
      width: '1920',
      height: '1080',
      muted: 'true',
    });
    const res = await uploadRequest(
      t,
      owner,
      [{ field: 'files', name: 'clip.mp4', data: Buffer.alloc(1000, 1), type: 'video/mp4' }],
      query.toString(),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body[0]).toMatchObject({
      fileFolderId: folderId,
      validFrom: 1790000000000,
      validTo: 1800000000000,
      tags: ['summer', 'sale'],
      width: 1920,
      height: 1080,
      muted: true,
      contentType: 'video/mp4',
    });
    expect(res.body[0].thumbnail).toBeUndefined();
    const assigned = await t.db.select().from(teamAssignments).where(eq(teamAssignments.resourceId, res.body[0].id));
    expect(assigned.map((a) => ({ teamId: a.teamId, readOnly: a.readOnly })).sort((x, y) => x.teamId.localeCompare(y.teamId))).toEqual(
      [
        { teamId: team.body.id, readOnly: false },
        { teamId: inherited.body.id, readOnly: true },
      ].sort((x, y) => x.teamId.localeCompare(y.teamId)),
    );
  });

  it('replaces references to fileIdToReplace and removes the old file when asked', async () => {
    const old = await uploadRequest(t, editor, [{ field: 'files', name: 'v1.png', data: png(10, 10) }]);
    const res = await uploadRequest(
      t,
      editor,
      [{ field: 'files', name: 'v2.png', data: png(10, 10, 100) }],
      `fileIdToReplace=${old.body[0].id}&removeOldFile=true`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await send(t, 'GET', old.body[0].location, { token: viewer })).status).toBe(404);
    const twoFiles = await uploadRequest(
      t,
      editor,
      [
        { field: 'files', name: 'x.png', data: png(1, 1) },
        { field: 'files', name: 'y.png', data: png(1, 1) },
      ],
      `fileIdToReplace=${res.body[0].id}`,
    );
    expect(twoFiles.body).toMatchObject({
      status: 400,
      key: 'request.error.invalidCombination',
      details: { parameter: 'fileIdToReplace' },
    });
    const nothingToRemove = await uploadRequest(t, editor, [{ field: 'files', name: 'z.png', data: png(1, 1) }], 'removeOldFile=true');
    expect(nothingToRemove.body).toMatchObject({
      status: 400,
      key: 'request.error.invalidCombination',
      details: { parameter: 'removeOldFile' },
    });
  });

  it('refuses unsupported extensions with 400 and keeps nothing of the request', async () => {
    const before = await fileRows();
    const keysBefore = await storedKeys(t);
    const res = await uploadRequest(t, editor, [
      { field: 'files', name: 'ok.png', data: png(2, 2) },
      { field: 'files', name: 'script.exe', data: Buffer.from('MZ') },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.key).toBe('file.error.unsupportedType');
    expect(await fileRows()).toHaveLength(before.length);
    expect(await storedKeys(t)).toEqual(keysBefore);
    expect(await uploadEntries()).toEqual([]);
  });

  it('answers 415 to a body that is not multipart/form-data', async () => {
    const res = await send(t, 'POST', '/api/file', {
      token: editor,
      body: JSON.stringify({ a: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(415);
    expect(res.body.key).toBe('request.error.unsupportedMediaType');
  });

  it('answers 400 to malformed multipart bodies and to bodies without files', async () => {
    const noBoundary = await send(t, 'POST', '/api/file', { token: editor, body: 'x', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body.key).toBe('upload.error.badMultipart');
    const truncated = await send(t, 'POST', '/api/file', {
      token: editor,
      body: '--XX\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nhalf a file',
      headers: { 'content-type': 'multipart/form-data; boundary=XX' },
    });
    expect(truncated.status).toBe(400);
    expect(truncated.body.key).toBe('upload.error.badMultipart');
    const empty = await uploadRequest(t, editor, [{ field: 'other', name: 'a.png', data: png(1, 1) }]);
    expect(empty.status).toBe(400);
    expect(empty.body.key).toBe('upload.error.noFiles');
    const badTags = await uploadRequest(t, editor, [{ field: 'files', name: 'a.png', data: png(1, 1) }], 'tags=-bad');
    expect(badTags.status).toBe(400);
    expect((await uploadRequest(t, editor, [{ field: 'files', name: 'a.png', data: png(1, 1) }], 'width=-5&height=10')).status).toBe(400);
    expect((await uploadRequest(t, editor, [{ field: 'files', name: 'a.png', data: png(1, 1) }], 'validFrom=20&validTo=10')).status).toBe(
      400,
    );
    expect(await uploadEntries()).toEqual([]);
  });

  it("refuses a NUL character in a part's file name or a field value with 400 request.error.nulCharacter, storing nothing", async () => {
    const keysBefore = await storedKeys(t);
    const boundary = 'NULBOUNDARY';
    const multipart = (...parts: string[]) =>
      Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}`).join('')}--${boundary}--\r\n`, 'latin1');
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const image = png(1, 1).toString('latin1');
    // RFC 5987 `filename*` carries any character, NUL included, percent-encoded; busboy decodes it.
    const filePart = (field: string, filename: string) =>
      `Content-Disposition: form-data; name="${field}"; filename*=utf-8''${filename}\r\nContent-Type: image/png\r\n\r\n${image}\r\n`;
    const field = `Content-Disposition: form-data; name="note"\r\n\r\nbad\u0000value\r\n`;
    for (const body of [
      multipart(filePart('files', 'a%00.png')),
      multipart(filePart('files', 'a.png'), filePart('previews', 'a%00.png')),
      multipart(field, filePart('files', 'c.png')),
      multipart(filePart('files', 'd.png'), field),
    ]) {
      const res = await send(t, 'POST', '/api/file', { token: editor, body, headers });
      expect(res.status, body.toString('latin1').slice(0, 160)).toBe(400);
      expect(res.body).toMatchObject({ key: 'request.error.nulCharacter', details: { target: 'multipart' } });
    }
    // A raw NUL inside a part's headers is no valid multipart at all (busboy refuses the header).
    const rawHeader = await send(t, 'POST', '/api/file', {
      token: editor,
      body: multipart(`Content-Disposition: form-data; name="files"; filename="a\u0000.png"\r\n\r\n${image}\r\n`),
      headers,
    });
    expect(rawHeader.status).toBe(400);
    expect(await storedKeys(t)).toEqual(keysBefore);
    expect(await uploadEntries()).toEqual([]);
  });

  it("refuses a VIEWER (403) and another tenant's folder (404)", async () => {
    expect((await uploadRequest(t, viewer, [{ field: 'files', name: 'a.png', data: png(1, 1) }])).status).toBe(403);
    const other = await t.factories.customer();
    const foreignFolder = await createFolder(t, other.id);
    const res = await uploadRequest(t, editor, [{ field: 'files', name: 'a.png', data: png(1, 1) }], `parentId=${foreignFolder}`);
    expect(res.status).toBe(404);
  });

  it('answers 413 for a file of 200 MB or more and stores nothing', async () => {
    const boundary = 'BIGBOUNDARY';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const total = 200 * 1024 * 1024;
    const block = Buffer.alloc(1024 * 1024, 1);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= total) {
          controller.enqueue(tail);
          controller.close();
          return;
        }
        sent += block.length;
        controller.enqueue(block);
      },
    });
    const keysBefore = await storedKeys(t);
    const res = await send(t, 'POST', '/api/file', {
      token: editor,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(413);
    expect(res.body.key).toBe('file.error.tooLarge');
    expect(await storedKeys(t)).toEqual(keysBefore);
    expect(await uploadEntries()).toEqual([]);
  }, 60_000);
});

describe('storage quota', () => {
  it('never lets parallel uploads exceed storageSize and answers the resource-limit error', async () => {
    const quotaCustomer = await t.factories.customer({ storageSize: 2500 });
    const token = (await t.actor('EDITOR', { customerId: quotaCustomer.id })).token;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => uploadRequest(t, token, [{ field: 'files', name: `f${i}.png`, data: png(1, 1, 1000) }])),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(2);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ key: 'resourceLimit.error.limitReached', details: { resource: 'STORAGE', limit: 2500 } });
    }
    const [row] = await t.db.select().from(customers).where(eq(customers.id, quotaCustomer.id));
    expect(row!.usedStorageSize).toBe(2000);
    expect((await t.db.select().from(files).where(eq(files.customerId, quotaCustomer.id))).length).toBe(2);
    expect((await storedKeys(t)).filter((k) => k.startsWith(`customer/${quotaCustomer.id}/`))).toHaveLength(2);
    // Deleting a file gives its bytes back (the delete trigger).
    await t.db.delete(files).where(eq(files.id, ok[0]!.body[0].id));
    const [after] = await t.db.select().from(customers).where(eq(customers.id, quotaCustomer.id));
    expect(after!.usedStorageSize).toBe(1000);
  });
});
