import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newDevice } from '@/server/modules/display/display.test-kit';
import { devicePreviews } from '@/server/modules/devices/devices.table';
import { files } from '@/server/modules/files/files.table';
import { png, send, storedKeys, uploadRequest } from '@/server/modules/uploads/uploads.test-kit';
import { userProfilePictures } from '@/server/modules/users/users.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { IMAGE_TYPES } from './image-types';

/*
 * One sniffing rule for every image the service stores (issue 27 §4.6): HTML bytes declared as an image are a 415 on
 * every route that stores one, and nothing of them is stored.
 */

const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');

let t: TestContext;
let customerId: number;
let editor: { token: string; user: { id: string } };
let fileId: string;
let fileLocation: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  editor = await t.actor('EDITOR', { customerId });
  const uploaded = await uploadRequest(t, editor.token, [{ field: 'files', name: 'poster.png', data: png(40, 20, 300) }]);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  fileId = uploaded.body[0].id;
  fileLocation = uploaded.body[0].location;
});
afterAll(() => t.close());

const thumbnailKeys = async () => (await storedKeys(t)).filter((key) => key.endsWith('.tmb'));

describe.each(IMAGE_TYPES)('HTML bytes declared as %s', (declared) => {
  it('PUT /api/display/screenshot: 415, no screenshot stored', async () => {
    if (declared === 'image/gif') return; // not a screenshot type at all (415 for the type alone)
    const device = await newDevice(t, { customerId });
    const res = await send(t, 'PUT', '/api/display/screenshot', {
      token: device.token,
      body: new Uint8Array(HTML),
      headers: { 'content-type': declared },
    });
    expect(res.status).toBe(415);
    expect(await t.db.select().from(devicePreviews).where(eq(devicePreviews.deviceId, device.deviceId))).toEqual([]);
    expect((await storedKeys(t)).filter((key) => key.includes(device.deviceId))).toEqual([]);
  });

  it('PUT /api/v2/file/upload/{fileId}/thumbnail: 415, no thumbnail stored', async () => {
    const res = await send(t, 'PUT', `/api/v2/file/upload/${fileId}/thumbnail`, {
      token: editor.token,
      body: new Uint8Array(HTML),
      headers: { 'content-type': declared },
    });
    expect(res.status).toBe(415);
    expect(res.body.key).toBe('request.error.unsupportedMediaType');
    expect(await thumbnailKeys()).toEqual([]);
    const [row] = await t.db.select().from(files).where(eq(files.id, fileId));
    expect(row!.lastPreviewUploadTime).toBeNull();
  });

  it('POST /api/file with a `previews` part: 415, neither the file nor the preview stored', async () => {
    const before = await storedKeys(t);
    const res = await uploadRequest(t, editor.token, [
      { field: 'files', name: 'x.png', data: png(10, 10, 100), type: 'image/png' },
      { field: 'previews', name: 'x.png', data: HTML, type: declared },
    ]);
    expect(res.status).toBe(415);
    expect(res.body.key).toBe('request.error.unsupportedMediaType');
    expect(await storedKeys(t)).toEqual(before);
    expect(await t.db.select().from(files).where(eq(files.name, 'x.png'))).toEqual([]);
  });

  it('POST /api/v2/user/profilePicture: 415, no picture stored', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(HTML)], { type: declared }), 'picture');
    const res = await t.app.request('/api/v2/user/profilePicture', {
      method: 'POST',
      headers: { authorization: `Bearer ${editor.token}` },
      body: form,
    });
    expect(res.status).toBe(415);
    expect(await t.db.select().from(userProfilePictures).where(eq(userProfilePictures.userId, editor.user.id))).toEqual([]);
  });
});

describe('the same rule accepts the real thing', () => {
  it('a PNG thumbnail declared image/png is stored and served as image/png; a PNG declared image/jpeg is refused', async () => {
    const image = png(16, 16, 120);
    expect(
      (
        await send(t, 'PUT', `/api/v2/file/upload/${fileId}/thumbnail`, {
          token: editor.token,
          body: new Uint8Array(image),
          headers: { 'content-type': 'image/jpeg' },
        })
      ).status,
    ).toBe(415);
    const res = await send(t, 'PUT', `/api/v2/file/upload/${fileId}/thumbnail`, {
      token: editor.token,
      body: new Uint8Array(image),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const served = await send(t, 'GET', `${fileLocation}.tmb`, { token: editor.token });
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.raw.equals(image)).toBe(true);
  });
});
