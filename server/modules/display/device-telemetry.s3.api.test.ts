import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePreviews } from '@/server/modules/devices/devices.table';
import { png, send } from '@/server/modules/uploads/uploads.test-kit';
import { blobCleanup } from '@/server/storage/storage.table';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { startTestS3Server, type TestS3Server } from '@/server/test/s3-server';
import { SCREENSHOT_MAX_BYTES } from './device-telemetry';
import { newDevice } from './display.test-kit';

/** Screenshots on S3 storage: stored and served with ranges; a refused body leaves no row or cleanup entry. */
let s3: TestS3Server;
let t: TestContext;
let customerId: number;
let viewer: string;

beforeAll(async () => {
  s3 = await startTestS3Server();
  t = await createTestContext(s3.env);
  customerId = (await t.factories.customer()).id;
  viewer = (await t.actor('VIEWER', { customerId })).token;
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

describe('device screenshots on S3 storage', () => {
  it('stores and serves a screenshot; a mismatched or too large body is refused and recorded nowhere', async () => {
    const device = await newDevice(t, { customerId });
    const put = (body: Buffer, type = 'image/png') =>
      send(t, 'PUT', '/api/display/screenshot', { token: device.token, body: new Uint8Array(body), headers: { 'content-type': type } });
    const image = png(64, 64, 2000);
    expect((await put(image)).status).toBe(204);
    const url = `/api/storage/customer/${customerId}/devices/${device.deviceId}/preview.jpg`;
    const whole = await send(t, 'GET', url, { token: viewer });
    expect(whole.raw.equals(image)).toBe(true);
    const part = await send(t, 'GET', url, { token: viewer, headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.raw.equals(image.subarray(100, 200))).toBe(true);

    expect((await put(image, 'image/jpeg')).status).toBe(415);
    expect((await put(png(10, 10, SCREENSHOT_MAX_BYTES + 1))).status).toBe(413);
    const rows = await t.db.select().from(devicePreviews).where(eq(devicePreviews.deviceId, device.deviceId));
    expect(rows).toHaveLength(1);
    // The refused writes were abandoned by the store (blob-store tests); no cleanup entry is left either.
    expect(
      await t.db
        .select()
        .from(blobCleanup)
        .where(like(blobCleanup.key, `%/devices/${device.deviceId}/%`)),
    ).toEqual([]);
    expect(await t.storage.stat(rows[0]!.storageKey)).toMatchObject({ size: 2000 });
  });
});
