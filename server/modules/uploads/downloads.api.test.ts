import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '@/server/tenant/customers.table';
import { files } from '@/server/modules/files/files.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { signPath } from './signed-urls';
import { png, send, uploadRequest } from './uploads.test-kit';

let t: TestContext;
let customerId: number;
let editor: string;
let viewer: string;
let owner: string;
let file: { id: string; location: string; thumbnail?: string; crcCheckSum: string; size: number };
const content = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = (await t.actor('EDITOR', { customerId })).token;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  owner = (await t.actor('OWNER', { customerId })).token;
  const res = await uploadRequest(t, editor, [{ field: 'files', name: 'data.json', data: content, type: 'application/json' }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  file = res.body[0];
});
afterAll(() => t.close());

describe('GET /api/storage/customer/{customerId}/files/{fileId}', () => {
  it('streams the file with caching headers', async () => {
    const res = await send(t, 'GET', file.location, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.raw.equals(content)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toBe(`"${file.crcCheckSum}-1000"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sandboxes SVG documents so they cannot script the API origin', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><script>alert(1)</script></svg>');
    const up = await uploadRequest(t, editor, [{ field: 'files', name: 'icon.svg', data: svg, type: 'image/svg+xml' }]);
    expect(up.body[0]).toMatchObject({ width: 10, height: 20 });
    const res = await send(t, 'GET', up.body[0].location, { token: viewer });
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    // A browser could run it as a document: only ever an attachment (an <img> shows it all the same).
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('answers ranges with 206 and unsatisfiable ones with 416', async () => {
    const mid = await send(t, 'GET', file.location, { token: viewer, headers: { range: 'bytes=10-19' } });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(mid.headers.get('content-length')).toBe('10');
    expect(mid.raw.equals(content.subarray(10, 20))).toBe(true);
    const open = await send(t, 'GET', file.location, { token: viewer, headers: { range: 'bytes=990-' } });
    expect(open.raw.equals(content.subarray(990))).toBe(true);
    const suffix = await send(t, 'GET', file.location, { token: viewer, headers: { range: 'bytes=-5' } });
    expect(suffix.headers.get('content-range')).toBe('bytes 995-999/1000');
    expect(suffix.raw.equals(content.subarray(995))).toBe(true);
    const beyond = await send(t, 'GET', file.location, { token: viewer, headers: { range: 'bytes=1000-1001' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');
    // Several ranges are answered whole.
    expect((await send(t, 'GET', file.location, { token: viewer, headers: { range: 'bytes=0-1,5-6' } })).status).toBe(200);
  });

  it('answers 304 when If-None-Match matches the ETag', async () => {
    const first = await send(t, 'GET', file.location, { token: viewer });
    const etag = first.headers.get('etag')!;
    const again = await send(t, 'GET', file.location, { token: viewer, headers: { 'if-none-match': `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    expect((await send(t, 'GET', file.location, { token: viewer, headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await send(t, 'HEAD', file.location, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect(res.raw.length).toBe(0);
  });

  it("answers 404 for another tenant's file, an unknown file, a missing thumbnail, and team-invisible files", async () => {
    const stranger = await t.actor('VIEWER');
    expect((await send(t, 'GET', file.location, { token: stranger.token })).status).toBe(404);
    expect(
      (await send(t, 'GET', `/api/storage/customer/${customerId}/files/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11`, { token: viewer })).status,
    ).toBe(404);
    expect((await send(t, 'GET', `/api/storage/customer/${customerId}/files/not-an-id`, { token: viewer })).status).toBe(404);
    expect((await send(t, 'GET', `${file.location}.tmb`, { token: viewer })).status).toBe(404);
    expect((await send(t, 'GET', file.location, {})).status).toBe(401);
    // A member of a team sees only files of its teams (here none).
    const team = await t.request('POST', '/api/team', { token: owner, json: { name: 'elsewhere' } });
    const member = await t.actor('VIEWER', { customerId });
    await t.db.insert(teamAssignments).values({ teamId: team.body.id, resourceType: 'user', resourceId: member.user.id, customerId });
    await t.db.update(customers).set({ accessResourcesWithoutTeam: false }).where(eq(customers.id, customerId));
    expect((await send(t, 'GET', file.location, { token: member.token })).status).toBe(404);
    await t.db.update(customers).set({ accessResourcesWithoutTeam: true }).where(eq(customers.id, customerId));
  });

  it('answers 404 on the preview path of an unknown device (screenshots: display/device-telemetry.api.test.ts)', async () => {
    const res = await send(t, 'GET', `/api/storage/customer/${customerId}/devices/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11/preview.jpg`, {
      token: viewer,
    });
    expect(res.status).toBe(404);
  });
});

describe('signed download URLs', () => {
  it('GET /api/v2/file/{id}/signedUrl gives URLs that work without credentials, for their own path only', async () => {
    const res = await t.request('GET', `/api/v2/file/${file.id}/signedUrl?expiresIn=120`, { token: viewer });
    expect(res.status).toBe(200);
    expect(res.body.expiresAt).toBeGreaterThan(Date.now());
    const url = new URL(res.body.url);
    const download = await send(t, 'GET', url.pathname + url.search, {});
    expect(download.status).toBe(200);
    expect(download.raw.equals(content)).toBe(true);
    const ranged = await send(t, 'GET', url.pathname + url.search, { headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    // The file's token does not open the thumbnail path, and a changed token is refused.
    expect((await send(t, 'GET', `${url.pathname}.tmb${url.search}`, {})).status).toBe(401);
    expect((await send(t, 'GET', `${url.pathname}${url.search.slice(0, -2)}AA`, {})).status).toBe(401);
    const thumbUrl = new URL(res.body.thumbnailUrl);
    expect(thumbUrl.pathname).toBe(`${file.location}.tmb`);
  });

  it('refuses an expired token', async () => {
    const token = signPath(t.config, { method: 'GET', path: file.location, expiresAt: new Date(Date.now() - 1000) });
    const res = await send(t, 'GET', `${file.location}?token=${token}`, {});
    expect(res.status).toBe(401);
    expect(res.body.key).toBe('auth.error.tokenExpired');
  });

  it('signs only files the caller can see', async () => {
    const stranger = await t.actor('VIEWER');
    expect((await t.request('GET', `/api/v2/file/${file.id}/signedUrl`, { token: stranger.token })).status).toBe(404);
    expect((await t.request('GET', `/api/v2/file/${file.id}/signedUrl?expiresIn=5`, { token: viewer })).status).toBe(400);
  });
});

describe('PUT /api/v2/file/upload/{fileId}/thumbnail', () => {
  it('stores the thumbnail, sets lastPreviewUploadTime, and replaces an earlier one', async () => {
    const first = png(32, 32, 200);
    const res = await send(t, 'PUT', `/api/v2/file/upload/${file.id}/thumbnail`, {
      token: editor,
      body: new Uint8Array(first),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.thumbnail).toMatch(new RegExp(`^${file.location}\\.tmb\\?v=\\d+$`));
    expect(res.body.lastPreviewUploadTime).toEqual(expect.any(Number));
    expect((await send(t, 'GET', res.body.thumbnail, { token: viewer })).raw.equals(first)).toBe(true);
    const second = png(16, 16, 100);
    await send(t, 'PUT', `/api/v2/file/upload/${file.id}/thumbnail`, {
      token: editor,
      body: new Uint8Array(second),
      headers: { 'content-type': 'image/png' },
    });
    expect((await send(t, 'GET', res.body.thumbnail, { token: viewer })).raw.equals(second)).toBe(true);
    expect((await t.db.select().from(blobCleanup)).filter((e) => e.key.includes(file.id))).toEqual([]);
  });

  it("refuses non-images (415), oversized bodies (413), VIEWERs (403) and other tenants' files (404)", async () => {
    const put = (token: string, type: string, body: Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) =>
      send(t, 'PUT', `/api/v2/file/upload/${file.id}/thumbnail`, { token, body, headers: { 'content-type': type, ...headers } });
    expect((await put(editor, 'text/plain', new Uint8Array(10))).status).toBe(415);
    expect((await put(editor, 'image/png', new Uint8Array(10), { 'content-length': String(11 * 1024 * 1024) })).status).toBe(413);
    expect((await put(editor, 'image/png', new Uint8Array(png(10, 10, 10 * 1024 * 1024 + 1)))).status).toBe(413);
    expect((await put(viewer, 'image/png', new Uint8Array(10))).status).toBe(403);
    const stranger = await t.actor('EDITOR');
    expect((await put(stranger.token, 'image/png', new Uint8Array(10))).status).toBe(404);
    const [row] = await t.db.select().from(files).where(eq(files.id, file.id));
    expect(row!.lastPreviewUploadTime).not.toBeNull();
  });
});
