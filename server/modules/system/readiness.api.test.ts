import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@/server/config';
import { createApp } from '@/server/composition';
import { MIGRATION_LOCK_KEY, openDatabase, type DatabaseHandle } from '@/server/db/client';
import { createLogger } from '@/server/logger';
import { createReadiness, type Readiness } from '@/server/readiness';
import { createService } from '@/server/service';
import { createLocalStore } from '@/server/storage/local-store';
import { createTestContext, testEnv, type TestContext } from '@/server/test/harness';

const silent = createLogger('silent');

/** /readyz of an app whose readiness asks `handle` and a local store under `storageRoot`. */
function appWith({ t, handle, storageRoot }: { t: TestContext; handle: DatabaseHandle; storageRoot: string }) {
  const storage = createLocalStore(storageRoot);
  const readiness: Readiness = createReadiness({ pingDatabase: handle.ping, pingStorage: () => storage.ping(), cacheMs: 0 });
  const app = createApp({ db: t.db, config: t.config, storage, log: silent, ready: readiness.check });
  const readyz = async () => {
    const res = await app.request('/readyz');

    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };

  return { readiness, readyz };
}

describe('GET /readyz', () => {
  let t: TestContext;
  let storageRoot: string;
  beforeAll(async () => {
    t = await createTestContext();
    storageRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-ready-'));
  });
  afterAll(async () => {
    await fs.rm(storageRoot, { recursive: true, force: true });
    await t?.close();
  });

  it('answers 200 while serving on a database and a storage that answer', async () => {
    const { readiness, readyz } = appWith({ t, handle: t.handle, storageRoot });
    readiness.setPhase('serving');
    expect(await readyz()).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    // The storage probe leaves nothing behind.
    expect(await fs.readdir(path.join(storageRoot, '.tmp'))).toEqual([]);
  });

  it('answers 503 naming the phase while starting and once shutdown has begun; /healthz stays 200', async () => {
    const { readiness, readyz } = appWith({ t, handle: t.handle, storageRoot });
    const starting = await readyz();
    expect(starting).toMatchObject({ status: 503, retryAfter: '1' });
    expect(JSON.parse(starting.text)).toEqual({
      status: 503,
      key: 'server.error.unavailable',
      message: 'Not ready: the service is starting',
      details: { check: 'starting' },
    });
    readiness.setPhase('serving');
    readiness.setPhase('stopping');
    const stopping = await readyz();
    expect(stopping.status).toBe(503);
    expect(JSON.parse(stopping.text)).toMatchObject({ details: { check: 'stopping' } });
    expect((await t.app.request('/healthz')).status).toBe(200);
  });

  it('answers 503 `database` when the database does not answer, without naming where it is', async () => {
    const closedPort = await openDatabase({ kind: 'pg', url: 'postgres://signage:s3cret-password@127.0.0.1:1/signage', poolSize: 1 });
    try {
      const { readiness, readyz } = appWith({ t, handle: closedPort, storageRoot });
      readiness.setPhase('serving');
      const res = await readyz();
      expect(res.status).toBe(503);
      expect(JSON.parse(res.text)).toEqual({
        status: 503,
        key: 'server.error.unavailable',
        message: 'Not ready: the database does not answer',
        details: { check: 'database' },
      });
      expect(res.text).not.toMatch(/s3cret|127\.0\.0\.1|ECONNREFUSED|postgres/);
    } finally {
      await closedPort.close();
    }
  });

  it('answers 503 `storage` when the local storage directory is gone or is no directory, and 200 once it is back', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-ready-'));
    const { readiness, readyz } = appWith({ t, handle: t.handle, storageRoot: root });
    readiness.setPhase('serving');
    expect((await readyz()).status).toBe(200);

    await fs.rm(root, { recursive: true });
    const gone = await readyz();
    expect(gone.status).toBe(503);
    expect(JSON.parse(gone.text)).toMatchObject({ message: 'Not ready: the blob storage does not answer', details: { check: 'storage' } });
    expect(gone.text).not.toContain(root);
    // Not created again by the probe: an empty directory in place of an unmounted volume is no storage.
    await expect(fs.stat(root)).rejects.toThrow();

    await fs.writeFile(root, 'not a directory');
    expect(JSON.parse((await readyz()).text)).toMatchObject({ details: { check: 'storage' } });

    await fs.rm(root);
    await fs.mkdir(root);
    expect((await readyz()).status).toBe(200);
    await fs.rm(root, { recursive: true });
  });
});

describe.runIf(process.env.DATABASE_URL)('the service’s readiness on PostgreSQL (runs only with DATABASE_URL)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is 503 `starting`, then `migrations` while another instance migrates, then 200 once serving, then `stopping`', async () => {
    const config = parseConfig({ ...testEnv, DATA_DIR: t.dataDir, DATABASE_URL: t.databaseUrl! });
    const service = await createService(config, silent);
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    const check = async () => {
      const res = await service.app.request('/readyz');

      return res.status === 200 ? 'ready' : ((await res.json()) as { details: { check: string } }).details.check;
    };
    try {
      expect(await check()).toBe('starting');
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      const prepared = service.prepare();
      await expect.poll(check, { timeout: 30_000 }).toBe('migrations');
      await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      await prepared;
      expect(await check()).toBe('starting');
      service.setReady(true);
      expect(await check()).toBe('ready');
      service.setReady(false);
      expect(await check()).toBe('stopping');
    } finally {
      await holder.end();
      await service.close();
    }
  }, 60_000);
});
