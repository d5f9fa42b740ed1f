import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@/server/composition';
import { createLogger } from '@/server/logger';
import { createTestContext, type TestContext } from '@/server/test/harness';
import { startTestS3Server, type TestS3Server } from '@/server/test/s3-server';
import { createS3Store } from './s3-store';

/** The service configured with S3_* variables (createTestContext(env)) stores its blobs in the bucket. */
describe('S3 storage through the configuration', () => {
  let s3: TestS3Server;
  let t: TestContext;

  beforeAll(async () => {
    s3 = await startTestS3Server();
    t = await createTestContext(s3.env);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.stop();
  });

  it('uses the S3 bucket when S3_BUCKET is set', async () => {
    expect(t.config.s3).toMatchObject({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true });
    expect(t.storage.kind).toBe('s3');
    await t.storage.put('customer/1/files/e2e', Readable.from([Buffer.from('hello bucket')]), { contentType: 'text/plain' });

    // Another client of the same bucket sees the object: it really went to the S3 server.
    const other = createS3Store(t.config.s3!);
    expect(await other.stat('customer/1/files/e2e')).toMatchObject({ size: 12 });
    expect((await readAll((await other.read('customer/1/files/e2e'))!)).toString()).toBe('hello bucket');
  });

  it('answers /readyz from a storage ping: 200 while S3 answers, 503 once it is gone', async () => {
    const app = createApp({
      db: t.db,
      config: t.config,
      storage: t.storage,
      log: createLogger('silent'),
      ready: async () => {
        await t.storage.ping();
        return true;
      },
    });
    expect((await app.request('/readyz')).status).toBe(200);

    await s3.stop();
    const res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 503, key: 'server.error.unavailable' });
  });
});
