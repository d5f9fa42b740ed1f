import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '@/server/modules/files/files.table';
import { thumbnailBlobKey } from '@/server/storage/keys';
import { createTestContext, TEST_PASSWORD, testEnv, type TestContext } from '@/server/test/harness';
import { png, send, uploadRequest } from './uploads.test-kit';

/**
 * Stored XSS through the declared content type (issue 10): the type a client declares is never stored
 * or served; every download answers the file's real, supported type with nosniff and a sandboxing CSP.
 */
let t: TestContext;
let customerId: number;
let editor: string;
let viewerCookie: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  const viewer = await t.factories.user({ role: 'VIEWER', customerId });
  const grant = await t.token({ grant_type: 'password', username: viewer.email, password: TEST_PASSWORD });
  const cookie = await encode({
    secret: testEnv.AUTH_SECRET,
    token: {
      sub: viewer.id,
      email: viewer.email,
      accessToken: grant.body.access_token,
      refreshToken: grant.body.refresh_token,
      user: { id: viewer.id, email: viewer.email, role: 'VIEWER' },
    },
  });
  viewerCookie = `next-auth.session-token=${cookie}`;
});
afterAll(() => t.close());

const HTML = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/v2/user/me").then(r=>r.text()).then(alert)</script></body></html>',
);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(100, 1)]);

/** Every way a download is made: bearer token, console session cookie, signed URL. */
async function downloads(location: string, fileId: string) {
  const signed = await send(t, 'GET', `/api/v2/file/${fileId}/signedUrl`, { token: editor });
  const url = new URL(signed.body.url);
  const thumbUrl = new URL(signed.body.thumbnailUrl);

  return {
    bearer: await send(t, 'GET', location, { token: editor }),
    cookie: await send(t, 'GET', location, { headers: { cookie: viewerCookie } }),
    signed: await send(t, 'GET', url.pathname + url.search, {}),
    signedThumbnail: await send(t, 'GET', thumbUrl.pathname + thumbUrl.search, {}),
  };
}

function expectSafe(res: { status: number; headers: Headers }, type: string, disposition: 'inline' | 'attachment' = 'inline') {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe(type);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toMatch(/^sandbox[ ;].*default-src 'none'/);
  expect(res.headers.get('content-security-policy')).not.toMatch(/allow-scripts/);
  expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition};`));
}

describe('POST /api/file ignores the declared type', () => {
  it('stores and serves a part named x.png typed text/html as image/png, on every download path', async () => {
    const res = await uploadRequest(t, editor, [{ field: 'files', name: 'x.png', data: HTML, type: 'text/html' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A preview must be an image (server/storage/image-types.ts: 415 otherwise); a thumbnail stored before that rule
    // may hold anything, as this one does.
    await t.storage.put(thumbnailBlobKey(customerId, res.body[0].id), Readable.from([HTML]));
    expect(res.body[0].contentType).toBe('image/png');
    const [row] = await t.db.select({ contentType: files.contentType }).from(files).where(eq(files.id, res.body[0].id));
    expect(row!.contentType).toBe('image/png');
    const all = await downloads(res.body[0].location, res.body[0].id);
    for (const name of ['bearer', 'cookie', 'signed'] as const) {
      expectSafe(all[name], 'image/png');
      expect(all[name].raw.equals(HTML)).toBe(true);
    }
    // The thumbnail's bytes are no image: served as an attachment of unknown type, sandboxed.
    expectSafe(all.signedThumbnail, 'application/octet-stream', 'attachment');
    expectSafe(await send(t, 'GET', `${res.body[0].location}.tmb`, { token: editor }), 'application/octet-stream', 'attachment');
  });

  it('stores the type the bytes show: a real PNG typed text/html, a JPEG named .png', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 3)]);
    const res = await uploadRequest(t, editor, [
      { field: 'files', name: 'real.png', data: png(20, 10, 400), type: 'text/html' },
      { field: 'files', name: 'really-a-jpeg.png', data: jpeg, type: 'image/png' },
      { field: 'files', name: 'movie.mp4', data: MP4, type: 'application/javascript' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.map((f: { contentType: string }) => f.contentType)).toEqual(['image/png', 'image/jpeg', 'video/mp4']);
    expectSafe(await send(t, 'GET', res.body[1].location, { token: editor }), 'image/jpeg');
    const video = await send(t, 'GET', res.body[2].location, { token: editor });
    expectSafe(video, 'video/mp4');
    // A video document loads its own URL again: it keeps its origin, still without script.
    expect(video.headers.get('content-security-policy')).toMatch(/^sandbox allow-same-origin;/);
  });

  it('serves SVG (a browser runs its scripts as a document) only as a sandboxed attachment', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>');
    const res = await uploadRequest(t, editor, [{ field: 'files', name: 'logo.svg', data: svg, type: 'text/html' }]);
    expect(res.body[0].contentType).toBe('image/svg+xml');
    const all = await downloads(res.body[0].location, res.body[0].id);
    for (const name of ['bearer', 'cookie', 'signed'] as const) expectSafe(all[name], 'image/svg+xml', 'attachment');
  });
});

describe('chunked upload ignores the declared type', () => {
  it('init with contentType text/html: the file gets the type its bytes show', async () => {
    for (const [name, data, type] of [
      ['page.png', HTML, 'image/png'],
      ['clip.mp4', MP4, 'video/mp4'],
    ] as const) {
      const init = await t.request('POST', '/api/v2/file/upload/init', {
        token: editor,
        json: { name, size: data.length, totalChunks: 1, contentType: 'text/html' },
      });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      const put = await send(t, 'PUT', `/api/v2/file/upload/${init.body.uploadId}/part/1`, {
        token: editor,
        body: new Uint8Array(data),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const done = await t.request('POST', `/api/v2/file/upload/${init.body.uploadId}/complete`, { token: editor });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.contentType).toBe(type);
      const all = await downloads(done.body.location, done.body.id);
      for (const how of ['bearer', 'cookie', 'signed'] as const) expectSafe(all[how], type);
    }
  });
});

describe('files stored before types were checked', () => {
  it("are served as their extension's type, never as the stored declared one", async () => {
    const res = await uploadRequest(t, editor, [{ field: 'files', name: 'old.png', data: HTML }]);
    await t.db.update(files).set({ contentType: 'text/html' }).where(eq(files.id, res.body[0].id));
    const all = await downloads(res.body[0].location, res.body[0].id);
    for (const name of ['bearer', 'cookie', 'signed'] as const) expectSafe(all[name], 'image/png');
  });
});
