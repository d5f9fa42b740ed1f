import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { startTestS3Server, type TestS3Server } from '@/server/test/s3-server';
import { crcOf, png, send, uploadRequest } from './uploads.test-kit';

/** The upload paths on S3 storage: presigned part URLs, the 5 MiB part rule, range reads of stored objects. */
let s3: TestS3Server;
let t: TestContext;
let editor: string;
const MiB = 1024 * 1024;

beforeAll(async () => {
  s3 = await startTestS3Server();
  t = await createTestContext(s3.env);
  const customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + 3) % 256));

describe('uploads on S3 storage', () => {
  it('refuses chunks below 5 MiB when there is more than one', async () => {
    const res = await t.request('POST', '/api/v2/file/upload/init', {
      token: editor,
      json: { name: 'small.mp4', size: 6 * MiB, totalChunks: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ key: 'upload.error.chunkTooSmall', details: { maxTotalChunks: 1 } });
  });

  it('takes parts PUT straight to presigned URLs and through the service, then completes with the right CRC32', async () => {
    const data = bytes(10 * MiB + 1001);
    const init = await t.request('POST', '/api/v2/file/upload/init', {
      token: editor,
      json: { name: 'large.mp4', size: data.length, totalChunks: 2 },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId, uploadUrls, maxChunkSize } = init.body;
    expect(maxChunkSize).toBe(Math.ceil(data.length / 2));
    expect(uploadUrls['1']).toContain('X-Amz-Signature');
    // Part 1 directly to the object store, part 2 through the service's part endpoint.
    const direct = await fetch(uploadUrls['1'], { method: 'PUT', body: new Uint8Array(data.subarray(0, maxChunkSize)) });
    expect(direct.status).toBe(200);
    const viaService = await send(t, 'PUT', `/api/v2/file/upload/${uploadId}/part/2`, {
      token: editor,
      body: new Uint8Array(data.subarray(maxChunkSize)),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(viaService.status, JSON.stringify(viaService.body)).toBe(200);
    const recover = await t.request('GET', `/api/v2/file/upload/${uploadId}/recover`, { token: editor });
    expect(recover.body).toMatchObject({ uploadedChunks: [1, 2], missingChunks: [] });
    const done = await t.request('POST', `/api/v2/file/upload/${uploadId}/complete`, { token: editor });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ size: data.length, crcCheckSum: crcOf(data) });
    const range = await send(t, 'GET', `${done.body.location}`, { token: editor, headers: { range: 'bytes=100-199' } });
    expect(range.status).toBe(206);
    expect(range.raw.equals(data.subarray(100, 200))).toBe(true);
  });

  it('stores simple uploads with previews and reads dimensions by range', async () => {
    const res = await uploadRequest(t, editor, [
      { field: 'files', name: 'p.png', data: png(50, 70, 2000) },
      { field: 'previews', name: 'p.png', data: png(5, 7) },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body[0]).toMatchObject({ width: 50, height: 70, size: 2000 });
    const thumb = await send(t, 'GET', res.body[0].thumbnail, { token: editor });
    expect(thumb.raw.equals(png(5, 7))).toBe(true);
  });
});
