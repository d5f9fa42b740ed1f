import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resetSigningKey } from '@/server/auth/jwt';
import { parseConfig, setConfig } from '@/server/config';
import { createLogger } from '@/server/logger';
import { formOf, png } from '@/server/modules/uploads/uploads.test-kit';
import { createService, type Service } from '@/server/service';
import { basic, createPostgresDatabase, TEST_CLIENT_SECRET, testEnv } from '@/server/test/harness';
import { migrationsFolder } from './client';
import { readJournal } from './migration-journal';

/*
 * docs/deploying.md "Backups" and "Restore", performed: data made through the API of a running service is backed up
 * as the guide says (PostgreSQL: `pg_dump -Fc`, restored with `pg_restore` into a new database; PGlite: the service
 * stopped and its data directory copied), and a new service started on the copy serves the same data. The restored
 * services are the production `createService` with its start-up (`prepare`: migrations, first administrator, modules).
 */

const target = inject('testDatabase');
const run = promisify(execFile);
const ADMIN_PASSWORD = 'restore-admin-password';
const journal = readJournal(migrationsFolder());

type Running = { service: Service; firstAdminCreated: boolean; dataDir: string };

/** The production service on a database and data directory, started as server/main.ts starts it, and ready. */
async function startService(env: { DATA_DIR: string; DATABASE_URL?: string }): Promise<Running> {
  const config = parseConfig({ ...testEnv, ADMIN_PASSWORD, ...env });
  setConfig(config);
  resetSigningKey();
  const service = await createService(config, createLogger('silent'));
  const bootstrap = await service.prepare();
  service.setReady(true);

  return { service, firstAdminCreated: bootstrap.created, dataDir: env.DATA_DIR };
}

async function api(service: Service, method: string, url: string, init: { token?: string; json?: unknown; body?: BodyInit } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json === undefined ? init.body : JSON.stringify(init.json);
  const res = await service.app.request(url, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('json');

  return { status: res.status, bytes, body: isJson ? (JSON.parse(bytes.toString('utf8')) as any) : undefined };
}

async function signIn(service: Service): Promise<string> {
  const res = await service.app.request('/oauth/token', {
    method: 'POST',
    headers: { authorization: basic('default-client', TEST_CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: 'admin@example.com', password: ADMIN_PASSWORD }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(body)}`);

  return body.access_token;
}

/** What the backup must keep, made through the API: a tenant, a media file in blob storage, a playlist playing it. */
type Made = { token: string; customerId: number; fileId: string; playlistId: string; location: string; bytes: Buffer };

async function makeData(service: Service): Promise<Made> {
  const token = await signIn(service);
  const customer = await api(service, 'POST', '/api/customer', { token, json: { name: `Backed up ${randomBytes(3).toString('hex')}` } });
  expect(customer.status, JSON.stringify(customer.body)).toBe(201);
  const customerId = customer.body.id as number;
  const bytes = png(320, 240, 4096);
  const upload = await api(service, 'POST', `/api/file?customerId=${customerId}`, {
    token,
    body: formOf([{ field: 'files', name: 'poster.png', data: bytes, type: 'image/png' }]),
  });
  expect(upload.status, JSON.stringify(upload.body)).toBe(200);
  const file = upload.body[0] as { id: string; location: string };
  const root = await api(service, 'GET', `/api/v2/contentGroup?customerId=${customerId}&search=${encodeURIComponent('parentId=NULL')}`, {
    token,
  });
  expect(root.status, JSON.stringify(root.body)).toBe(200);
  const playlist = await api(service, 'POST', `/api/simpleLoop?customerId=${customerId}&contentGroupId=${root.body.content[0].id}`, {
    token,
    json: {
      name: 'Lobby loop',
      simpleLoopType: 'NORMAL',
      version: '2.0',
      data: {
        loopData: {
          resolution: { width: 1920, height: 1080 },
          defaultImageFit: 'contain',
          defaultVideoFit: 'contain',
          defaultDurationMs: 10_000,
        },
        slides: [{ key: 'poster', type: 'FILE', id: file.id }],
      },
    },
  });
  expect(playlist.status, JSON.stringify(playlist.body)).toBe(201);

  return { token, customerId, fileId: file.id, playlistId: playlist.body.id, location: file.location, bytes };
}

/**
 * What a service serves of the made data, as answers (status and the parts compared), so that a restore which lost
 * anything shows as a difference rather than as a thrown error.
 */
async function served(service: Service, made: Made, token: string) {
  const tenant = await api(service, 'GET', `/api/customer/select?search=${encodeURIComponent(`id=${made.customerId}`)}`, { token });
  const files = await api(service, 'GET', `/api/v2/file?customerId=${made.customerId}`, { token });
  const playlist = await api(service, 'GET', `/api/v2/deviceContent/${made.playlistId}?select=${encodeURIComponent('id,name,data')}`, {
    token,
  });
  const download = await api(service, 'GET', made.location, { token });

  return {
    tenant: [tenant.status, tenant.body?.content?.map((c: { id: number; name: string }) => [c.id, c.name])],
    files: [files.status, files.body?.content?.map((f: { id: string; name: string; size: number }) => [f.id, f.name, f.size])],
    playlist: [playlist.status, playlist.body?.name, playlist.body?.data?.slides?.map((s: { id: string }) => s.id)],
    download: [download.status, createHash('sha256').update(download.bytes).digest('hex')],
  };
}

/** The original service serves all of it, so that equal answers after a restore mean the data is there. */
function expectAllServed(answers: Awaited<ReturnType<typeof served>>, made: Made) {
  expect(answers).toEqual({
    tenant: [200, [[made.customerId, expect.stringMatching(/^Backed up /)]]],
    files: [200, [[made.fileId, 'poster.png', made.bytes.length]]],
    playlist: [200, 'Lobby loop', [made.fileId]],
    download: [200, createHash('sha256').update(made.bytes).digest('hex')],
  });
}

/** Applied migrations as drizzle records them: the same rows before and after a start means it migrated nothing. */
async function appliedMigrations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number; hash: string; created_at: string }>(
      'select id, hash, created_at::text from drizzle.__drizzle_migrations order by id',
    );

    return rows.map((row) => `${row.id} ${row.created_at} ${row.hash}`);
  } finally {
    await client.end();
  }
}

async function pgliteMigrations(service: Service): Promise<string[]> {
  const { rows } = await service.handle.pglite!.query<{ id: number; hash: string; created_at: string }>(
    'select id, hash, created_at::text from drizzle.__drizzle_migrations order by id',
  );

  return rows.map((row) => `${row.id} ${row.created_at} ${row.hash}`);
}

/**
 * pg_dump and pg_restore of the installed PostgreSQL (Debian: /usr/lib/postgresql/<major>/bin), at least the server's
 * major version (pg_dump refuses a newer server). Missing, the test fails and says what to install: a PostgreSQL run
 * without them would otherwise prove nothing about backups.
 */
async function postgresTools(url: string): Promise<{ pgDump: string; pgRestore: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ v: string }>("select current_setting('server_version_num') as v");
  await client.end();
  const major = Math.floor(Number(rows[0]!.v) / 10_000);
  const root = '/usr/lib/postgresql';
  const versions = (await fs.readdir(root).catch(() => []))
    .map(Number)
    .filter((v) => Number.isInteger(v) && v >= major)
    .sort((a, b) => b - a);
  for (const version of versions) {
    const bin = path.join(root, String(version), 'bin');
    if (existsSync(path.join(bin, 'pg_dump')) && existsSync(path.join(bin, 'pg_restore'))) {
      return { pgDump: path.join(bin, 'pg_dump'), pgRestore: path.join(bin, 'pg_restore') };
    }
  }
  throw new Error(
    `pg_dump and pg_restore of PostgreSQL ${major} or newer are not installed under ${root}/<version>/bin ` +
      `(the server is PostgreSQL ${major}): install its client programs (Debian: postgresql-client-${major}) to run the backup test`,
  );
}

/** libpq's variables for a URL: the password goes through the environment, never a command line or an error message. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);

  return {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || '5432',
    PGUSER: decodeURIComponent(u.username),
    PGPASSWORD: decodeURIComponent(u.password),
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
  };
}

async function scratchDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'signage-restore-'));
}

describe.runIf(target.kind === 'pg')('a PostgreSQL backup (pg_dump -Fc and the storage directory) restored into a new database', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  let tools: { pgDump: string; pgRestore: string };
  let original: Running;
  let made: Made;
  let work: string;
  let dumps: { empty: string; full: string };

  /** pg_restore into a freshly created, empty database (the guide's commands); the blob storage copied beside it. */
  async function restore(dump: string): Promise<Running> {
    const database = await createPostgresDatabase({ fromTemplate: false });
    cleanups.push(database.drop);
    await run(tools.pgRestore, ['--exit-on-error', '--no-owner', '--dbname', new URL(database.url).pathname.slice(1), dump], {
      env: libpqEnv(database.url),
    });
    const dataDir = await scratchDir();
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    await fs.cp(path.join(original.dataDir, 'storage'), path.join(dataDir, 'storage'), { recursive: true });
    const before = await appliedMigrations(database.url);
    const restored = await startService({ DATA_DIR: dataDir, DATABASE_URL: database.url });
    cleanups.push(() => restored.service.close());
    // The migrations step found the restored database current: it applied nothing, and it knows every migration.
    expect(await appliedMigrations(database.url)).toEqual(before);
    expect(before).toHaveLength(journal.length);

    return restored;
  }

  beforeAll(async () => {
    const source = await createPostgresDatabase({ fromTemplate: true });
    cleanups.push(source.drop);
    tools = await postgresTools(source.url);
    work = await scratchDir();
    cleanups.push(() => fs.rm(work, { recursive: true, force: true }));
    const dataDir = await scratchDir();
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    original = await startService({ DATA_DIR: dataDir, DATABASE_URL: source.url });
    cleanups.push(() => original.service.close());
    // Both dumps are taken while the service runs (pg_dump reads one consistent snapshot): one before the data exists.
    dumps = { empty: path.join(work, 'before.dump'), full: path.join(work, 'signage.dump') };
    const dbName = new URL(source.url).pathname.slice(1);
    await run(tools.pgDump, ['--format=custom', '--file', dumps.empty, dbName], { env: libpqEnv(source.url) });
    made = await makeData(original.service);
    await run(tools.pgDump, ['--format=custom', '--file', dumps.full, dbName], { env: libpqEnv(source.url) });
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  it('a new service on the restored database serves the tenant, the file (same bytes) and the playlist, and migrates nothing', async () => {
    const expected = await served(original.service, made, made.token);
    expectAllServed(expected, made);

    const restored = await restore(dumps.full);

    expect(restored.firstAdminCreated).toBe(false);
    expect((await api(restored.service, 'GET', '/readyz')).status).toBe(200);
    // A token issued before the backup still works: its row was restored and AUTH_SECRET is the same.
    expect(await served(restored.service, made, made.token)).toEqual(expected);
    const download = await api(restored.service, 'GET', made.location, { token: await signIn(restored.service) });
    expect(download.bytes.equals(made.bytes)).toBe(true);
  }, 120_000);

  it('the check tells a backup without the data: a dump taken before it was made restores and starts, but serves none of it', async () => {
    const expected = await served(original.service, made, made.token);
    const restored = await restore(dumps.empty);

    const token = await signIn(restored.service);
    const stale = await served(restored.service, made, token);
    expect(stale).not.toEqual(expected);
    expect(stale.tenant).toEqual([200, []]);
    expect(stale.playlist[0]).toBe(404);
    expect(stale.download[0]).toBe(404);
  }, 120_000);
});

describe.runIf(target.kind === 'pglite')('an embedded-database backup: the stopped service’s data directory copied', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 60_000);

  it('a service started on the copy serves the tenant, the file (same bytes) and the playlist, and migrates nothing', async () => {
    const dataDir = await scratchDir();
    const copyDir = await scratchDir();
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    cleanups.push(() => fs.rm(copyDir, { recursive: true, force: true }));
    const original = await startService({ DATA_DIR: dataDir });
    const made = await makeData(original.service);
    const expected = await served(original.service, made, made.token);
    expectAllServed(expected, made);
    const applied = await pgliteMigrations(original.service);
    await original.service.close();
    // Stopped, the service released the directory's lock; a copy taken while it ran would carry the lock file.
    expect(existsSync(path.join(dataDir, 'signage.lock'))).toBe(false);

    await fs.cp(dataDir, copyDir, { recursive: true });
    const restored = await startService({ DATA_DIR: copyDir });
    cleanups.push(() => restored.service.close());

    expect(restored.firstAdminCreated).toBe(false);
    expect((await api(restored.service, 'GET', '/readyz')).status).toBe(200);
    expect(await served(restored.service, made, made.token)).toEqual(expected);
    // The migrations step found the copy current: the same applied migrations as the original's, every one this build knows.
    expect(await pgliteMigrations(restored.service)).toEqual(applied);
    expect(applied).toHaveLength(journal.length);
  }, 180_000);
});
