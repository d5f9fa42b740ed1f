import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { uploadParts, uploadSessions } from './uploads.table';
import { bytes, crcOf, storedKeys } from './uploads.test-kit';

/**
 * Parts racing each other and a cancel, over a real HTTP listener (issue 10, points 5 and 9): a part
 * is kept whole (the last send to complete wins), its recorded CRC is that of the bytes kept, and a
 * cancel stops a part still arriving with 409 and leaves nothing behind.
 */
let t: TestContext;
let base: string;
let editor: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  const customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(() => t.close());

const headers = () => ({ authorization: `Bearer ${editor}`, 'content-type': 'application/octet-stream' });

async function call(method: string, urlPath: string, init: { body?: BodyInit; json?: unknown } = {}) {
  const h: Record<string, string> =
    init.json !== undefined ? { authorization: `Bearer ${editor}`, 'content-type': 'application/json' } : headers();
  const res = await fetch(`${base}${urlPath}`, {
    method,
    headers: h,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    duplex: 'half',
  } as RequestInit);
  const raw = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('json');

  return { status: res.status, body: isJson && raw.length ? JSON.parse(raw.toString('utf8')) : raw, raw };
}

/** A request body sent in two steps: `firstBytes` at once, the rest when `finish()` is called. */
function heldBody(data: Buffer, firstBytes: number) {
  let finish!: () => void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(data.subarray(0, firstBytes)));
      finish = () => {
        controller.enqueue(new Uint8Array(data.subarray(firstBytes)));
        controller.close();
      };
    },
  });

  return { body, finish: () => finish() };
}

const pause = (ms = 300) => new Promise((resolve) => setTimeout(resolve, ms));

async function openSession(size: number, totalChunks: number) {
  const init = await call('POST', '/api/v2/file/upload/init', { json: { name: 'race.mp4', size, totalChunks } });
  expect(init.status, JSON.stringify(init.body)).toBe(200);

  return init.body as { uploadId: string; maxChunkSize: number };
}

describe('two concurrent PUTs of one part with different bytes', () => {
  it.each(['first', 'second'] as const)(
    'both answer 200; the one sent %s completes last and wins whole; complete reports the CRC of the stored bytes',
    async (winner) => {
      const size = 256 * 1024;
      const { uploadId } = await openSession(size, 1);
      const a = bytes(size, 11);
      const b = bytes(size, 97);
      const sendA = heldBody(a, 64 * 1024);
      const putA = call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: sendA.body });
      await pause();
      const sendB = heldBody(b, 32 * 1024);
      const putB = call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: sendB.body });
      await pause();
      if (winner === 'first') {
        sendB.finish();
        expect((await putB).status).toBe(200);
        sendA.finish();
      } else {
        sendA.finish();
        expect((await putA).status).toBe(200);
        sendB.finish();
      }
      const [resA, resB] = await Promise.all([putA, putB]);
      expect(resA.status, JSON.stringify(resA.body)).toBe(200);
      expect(resB.status, JSON.stringify(resB.body)).toBe(200);
      const kept = winner === 'first' ? a : b;

      const [row] = await t.db.select().from(uploadParts).where(eq(uploadParts.sessionId, uploadId));
      expect(row).toMatchObject({ partNumber: 1, size, crc32: crcOf(kept) });
      const done = await call('POST', `/api/v2/file/upload/${uploadId}/complete`);
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.crcCheckSum).toBe(crcOf(kept));
      const file = await call('GET', done.body.location);
      expect(file.raw.equals(kept)).toBe(true);
    },
  );

  it('a re-send that fails halfway keeps the part sent before', async () => {
    const size = 100 * 1024;
    const { uploadId } = await openSession(size * 2, 2);
    const good = bytes(size, 5);
    expect((await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: good })).status).toBe(200);
    const short = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: heldBodyEnded(bytes(size - 10, 6)) });
    expect(short.status).toBe(400);
    const recover = await call('GET', `/api/v2/file/upload/${uploadId}/recover`);
    expect(recover.body).toMatchObject({ uploadedChunks: [1], missingChunks: [2] });
    const second = bytes(size, 7);
    expect((await call('PUT', `/api/v2/file/upload/${uploadId}/part/2`, { body: second })).status).toBe(200);
    const done = await call('POST', `/api/v2/file/upload/${uploadId}/complete`);
    expect(done.body.crcCheckSum).toBe(crcOf(Buffer.concat([good, second])));
  });
});

/** A streamed body (no Content-Length) that simply ends. */
function heldBodyEnded(data: Buffer) {
  const held = heldBody(data, data.length);
  held.finish();

  return held.body;
}

describe('cancel while a part is arriving', () => {
  async function leftovers(storageUploadId: string, uploadId: string) {
    const root = path.join(t.dataDir, 'storage');

    return {
      tmp: await fs.readdir(path.join(root, '.tmp')),
      multipart: (await fs.readdir(path.join(root, '.multipart')).catch(() => [] as string[])).filter((d) => d === storageUploadId),
      blobs: (await storedKeys(t)).filter((k) => k.includes(uploadId)),
    };
  }

  it.each(['first send', 're-send'] as const)(
    'answers the part (%s) 409 upload.error.notOpen, answers the cancel 204, and leaves nothing behind',
    async (kind) => {
      const size = 512 * 1024;
      const { uploadId } = await openSession(size, 1);
      if (kind === 're-send')
        expect((await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: bytes(size, 1) })).status).toBe(200);
      const [session] = await t.db.select().from(uploadSessions).where(eq(uploadSessions.id, uploadId));
      const held = heldBody(bytes(size, 2), 128 * 1024);
      const put = call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { body: held.body });
      await pause();
      const cancel = await call('DELETE', `/api/v2/file/upload/${uploadId}`);
      expect(cancel.status).toBe(204);
      held.finish();
      const res = await put;
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject({ key: 'upload.error.notOpen', details: { state: 'CANCELLED' } });
      expect(await leftovers(session!.storageUploadId, uploadId)).toEqual({ tmp: [], multipart: [], blobs: [] });
      expect(await t.db.select().from(uploadParts).where(eq(uploadParts.sessionId, uploadId))).toEqual([]);
    },
  );
});
