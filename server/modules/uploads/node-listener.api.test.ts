import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { bytes, crcOf, formOf, png } from './uploads.test-kit';

/**
 * Uploads and downloads through a real Node HTTP server (as server/main.ts serves the API): request
 * bodies are streamed from the raw IncomingMessage there, not from the web body `app.request` gives.
 */
let t: TestContext;
let base: string;
let customerId: number;
let editor: string;

beforeAll(async () => {
  t = await createTestContext();
  base = await t.listen();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
});
afterAll(() => t.close());

const auth = (token = editor) => ({ authorization: `Bearer ${token}` });

async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit; json?: unknown } = {}) {
  const headers = { ...init.headers };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    duplex: 'half',
  } as RequestInit);
  const raw = Buffer.from(await res.arrayBuffer());
  const body = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(raw.toString('utf8')) : raw;

  return { status: res.status, headers: res.headers, body, raw };
}

/** A body sent with `Transfer-Encoding: chunked` (no Content-Length), in pieces. */
function chunkedBody(data: Buffer, piece = 4096): ReadableStream<Uint8Array> {
  let offset = 0;

  return new ReadableStream({
    pull(controller) {
      if (offset >= data.length) {
        controller.close();
        return;
      }
      controller.enqueue(new Uint8Array(data.subarray(offset, offset + piece)));
      offset += piece;
    },
  });
}

describe('chunked upload over HTTP', () => {
  it('stores parts sent with a bearer token and through signed URLs, in any order, and serves the file back', async () => {
    const data = bytes(300_000, 7);
    const init = await call('POST', '/api/v2/file/upload/init', {
      headers: auth(),
      json: { name: 'clip.mp4', size: data.length, totalChunks: 3 },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const { uploadId, maxChunkSize, uploadUrls } = init.body as {
      uploadId: string;
      maxChunkSize: number;
      uploadUrls: Record<string, string>;
    };
    const part = (n: number) => data.subarray((n - 1) * maxChunkSize, n * maxChunkSize);

    const third = await call('PUT', `/api/v2/file/upload/${uploadId}/part/3`, {
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: part(3),
    });
    expect(third.status, JSON.stringify(third.body)).toBe(200);
    // The signed URL names the listener the request came to (not PUBLIC_URL), so it works as given.
    expect(uploadUrls['1']!.startsWith(`${base}/api/v2/file/upload/${uploadId}/part/1?token=`)).toBe(true);
    const firstRes = await fetch(uploadUrls['1']!, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: part(1),
    });
    const first = { status: firstRes.status, body: await firstRes.json() };
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // Without Content-Length: the stream is measured as it arrives.
    const second = await call('PUT', `/api/v2/file/upload/${uploadId}/part/2`, {
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: chunkedBody(part(2)),
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);

    const done = await call('POST', `/api/v2/file/upload/${uploadId}/complete`, { headers: auth() });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ size: data.length, crcCheckSum: crcOf(data) });

    const file = await call('GET', `/api/storage/customer/${customerId}/files/${done.body.id}`, { headers: auth() });
    expect(file.status).toBe(200);
    expect(file.raw.equals(data)).toBe(true);
    const range = await call('GET', `/api/storage/customer/${customerId}/files/${done.body.id}`, {
      headers: { ...auth(), range: 'bytes=1000-1999' },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
    expect(range.raw.equals(data.subarray(1000, 2000))).toBe(true);
  });

  it('answers a part that is too long or too short with its error, and the part stays missing', async () => {
    const init = await call('POST', '/api/v2/file/upload/init', {
      headers: auth(),
      json: { name: 'clip.mp4', size: 19_999, totalChunks: 2 },
    });
    const { uploadId } = init.body as { uploadId: string };
    const type = { ...auth(), 'content-type': 'application/octet-stream' };

    const long = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { headers: type, body: chunkedBody(bytes(15_000)) });
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({ key: 'upload.error.chunkTooLarge', details: { partNumber: 1, maxChunkSize: 10_000 } });
    const declaredLong = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { headers: type, body: bytes(12_000) });
    expect(declaredLong.status).toBe(413);
    const short = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { headers: type, body: chunkedBody(bytes(5_000)) });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ key: 'upload.error.wrongPartSize', details: { expectedSize: 10_000, receivedSize: 5_000 } });
    // An empty body (`content-length: 0`): undici, whichever copy is the global dispatcher, sets the header itself.
    const empty = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { headers: type, body: new Uint8Array(0) });
    expect(empty.status).toBe(400);

    // The last part is shorter (here 9 999 bytes): longer is a wrong size, not a too-large chunk.
    const lastLong = await call('PUT', `/api/v2/file/upload/${uploadId}/part/2`, { headers: type, body: chunkedBody(bytes(10_000)) });
    expect(lastLong.status).toBe(400);
    expect(lastLong.body).toMatchObject({ key: 'upload.error.wrongPartSize', details: { partNumber: 2, expectedSize: 9_999 } });

    const recover = await call('GET', `/api/v2/file/upload/${uploadId}/recover`, { headers: auth() });
    expect(recover.body).toMatchObject({ uploadedChunks: [], missingChunks: [1, 2] });
    // The connection is still usable and the right part is accepted afterwards.
    const right = await call('PUT', `/api/v2/file/upload/${uploadId}/part/1`, { headers: type, body: bytes(10_000) });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
  });

  it('refuses a part of another tenant as not found without storing it', async () => {
    const init = await call('POST', '/api/v2/file/upload/init', { headers: auth(), json: { name: 'clip.mp4', size: 100, totalChunks: 1 } });
    const other = (await t.actor('EDITOR')).token;
    const res = await call('PUT', `/api/v2/file/upload/${init.body.uploadId}/part/1`, {
      headers: { ...auth(other), 'content-type': 'application/octet-stream' },
      body: bytes(100),
    });
    expect(res.status).toBe(404);
    const recover = await call('GET', `/api/v2/file/upload/${init.body.uploadId}/recover`, { headers: auth() });
    expect(recover.body).toMatchObject({ uploadedChunks: [], missingChunks: [1] });
  });
});

describe('downloads over HTTP', () => {
  it('survives a client that goes away mid-body, and answers signed URLs, HEAD and 304', async () => {
    const data = bytes(3_000_000, 3);
    const init = await call('POST', '/api/v2/file/upload/init', {
      headers: auth(),
      json: { name: 'big.mp4', size: data.length, totalChunks: 1 },
    });
    await call('PUT', `/api/v2/file/upload/${init.body.uploadId}/part/1`, {
      headers: { ...auth(), 'content-type': 'application/octet-stream' },
      body: data,
    });
    const file = (await call('POST', `/api/v2/file/upload/${init.body.uploadId}/complete`, { headers: auth() })).body as {
      id: string;
      crcCheckSum: string;
    };
    const path = `/api/storage/customer/${customerId}/files/${file.id}`;

    const abort = new AbortController();
    const res = await fetch(`${base}${path}`, { headers: auth(), signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);

    const signed = await call('GET', `/api/v2/file/${file.id}/signedUrl`, { headers: auth() });
    const url = new URL(signed.body.url);
    const whole = await call('GET', url.pathname + url.search);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('x-request-id')).toBeTruthy();
    expect(whole.raw.equals(data)).toBe(true);
    const head = await call('HEAD', path, { headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(data.length));
    const cached = await call('GET', path, { headers: { ...auth(), 'if-none-match': whole.headers.get('etag')! } });
    expect(cached.status).toBe(304);
  });
});

describe('simple upload over HTTP', () => {
  it('streams a multipart body with a preview into a file record', async () => {
    const image = png(640, 360, 50_000);
    const res = await call('POST', '/api/file', {
      headers: auth(),
      body: formOf([
        { field: 'files', name: 'poster.png', data: image, type: 'image/png' },
        { field: 'previews', name: 'poster.png', data: png(64, 36), type: 'image/png' },
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [file] = res.body as Array<{ id: string; width: number; height: number; size: number; crcCheckSum: string; thumbnail?: string }>;
    expect(file).toMatchObject({ width: 640, height: 360, size: image.length, crcCheckSum: crcOf(image) });
    expect(file!.thumbnail).toBeDefined();
  });
});
