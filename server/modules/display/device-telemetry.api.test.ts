import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '@/server/tenant/customers.table';
import { PREVIEW_HISTORY } from '@/server/modules/devices/device-previews.service';
import { devicePreviews, devices } from '@/server/modules/devices/devices.table';
import { teamAssignments } from '@/server/modules/teams/teams.table';
import { png, send, storedKeys } from '@/server/modules/uploads/uploads.test-kit';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { SCREENSHOT_MAX_BYTES } from './device-telemetry';
import { newDevice, type TestDevice } from './display.test-kit';

let t: TestContext;
let customerId: number;
let otherCustomerId: number;
let viewer: string;
let technician: string;
let otherViewer: string;
let admin: string;

beforeAll(async () => {
  t = await createTestContext();
  customerId = (await t.factories.customer()).id;
  otherCustomerId = (await t.factories.customer()).id;
  viewer = (await t.actor('VIEWER', { customerId })).token;
  technician = (await t.actor('TECHNICIAN', { customerId })).token;
  otherViewer = (await t.actor('VIEWER', { customerId: otherCustomerId })).token;
  admin = (await t.actor('ADMIN')).token;
});
afterAll(() => t.close());

const jpeg = (size = 200) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 3)]);
const webp = (size = 200) => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4, 1), Buffer.from('WEBPVP8 '), Buffer.alloc(size - 16, 5)]);

function putScreenshot(device: TestDevice, body: Buffer | ReadableStream<Uint8Array>, type = 'image/png', query = '') {
  return send(t, 'PUT', `/api/display/screenshot${query}`, {
    token: device.token,
    body: body as BodyInit,
    headers: type ? { 'content-type': type } : {},
  });
}

const previewUrl = (deviceId: string, customer = customerId, query = '') =>
  `/api/storage/customer/${customer}/devices/${deviceId}/preview.jpg${query}`;
const previewKeys = async (deviceId: string) => (await storedKeys(t)).filter((k) => k.includes(`/devices/${deviceId}/previews/`));
const previewRows = (deviceId: string) => t.db.select().from(devicePreviews).where(eq(devicePreviews.deviceId, deviceId));

describe('PUT /api/display/screenshot', () => {
  it('stores the image: the device’s previewPath, the newest previewStore entry, served with the download rules', async () => {
    const device = await newDevice(t, { customerId });
    const before = await t.request('GET', `/api/v2/device/${device.deviceId}?customerId=${customerId}`, { token: viewer });
    expect(before.body.previewPath).toBeUndefined();
    expect(
      (await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer })).body,
    ).toEqual([]);
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: viewer })).status).toBe(404);

    const image = png(320, 180, 500);
    const res = await putScreenshot(device, image);
    expect(res.status, res.raw.toString()).toBe(204);

    const read = await t.request('GET', `/api/v2/device/${device.deviceId}?customerId=${customerId}`, { token: viewer });
    const [row] = await t.db.select().from(devices).where(eq(devices.id, device.deviceId));
    expect(read.body.previewPath).toBe(previewUrl(device.deviceId, customerId, `?v=${row!.previewUpdatedAt!.getTime()}`));

    const store = await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer });
    expect(store.status).toBe(200);
    expect(store.body).toEqual([
      {
        id: expect.any(String),
        takenAt: row!.previewUpdatedAt!.toISOString(),
        contentType: 'image/png',
        size: 500,
        highRes: false,
        path: previewUrl(device.deviceId, customerId, `?previewId=${store.body[0].id}`),
      },
    ]);

    const got = await send(t, 'GET', read.body.previewPath, { token: viewer });
    expect(got.status).toBe(200);
    expect(got.raw.equals(image)).toBe(true);
    const headers = Object.fromEntries(got.headers.entries());
    expect(headers).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-cache',
      'content-security-policy': expect.stringContaining('sandbox'),
    });
    const etag = got.headers.get('etag')!;
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: viewer, headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await send(t, 'GET', previewUrl(device.deviceId), { token: viewer, headers: { range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.raw.equals(image.subarray(0, 8))).toBe(true);
    expect(part.headers.get('content-range')).toBe('bytes 0-7/500');
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: viewer, headers: { range: 'bytes=900-' } })).status).toBe(416);
    // A technician and an ADMIN see it too; the crash-safety entry of the upload is gone once the row is committed.
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: technician })).status).toBe(200);
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: admin })).status).toBe(200);
    expect(
      await t.db
        .select()
        .from(blobCleanup)
        .where(like(blobCleanup.key, `%/devices/${device.deviceId}/%`)),
    ).toEqual([]);
  });

  it('takes JPEG and WebP too; previewStore lists newest first and each path loads its own screenshot; highRes is kept', async () => {
    const device = await newDevice(t, { customerId });
    expect((await putScreenshot(device, jpeg(), 'image/jpeg')).status).toBe(204);
    expect((await putScreenshot(device, webp(), 'image/webp; charset=binary', '?highRes=true')).status).toBe(204);
    const store = await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer });
    expect(store.body.map((p: { contentType: string; highRes: boolean }) => [p.contentType, p.highRes])).toEqual([
      ['image/webp', true],
      ['image/jpeg', false],
    ]);
    const newest = await send(t, 'GET', previewUrl(device.deviceId), { token: viewer });
    expect(newest.headers.get('content-type')).toBe('image/webp');
    const older = await send(t, 'GET', store.body[1].path, { token: viewer });
    expect(older.headers.get('content-type')).toBe('image/jpeg');
    expect(older.raw.equals(jpeg())).toBe(true);
  });

  it('keeps the time the player reports it took the screenshot (takenAt), not the upload time; refuses one from the future or over an hour old', async () => {
    const device = await newDevice(t, { customerId });
    const takenAt = Date.now() - 90_000;
    expect((await putScreenshot(device, png(320, 180), 'image/png', `?highRes=true&takenAt=${takenAt}`)).status).toBe(204);
    const store = await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer });
    expect(store.body[0]).toMatchObject({ takenAt: new Date(takenAt).toISOString(), highRes: true });
    const read = await t.request('GET', `/api/v2/device/${device.deviceId}?customerId=${customerId}`, { token: viewer });
    expect(read.body.previewPath).toBe(previewUrl(device.deviceId, customerId, `?v=${takenAt}`));

    const ahead = await putScreenshot(device, png(320, 180), 'image/png', `?takenAt=${Date.now() + 10 * 60_000}`);
    expect(ahead.status).toBe(400);
    expect(JSON.parse(ahead.raw.toString())).toMatchObject({ key: 'display.error.screenshotInFuture', details: { parameter: 'takenAt' } });
    const old = await putScreenshot(device, png(320, 180), 'image/png', `?takenAt=${Date.now() - 2 * 3_600_000}`);
    expect(JSON.parse(old.raw.toString())).toMatchObject({ status: 400, key: 'display.error.screenshotTooOld' });
    expect(await previewRows(device.deviceId)).toHaveLength(1);
  });

  it('refuses a type other than JPEG, PNG or WebP (415), bytes that are not the declared type (415), an empty body (400); nothing is stored', async () => {
    const device = await newDevice(t, { customerId });
    for (const type of ['image/gif', 'text/html', 'application/octet-stream', '']) {
      const res = await putScreenshot(device, png(10, 10), type);
      expect(res.status, String(type)).toBe(415);
      expect(res.body.key).toBe('display.error.unsupportedImageType');
    }
    for (const [body, type] of [
      [jpeg(), 'image/png'],
      [png(10, 10), 'image/webp'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'image/jpeg'],
      [Buffer.from([0xff, 0xd8]), 'image/jpeg'],
    ] as const) {
      const res = await putScreenshot(device, body, type);
      expect(res.status, type).toBe(415);
      expect(res.body.key).toBe('display.error.imageMismatch');
    }
    const empty = await putScreenshot(device, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(await previewRows(device.deviceId)).toEqual([]);
    expect(await previewKeys(device.deviceId)).toEqual([]);
    expect(
      await t.db
        .select()
        .from(blobCleanup)
        .where(like(blobCleanup.key, `%/devices/${device.deviceId}/%`)),
    ).toEqual([]);
  });

  it('refuses more than 5 MB with 413: by Content-Length before reading, and while streaming a body without one', async () => {
    const device = await newDevice(t, { customerId });
    const declared = await send(t, 'PUT', '/api/display/screenshot', {
      token: device.token,
      body: new Uint8Array(png(10, 10)),
      headers: { 'content-type': 'image/png', 'content-length': String(SCREENSHOT_MAX_BYTES + 1) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ key: 'request.error.payloadTooLarge', details: { maxBytes: SCREENSHOT_MAX_BYTES } });

    let sent = 0;
    const head = png(1000, 1000, 1024);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > SCREENSHOT_MAX_BYTES + 1024) return controller.close();
        controller.enqueue(new Uint8Array(sent === 0 ? head : Buffer.alloc(256 * 1024, 1)));
        sent += sent === 0 ? head.length : 256 * 1024;
      },
    });
    const streamed = await putScreenshot(device, stream);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toMatchObject({ key: 'request.error.payloadTooLarge', details: { maxBytes: SCREENSHOT_MAX_BYTES } });
    expect(await previewRows(device.deviceId)).toEqual([]);
    expect(await previewKeys(device.deviceId)).toEqual([]);

    // Exactly 5 MB is taken.
    expect((await putScreenshot(device, png(10, 10, SCREENSHOT_MAX_BYTES))).status).toBe(204);
  });

  it(`keeps the newest ${PREVIEW_HISTORY} screenshots of a device: older rows and their blobs go`, async () => {
    const device = await newDevice(t, { customerId });
    const ids: string[] = [];
    for (let i = 0; i < PREVIEW_HISTORY + 2; i++) {
      expect((await putScreenshot(device, png(10 + i, 10, 100))).status).toBe(204);
      ids.push(
        (await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer })).body[0].id,
      );
    }
    const store = await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: viewer });
    expect(store.body.map((p: { id: string }) => p.id)).toEqual(ids.slice(2).reverse());
    expect(await previewRows(device.deviceId)).toHaveLength(PREVIEW_HISTORY);
    expect(await previewKeys(device.deviceId)).toHaveLength(PREVIEW_HISTORY);
    expect((await send(t, 'GET', previewUrl(device.deviceId, customerId, `?previewId=${ids[0]}`), { token: viewer })).status).toBe(404);
    expect((await send(t, 'GET', previewUrl(device.deviceId, customerId, `?previewId=${ids[2]}`), { token: viewer })).status).toBe(200);
    // Nothing left for the cleanup job: the pruned blobs were removed right after the commit.
    expect(
      await t.db
        .select()
        .from(blobCleanup)
        .where(like(blobCleanup.key, `%/devices/${device.deviceId}/%`)),
    ).toEqual([]);
  });

  it('queues the screenshots’ blobs for the cleanup job when the device is deleted', async () => {
    const device = await newDevice(t, { customerId });
    expect((await putScreenshot(device, png(10, 10))).status).toBe(204);
    const [row] = await previewRows(device.deviceId);
    expect((await t.request('DELETE', `/api/device/${device.deviceId}`, { token: technician })).status).toBe(204);
    expect(await t.db.select().from(blobCleanup).where(eq(blobCleanup.key, row!.storageKey))).toEqual([
      expect.objectContaining({ reason: 'device deleted' }),
    ]);
  });
});

describe('who may upload and read screenshots', () => {
  it('answers 403 display.error.notAssigned to an unassigned device, 401 to a user token', async () => {
    const unassigned = await newDevice(t);
    const res = await putScreenshot(unassigned, png(10, 10));
    expect(res.status).toBe(403);
    expect(res.body.key).toBe('display.error.notAssigned');
    const metrics = await t.request('POST', '/api/display/metrics', { token: unassigned.token, json: { samples: [] } });
    expect(metrics.status).toBe(403);
    expect(metrics.body.key).toBe('display.error.notAssigned');
    for (const token of [viewer, admin]) {
      expect(
        (
          await send(t, 'PUT', '/api/display/screenshot', {
            token,
            body: new Uint8Array(png(10, 10)),
            headers: { 'content-type': 'image/png' },
          })
        ).status,
      ).toBe(401);
      expect((await t.request('POST', '/api/display/metrics', { token, json: { samples: [] } })).status).toBe(401);
    }
  });

  it('answers 404 for another tenant’s device (previewStore and the preview path), 401 to a device token on the preview path', async () => {
    const device = await newDevice(t, { customerId });
    expect((await putScreenshot(device, png(10, 10))).status).toBe(204);
    expect((await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore`, { token: otherViewer })).status).toBe(404);
    expect(
      (await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore?customerId=${customerId}`, { token: otherViewer })).status,
    ).toBe(403);
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: otherViewer })).status).toBe(404);
    // The other tenant's own customer id in the path does not find the device either.
    expect((await send(t, 'GET', previewUrl(device.deviceId, otherCustomerId), { token: otherViewer })).status).toBe(404);
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: device.token })).status).toBe(401);
    expect((await send(t, 'GET', previewUrl(device.deviceId), {})).status).toBe(401);
    for (const bad of ['not-a-uuid', '00000000-0000-7000-8000-000000000000']) {
      expect((await send(t, 'GET', previewUrl(bad), { token: viewer })).status).toBe(404);
    }
    expect((await send(t, 'GET', previewUrl(device.deviceId, customerId, '?previewId=nope'), { token: viewer })).status).toBe(404);
  });

  it('answers 404 to a member of a team that does not show the device', async () => {
    const device = await newDevice(t, { customerId });
    expect((await putScreenshot(device, png(10, 10))).status).toBe(204);
    const owner = (await t.actor('OWNER', { customerId })).token;
    const team = await t.request('POST', '/api/team', { token: owner, json: { name: `elsewhere ${device.deviceId.slice(-6)}` } });
    const member = await t.actor('VIEWER', { customerId });
    await t.db.insert(teamAssignments).values({ teamId: team.body.id, resourceType: 'user', resourceId: member.user.id, customerId });
    await t.db.update(customers).set({ accessResourcesWithoutTeam: false }).where(eq(customers.id, customerId));
    try {
      expect((await send(t, 'GET', previewUrl(device.deviceId), { token: member.token })).status).toBe(404);
      expect((await t.request('GET', `/api/v2/device/${device.deviceId}/previewStore`, { token: member.token })).status).toBe(404);
    } finally {
      await t.db.update(customers).set({ accessResourcesWithoutTeam: true }).where(eq(customers.id, customerId));
    }
    expect((await send(t, 'GET', previewUrl(device.deviceId), { token: member.token })).status).toBe(200);
  });
});

describe('POST /api/display/metrics', () => {
  it('stores the samples (202) and the graphs endpoint shows them to a user', async () => {
    const device = await newDevice(t, { customerId });
    const now = Date.now();
    const t0 = now - 60 * 60_000;
    const samples = [
      { type: 'CPU', timestamp: t0 + 60_000, value: 10 },
      { type: 'CPU', timestamp: t0 + 120_000, value: 30 },
      { type: 'USED_SYS_MEM', timestamp: t0 + 60_000, value: 512.5 },
    ];
    const res = await t.request('POST', '/api/display/metrics', { token: device.token, json: { samples } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 3, rejected: [] });

    const supported = await t.request('GET', `/api/deviceStat/${device.deviceId}/supportedMetrics?customerId=${customerId}`, {
      token: viewer,
    });
    expect(supported.body).toEqual(['CPU', 'USED_SYS_MEM']);
    const graphs = await t.request(
      'POST',
      `/api/deviceStat/${device.deviceId}/graphs?customerId=${customerId}&from=${t0}&to=${now}&dataPoints=1`,
      { token: viewer, json: { metricTypes: ['CPU', 'USED_SYS_MEM'] } },
    );
    expect(graphs.status).toBe(200);
    expect(graphs.body.graphs.CPU).toMatchObject({ avg: 20, min: 10, max: 30, sum: 40, count: 2, values: { [String(t0)]: 20 } });
    expect(graphs.body.graphs.USED_SYS_MEM).toMatchObject({ avg: 512.5, count: 1 });
  });

  it('rejects samples one by one (unknown type, too far ahead or back) and stores the rest', async () => {
    const device = await newDevice(t, { customerId });
    const now = Date.now();
    const body = JSON.stringify({
      samples: [
        { type: 'CPU', timestamp: now, value: 1 },
        { type: 'TEMPERATURE_OF_THE_SUN', timestamp: now, value: 1 },
        { type: 'CPU', timestamp: now, value: 1 },
        { type: 'CPU', timestamp: now + 10 * 60_000, value: 1 },
        { type: 'CPU', timestamp: now - 400 * 24 * 3_600_000, value: 1 },
        { type: 'BATTERY', timestamp: now - 1000, value: 99 },
      ],
    });
    const res = await send(t, 'POST', '/api/display/metrics', {
      token: device.token,
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(3);
    expect(res.body.rejected.map((r: { index: number; key: string }) => [r.index, r.key])).toEqual([
      [1, 'display.error.unknownMetricType'],
      [3, 'display.error.metricInFuture'],
      [4, 'display.error.metricTooOld'],
    ]);
    const supported = await t.request('GET', `/api/deviceStat/${device.deviceId}/supportedMetrics?customerId=${customerId}`, {
      token: viewer,
    });
    expect(supported.body).toEqual(['CPU', 'BATTERY']);
  });

  it('answers 400 to more than 1 000 samples or a malformed sample (a wrong JSON type, a missing field, a value that is not finite)', async () => {
    const device = await newDevice(t, { customerId });
    const sample = { type: 'CPU', timestamp: Date.now(), value: 1 };
    const many = await t.request('POST', '/api/display/metrics', {
      token: device.token,
      json: { samples: Array.from({ length: 1001 }, () => sample) },
    });
    expect(many.status).toBe(400);
    const exactly = await t.request('POST', '/api/display/metrics', {
      token: device.token,
      json: { samples: Array.from({ length: 1000 }, () => sample) },
    });
    expect(exactly.body).toEqual({ accepted: 1000, rejected: [] });
    for (const bad of [{}, { samples: [{ ...sample, value: '1' }] }, { samples: [{ type: 'CPU', value: 1 }] }, { samples: 'CPU' }]) {
      expect((await t.request('POST', '/api/display/metrics', { token: device.token, json: bad })).status, JSON.stringify(bad)).toBe(400);
    }
    // A timestamp that is no epoch millisecond of years 1970–9999: malformed, the 400 shape naming the sample.
    for (const timestamp of [-1, sample.timestamp + 0.5, Date.UTC(10000, 0, 1), 1e300]) {
      const res = await t.request('POST', '/api/display/metrics', {
        token: device.token,
        json: { samples: [sample, { ...sample, timestamp }] },
      });
      expect(res.status, String(timestamp)).toBe(400);
      expect(res.body).toMatchObject({
        status: 400,
        key: 'request.error.invalid',
        details: { issues: expect.arrayContaining([expect.objectContaining({ path: 'samples.1.timestamp' })]) },
      });
    }
    // A number JSON cannot hold as a finite double (1e400 parses to Infinity) is malformed too.
    const infinite = JSON.stringify({ samples: [{ ...sample, value: 12345 }] }).replace('12345', '1e400');
    expect(
      (
        await send(t, 'POST', '/api/display/metrics', {
          token: device.token,
          body: infinite,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await t.request('POST', '/api/display/metrics', { token: device.token, json: { samples: [] } })).body).toEqual({
      accepted: 0,
      rejected: [],
    });
  });
});

describe('PUT /api/display/screenshot over HTTP (the raw Node request stream, as server/main.ts serves it)', () => {
  it('stores a chunked upload, and cuts a chunked body past 5 MB with 413 while it streams', async () => {
    const base = await t.listen();
    const device = await newDevice(t, { customerId });
    const put = async (body: ReadableStream<Uint8Array>) => {
      const res = await fetch(`${base}/api/display/screenshot`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${device.token}`, 'content-type': 'image/png' },
        body,
        duplex: 'half',
      } as RequestInit);

      return { status: res.status, body: (await res.text()) || undefined };
    };
    const chunked = (data: Buffer, piece = 64 * 1024) => {
      let offset = 0;

      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= data.length) return controller.close();
          controller.enqueue(new Uint8Array(data.subarray(offset, offset + piece)));
          offset += piece;
        },
      });
    };
    const image = png(640, 360, 300_000);
    expect((await put(chunked(image))).status).toBe(204);
    const got = await send(t, 'GET', previewUrl(device.deviceId), { token: viewer });
    expect(got.raw.equals(image)).toBe(true);

    const tooBig = await put(chunked(png(10, 10, SCREENSHOT_MAX_BYTES + 200_000)));
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body!)).toMatchObject({ key: 'request.error.payloadTooLarge', details: { maxBytes: SCREENSHOT_MAX_BYTES } });
    expect(await previewRows(device.deviceId)).toHaveLength(1);
    expect(await previewKeys(device.deviceId)).toHaveLength(1);
  });
});
