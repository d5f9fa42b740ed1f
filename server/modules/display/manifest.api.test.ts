import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlideDocument } from '@/server/modules/content/content-data.schemas';
import { contentTestKit, type ContentTestKit } from '@/server/modules/content/content.test-kit';
import { customers } from '@/server/tenant/customers.table';
import { devices } from '@/server/modules/devices/devices.table';
import { insertFolder } from '@/server/modules/files/files.test-kit';
import { signPath } from '@/server/modules/uploads/signed-urls';
import { png, send, uploadRequest } from '@/server/modules/uploads/uploads.test-kit';
import type { TestContext } from '@/server/test/harness';
import { listenToChannel } from '@/server/db/notification-feed';
import { createLogger } from '@/server/logger';
import { DEVICE_PUSH_CHANNEL } from './device-push';
import { asDevice, newDevice, type TestDevice } from './display.test-kit';
import { devicesAffectedBy, manifestEtag, manifestPeriod } from './manifest';

let k: ContentTestKit;
let t: TestContext;
let customerId: number;
/** An uploaded image (real bytes), a file in a folder the playlist plays, and one the nested slide shows. */
let image: { id: string; size: number; crcCheckSum: string };
let imageBytes: Buffer;
let folderFile: { id: string };
let folderId: string;
let slideImage: { id: string };
let slideId: string;
/** The nested slide as it was sent: keyed by page name, with keys the server does not know. */
let slideDocument: SlideDocument;
let innerPlaylistId: string;
let playlistId: string;

const DAY = 24 * 3_600_000;

async function upload(name: string, data: Buffer) {
  const res = await uploadRequest(t, k.editor, [{ field: 'files', name, data, type: 'image/png' }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body[0] as { id: string; size: number; crcCheckSum: string };
}

beforeAll(async () => {
  k = await contentTestKit();
  t = k.t;
  customerId = k.customerId;
  imageBytes = png(40, 30, 2_000);
  image = await upload('poster.png', imageBytes);
  slideImage = await upload('logo.png', png(8, 8));
  const folder = await insertFolder(t.db, k.fileRoot, 'Gallery');
  folderId = folder.id;
  folderFile = await k.file(folder, { name: 'a-gallery.png', metaData: { duration: 12.5 }, width: 100, height: 50 });
  await k.file(folder, { name: 'b-gallery.png' });
  const { Default: page } = k.slide([
    { id: 'img', type: 'image', x: 0, y: 0, width: 10, height: 10, zIndex: 1, fileId: slideImage.id, effect: 'glow' },
  ]);
  slideDocument = { Default: { ...page!, vendorLayout: { grid: 12 } } };
  slideId = (await k.createSlide('Nested slide', slideDocument)).id;
  innerPlaylistId = (await k.createPlaylist('Inner', k.playlist([{ key: 'i1', type: 'FILE', id: image.id }]))).id;
  playlistId = (
    await k.createPlaylist(
      'Lobby',
      k.playlist([
        { key: 'p1', type: 'FILE', id: image.id },
        { key: 'p2', type: 'FILE_FOLDER', id: folderId },
        { key: 'p3', type: 'CONTENT', id: slideId },
        { key: 'p4', type: 'SIMPLE_LOOP', id: innerPlaylistId },
      ]),
    )
  ).id;
});
afterAll(() => t.close());

const setDevice = (id: string, values: Partial<typeof devices.$inferInsert>) => t.db.update(devices).set(values).where(eq(devices.id, id));
const manifestOf = (device: TestDevice, headers: Record<string, string> = {}) =>
  t.request('GET', '/api/display/manifest', { token: device.token, headers });

describe('GET /api/display/manifest', () => {
  it('refuses an unassigned device (403 display.error.notAssigned) and user tokens (401)', async () => {
    const unassigned = await newDevice(t);
    const refused = await manifestOf(unassigned);
    expect(refused.status).toBe(403);
    expect(refused.body.key).toBe('display.error.notAssigned');
    for (const token of [k.owner, k.viewer]) expect((await t.request('GET', '/api/display/manifest', { token })).status).toBe(401);
  });

  it('answers one NONE segment over [generatedAt, validUntil) when nothing is assigned', async () => {
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { timeZone: 'Europe/Berlin', settings: { volume: 40, showName: true } });
    const res = await manifestOf(device);
    expect(res.status).toBe(200);
    const m = res.body;
    expect(res.headers.get('etag')).toBe(`"${m.etag}"`);
    expect(m.validUntil - m.generatedAt).toBeGreaterThanOrEqual(DAY);
    expect(m.validUntil).toBe(manifestPeriod(m.generatedAt).validUntil);
    expect(m).toMatchObject({ timeZone: 'Europe/Berlin', settings: { volume: 40, showName: true }, contents: {}, files: {}, folders: {} });
    expect(m.segments).toEqual([{ from: m.generatedAt, to: m.validUntil, layer: 'NONE', channels: [] }]);
  });

  it('plays the assigned playlist: its content closure, files (direct, in folders, in nested slides) with signed URLs', async () => {
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: playlistId });
    const res = await manifestOf(device);
    expect(res.status).toBe(200);
    const m = res.body;
    expect(m.segments).toEqual([
      {
        from: m.generatedAt,
        to: m.validUntil,
        layer: 'CONTENT',
        content: { id: playlistId, name: 'Lobby', deviceContentType: 'simpleLoop' },
        channels: [],
      },
    ]);
    expect(Object.keys(m.contents).sort()).toEqual([playlistId, slideId, innerPlaylistId].sort());
    // A slide as it was sent: keyed by page name, unknown keys kept (DECISIONS §2).
    expect(m.contents[slideId]).toEqual({
      id: slideId,
      name: 'Nested slide',
      deviceContentType: 'content',
      structureType: 'SLIDE',
      data: slideDocument,
    });
    expect(m.contents[playlistId].data.slides).toHaveLength(4);
    expect(Object.keys(m.files).sort()).toEqual([image.id, slideImage.id, folderFile.id, expect.any(String)].sort());
    expect(m.files[image.id]).toMatchObject({
      id: image.id,
      name: 'poster.png',
      contentType: 'image/png',
      size: image.size,
      crcCheckSum: image.crcCheckSum,
      width: 40,
      height: 30,
    });
    expect(m.files[folderFile.id]).toMatchObject({ durationMs: 12_500, width: 100, height: 50 });
    expect(m.folders[folderId]).toHaveLength(2);
    expect(m.folders[folderId][0]).toBe(folderFile.id);

    // The URL works without a token, with Range, until validUntil + 24 h.
    const url = new URL(m.files[image.id].url);
    expect(Number(url.searchParams.get('token')!.split('.')[0]) * 1000).toBe(m.validUntil + DAY);
    const whole = await send(t, 'GET', url.pathname + url.search, {});
    expect(whole.status).toBe(200);
    expect(whole.raw.equals(imageBytes)).toBe(true);
    const part = await send(t, 'GET', url.pathname + url.search, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.raw.equals(imageBytes.subarray(0, 10))).toBe(true);
    expect((await send(t, 'GET', url.pathname + url.search, { headers: { 'if-none-match': whole.headers.get('etag')! } })).status).toBe(
      304,
    );
  });

  it('refuses a tampered or expired signature (401), and a signature for another file', async () => {
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: playlistId });
    const m = (await manifestOf(device)).body;
    const url = new URL(m.files[image.id].url);
    const token = url.searchParams.get('token')!;
    const [expires, deviceId, mac] = token.split('.') as [string, string, string];
    expect(deviceId).toBe(device.deviceId);
    const tampered = `${expires}.${deviceId}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    const bad = await send(t, 'GET', `${url.pathname}?token=${tampered}`, {});
    expect(bad.status).toBe(401);
    const later = await send(t, 'GET', `${url.pathname}?token=${Number(expires) + 1}.${deviceId}.${mac}`, {});
    expect(later.status).toBe(401);
    // Another device's id, or none, under the same signature: refused.
    const sibling = await newDevice(t, { customerId });
    expect((await send(t, 'GET', `${url.pathname}?token=${expires}.${sibling.deviceId}.${mac}`, {})).status).toBe(401);
    expect((await send(t, 'GET', `${url.pathname}?token=${expires}.${mac}`, {})).status).toBe(401);
    const expired = await send(
      t,
      'GET',
      `${url.pathname}?token=${signPath(t.config, { method: 'GET', path: url.pathname, expiresAt: new Date(Date.now() - 1000) })}`,
      {},
    );
    expect(expired.status).toBe(401);
    expect(expired.body.key).toBe('auth.error.tokenExpired');
    const other = new URL(m.files[slideImage.id].url);
    expect((await send(t, 'GET', `${other.pathname}?token=${token}`, {})).status).toBe(401);
  });

  it("signs its file URLs for the device: they stop at once when it is deleted or its customer restricted; a user's signed URL goes on", async () => {
    const tech = (await t.actor('TECHNICIAN', { customerId })).token;
    const device = await newDevice(t, { customerId });
    const survivor = await newDevice(t, { customerId });
    for (const d of [device, survivor]) await setDevice(d.deviceId, { contentId: playlistId });
    const urlOf = async (d: TestDevice) => {
      const url = new URL((await manifestOf(d)).body.files[image.id].url);

      return url.pathname + url.search;
    };
    const mine = await urlOf(device);
    const theirs = await urlOf(survivor);
    expect(mine).not.toBe(theirs);
    const userUrl = new URL((await t.request('GET', `/api/v2/file/${image.id}/signedUrl?expiresIn=600`, { token: k.viewer })).body.url);
    const get = (path: string, headers: Record<string, string> = {}) => send(t, 'GET', path, { headers });
    expect((await get(mine, { range: 'bytes=0-9' })).status).toBe(206);

    // Restricted: every URL of the tenant's devices answers 401 (as the devices' calls); lifted: they work again.
    await t.db.update(customers).set({ restricted: true }).where(eq(customers.id, customerId));
    for (const path of [mine, theirs]) {
      const refused = await get(path, { range: 'bytes=0-9' });
      expect(refused.status).toBe(401);
      expect(refused.body.key).toBe('auth.error.customerRestricted');
    }
    await t.db.update(customers).set({ restricted: false }).where(eq(customers.id, customerId));
    expect((await get(theirs)).status).toBe(200);

    expect((await t.request('DELETE', `/api/device/${device.deviceId}`, { token: tech })).status).toBe(204);
    for (const headers of [{}, { range: 'bytes=0-9' }] as Array<Record<string, string>>) {
      const gone = await get(mine, headers);
      expect(gone.status).toBe(401);
      expect(gone.body.key).toBe('auth.error.invalidToken');
    }
    // The other device's URL and the console's signed URL for the same file are untouched.
    expect((await get(theirs, { range: 'bytes=0-9' })).status).toBe(206);
    const user = await get(userUrl.pathname + userUrl.search);
    expect(user.status).toBe(200);
    expect(user.raw.equals(imageBytes)).toBe(true);
  });

  it("plays EMERGENCY over CONTENT: the device's emergency content, else the customer's default", async () => {
    const emergencySlide = (await k.createSlide('Evacuate')).id;
    const defaultEmergency = (await k.createSlide('Default emergency')).id;
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: playlistId, emergencyContentId: emergencySlide, emergencyStatus: true });
    let m = (await manifestOf(device)).body;
    expect(m.segments).toEqual([
      expect.objectContaining({ layer: 'EMERGENCY', content: { id: emergencySlide, name: 'Evacuate', deviceContentType: 'content' } }),
    ]);
    expect(Object.keys(m.contents)).toEqual([emergencySlide]);
    expect(m.files).toEqual({});

    await setDevice(device.deviceId, { emergencyContentId: null });
    expect((await manifestOf(device)).body.segments[0].layer).toBe('CONTENT');
    await t.db.update(customers).set({ defaultEmergencyContentId: defaultEmergency }).where(eq(customers.id, customerId));
    m = (await manifestOf(device)).body;
    expect(m.segments[0]).toMatchObject({ layer: 'EMERGENCY', content: { id: defaultEmergency } });
    await t.db.update(customers).set({ defaultEmergencyContentId: null }).where(eq(customers.id, customerId));
  });

  it("never shows another tenant's content, even when a column points at it", async () => {
    const foreign = (
      await k.t.request('POST', `/api/content?contentGroupId=${k.otherRoot.id}`, {
        token: k.otherEditor,
        json: { name: 'Foreign', structureType: 'SLIDE', data: k.slide() },
      })
    ).body.id;
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: foreign });
    const m = (await manifestOf(device)).body;
    expect(m.segments[0].layer).toBe('NONE');
    expect(m.contents).toEqual({});
  });
});

describe('the manifest ETag', () => {
  it("is stable, answers 304 to If-None-Match, equals the heartbeat's, and changes with settings, content data and replaced files", async () => {
    const own = (
      await k.createPlaylist(
        'Etag playlist',
        k.playlist([
          { key: 'e1', type: 'FILE', id: image.id },
          { key: 'e2', type: 'CONTENT', id: slideId },
        ]),
      )
    ).id;
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: own });
    const first = await manifestOf(device);
    const etag = first.body.etag as string;
    expect((await manifestOf(device)).body.etag).toBe(etag);
    const heartbeat = await asDevice(t, device.token)('POST', '/api/display/heartbeat', {});
    expect(heartbeat.body.manifestEtag).toBe(etag);
    expect(await manifestEtag(t.db, device.deviceId)).toBe(etag);

    const notModified = await manifestOf(device, { 'if-none-match': `"${etag}"` });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBeUndefined();
    expect(notModified.headers.get('etag')).toBe(`"${etag}"`);
    expect((await manifestOf(device, { 'if-none-match': '"stale"' })).status).toBe(200);

    // A device setting.
    const volume = await t.request(
      'POST',
      `/api/v2/device/volume?customerId=${customerId}&search=${encodeURIComponent(`id=${device.deviceId}`)}&level=55`,
      { token: k.owner },
    );
    expect(volume.body).toEqual({ updated: 1 });
    const afterSetting = (await manifestOf(device)).body;
    expect(afterSetting.settings.volume).toBe(55);
    expect(afterSetting.etag).not.toBe(etag);

    // The content's document (a nested item's document counts too).
    const saved = await t.request('PUT', `/api/simpleLoop/${own}`, {
      token: k.editor,
      json: {
        data: k.playlist([
          { key: 'e1', type: 'FILE', id: image.id, durationMs: 5_000 },
          { key: 'e2', type: 'CONTENT', id: slideId },
        ]),
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const afterData = (await manifestOf(device)).body;
    expect(afterData.etag).not.toBe(afterSetting.etag);

    // A file it plays, replaced by another: the devices affected are known before, the ETag changes after.
    const replacement = await upload('poster-v2.png', png(20, 20));
    expect(await devicesAffectedBy(t.db, { customerId, fileIds: [image.id] })).toContain(device.deviceId);
    const replaced = await t.request(
      'PUT',
      `/api/file/replaceFileReference?customerId=${customerId}&fileIdToReplace=${image.id}&sourceFileId=${replacement.id}`,
      { token: k.owner },
    );
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const afterFile = (await manifestOf(device)).body;
    expect(Object.keys(afterFile.files)).toContain(replacement.id);
    expect(afterFile.etag).not.toBe(afterData.etag);
    // Put it back for the other tests.
    await t.request(
      'PUT',
      `/api/file/replaceFileReference?customerId=${customerId}&fileIdToReplace=${replacement.id}&sourceFileId=${image.id}`,
      { token: k.owner },
    );
  });

  it('lists the devices a content or file change may reach (assigned, emergency, nested, in a folder)', async () => {
    const assigned = await newDevice(t, { customerId });
    const viaEmergency = await newDevice(t, { customerId });
    const unrelated = await newDevice(t, { customerId });
    await setDevice(assigned.deviceId, { contentId: playlistId });
    await setDevice(viaEmergency.deviceId, { emergencyContentId: innerPlaylistId });
    const bySlide = await devicesAffectedBy(t.db, { customerId, contentIds: [slideId] });
    expect(bySlide).toContain(assigned.deviceId);
    expect(bySlide).not.toContain(viaEmergency.deviceId);
    const byImage = await devicesAffectedBy(t.db, { customerId, fileIds: [image.id] });
    expect(byImage).toEqual(expect.arrayContaining([assigned.deviceId, viaEmergency.deviceId]));
    expect(byImage).not.toContain(unrelated.deviceId);
    expect(await devicesAffectedBy(t.db, { customerId, fileIds: [folderFile.id] })).toContain(assigned.deviceId);
    expect(await devicesAffectedBy(t.db, { customerId: k.otherCustomerId, fileIds: [image.id] })).toEqual([]);
  });
});

describe('GET /api/v2/device/{id}/schedule', () => {
  it("answers the manifest's resolution over the window (default now .. now + 24 h)", async () => {
    const device = await newDevice(t, { customerId });
    await setDevice(device.deviceId, { contentId: playlistId, timeZone: 'America/New_York' });
    const before = Date.now();
    const res = await t.request('GET', `/api/v2/device/${device.deviceId}/schedule?customerId=${customerId}`, { token: k.viewer });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ deviceId: device.deviceId, timeZone: 'America/New_York' });
    expect(res.body.from).toBeGreaterThanOrEqual(before);
    expect(res.body.to - res.body.from).toBe(DAY);
    expect(res.body.segments).toEqual([
      {
        from: res.body.from,
        to: res.body.to,
        layer: 'CONTENT',
        content: { id: playlistId, name: 'Lobby', deviceContentType: 'simpleLoop' },
        channels: [],
      },
    ]);
    const windowed = await t.request(
      'GET',
      `/api/v2/device/${device.deviceId}/schedule?customerId=${customerId}&from=1000&to=${1000 + 7 * DAY}`,
      { token: k.viewer },
    );
    expect(windowed.status).toBe(200);
    expect(windowed.body.segments).toEqual([expect.objectContaining({ from: 1000, to: 1000 + 7 * DAY })]);
    // A default bound a day from the given one stays within 1970 to the end of 9999 (the answer's own bounds).
    const early = await t.request('GET', `/api/v2/device/${device.deviceId}/schedule?customerId=${customerId}&to=5000`, {
      token: k.viewer,
    });
    expect(early.body).toMatchObject({ from: 0, to: 5000 });
    const last = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const late = await t.request('GET', `/api/v2/device/${device.deviceId}/schedule?customerId=${customerId}&from=${last - 5000}`, {
      token: k.viewer,
    });
    expect(late.body).toMatchObject({ from: last - 5000, to: last });
  });

  it("refuses windows over 7 days or reversed (400), another tenant's or an unknown device (404), and devices (401)", async () => {
    const device = await newDevice(t, { customerId });
    const path = `/api/v2/device/${device.deviceId}/schedule`;
    for (const query of [`from=0&to=${7 * DAY + 1}`, 'from=2000&to=1000', 'from=1000&to=1000', 'from=abc']) {
      const res = await t.request('GET', `${path}?customerId=${customerId}&${query}`, { token: k.viewer });
      expect(res.status, query).toBe(400);
      // A window reversed or too long is a rule between `from` and `to`: its own key.
      if (query !== 'from=abc') expect(res.body.key, query).toBe('request.error.invalidCombination');
    }
    expect((await t.request('GET', `${path}?customerId=${k.otherCustomerId}`, { token: k.otherEditor })).status).toBe(404);
    expect(
      (await t.request('GET', `/api/v2/device/0190f4c2-7d1a-7c3e-9a51-3b5f1f0d2a11/schedule?customerId=${customerId}`, { token: k.viewer }))
        .status,
    ).toBe(404);
    expect((await t.request('GET', `${path}?customerId=${customerId}`, { token: device.token })).status).toBe(401);
    expect((await t.request('GET', `${path}?customerId=${customerId}`, {})).status).toBe(401);
  });

  it("is not affected by the server's clock in the manifest period: validUntil is 24–48 h ahead at a UTC midnight", () => {
    const now = Date.UTC(2026, 0, 1, 23, 59, 59);
    expect(manifestPeriod(now).validUntil).toBe(Date.UTC(2026, 0, 3));
    expect(manifestPeriod(Date.UTC(2026, 0, 1)).validUntil - Date.UTC(2026, 0, 1)).toBe(2 * DAY);
  });
});

describe('changes that reach connected screens', () => {
  it('announce manifest on device_push for the screens showing a saved nested slide, or a renamed file (and not the others)', async () => {
    const heard: string[] = [];
    const feed = await listenToChannel(
      t.handle,
      DEVICE_PUSH_CHANNEL,
      { message: (payload) => void heard.push(payload) },
      createLogger('silent'),
    );
    try {
      const showing = await newDevice(t, { customerId });
      const other = await newDevice(t, { customerId });
      await setDevice(showing.deviceId, { contentId: playlistId });
      const saved = await t.request('PUT', `/api/content/${slideId}`, { token: k.editor, json: { name: 'Nested slide' } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // Other screens of earlier tests show the playlist too; the one showing nothing is never named.
      await expect.poll(() => heard.join()).toContain(`${showing.deviceId}`);
      expect(heard.every((p) => p.startsWith('manifest:'))).toBe(true);
      heard.length = 0;
      expect((await t.request('POST', `/api/file/rename?fileId=${slideImage.id}&newName=logo-2.png`, { token: k.editor })).status).toBe(
        200,
      );
      await expect.poll(() => heard.join()).toContain(`${showing.deviceId}`);
      expect(heard.join()).not.toContain(other.deviceId);
    } finally {
      await feed.stop();
    }
  });

  it('announce manifest when a file joins or leaves a folder the screen plays, and when the default emergency content changes', async () => {
    const heard: string[] = [];
    const feed = await listenToChannel(
      t.handle,
      DEVICE_PUSH_CHANNEL,
      { message: (payload) => void heard.push(payload) },
      createLogger('silent'),
    );
    const showing = await newDevice(t, { customerId });
    const other = await newDevice(t, { customerId });
    try {
      await setDevice(showing.deviceId, { contentId: playlistId });
      // Uploaded into the played folder (upload into a folder by `folderId`).
      const added = await uploadRequest(
        t,
        k.editor,
        [{ field: 'files', name: 'c-gallery.png', data: png(4, 4), type: 'image/png' }],
        `parentId=${folderId}`,
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      await expect.poll(() => heard.join()).toContain(showing.deviceId);
      expect(heard.join()).not.toContain(other.deviceId);
      heard.length = 0;
      // Moved out of it into the root.
      const moved = await t.request('POST', '/api/fileFolder/moveBatchToFolder', {
        token: k.editor,
        json: { fileIds: [(added.body as Array<{ id: string }>)[0]!.id], targetFolder: { id: k.fileRoot.id } },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await expect.poll(() => heard.join()).toContain(showing.deviceId);
      heard.length = 0;
      // A screen in emergency without its own emergency content falls back to the customer's default.
      await setDevice(other.deviceId, { emergencyStatus: true, emergencyContentId: null });
      const set = await t.request(
        'PUT',
        `/api/customer/settings/setDefaultContents?customerId=${customerId}&defaultEmergencyContentId=${slideId}`,
        { token: k.owner },
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      await expect.poll(() => heard.join()).toContain(other.deviceId);
      expect(heard.join()).not.toContain(showing.deviceId);
    } finally {
      await setDevice(showing.deviceId, { contentId: null });
      await setDevice(other.deviceId, { emergencyStatus: false });
      await feed.stop();
    }
  });
});
