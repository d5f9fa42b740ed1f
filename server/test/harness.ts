import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { inject } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { parseConfig, setConfig, type Config } from '@/server/config';
import { openDatabase, type DatabaseHandle } from '@/server/db/client';
import { hashPassword } from '@/server/auth/password';
import { AuthCache, installAuthCache } from '@/server/auth/auth-cache';
import { startAuthChangeListener } from '@/server/auth/auth-change-listener';
import { resetSigningKey } from '@/server/auth/jwt';
import type { Role } from '@/server/context/roles';
import { attachMetrics, prepareModules, startModuleSockets } from '@/server/composition';
import { createMetrics } from '@/server/metrics/metrics';
import { createUpgradeListener, type SocketEndpoint } from '@/server/http/upgrade';
import { createApp } from '@/server/composition';
import type { App } from '@/server/http/app';
import type { ResponseDrift } from '@/server/http/response-conformance';
import { createNodeListener } from '@/server/http/node-listener';
import { createLogger } from '@/server/logger';
import { customers } from '@/server/tenant/customers.table';
import { licenseOrders } from '@/server/modules/licences/licences.table';
import { users } from '@/server/modules/users/users.table';
import { createBlobStore } from '@/server/storage';
import { insertInitialFolders } from '@/server/modules/folders/folders.queries';
import { withDatabase } from './global-setup';

export const TEST_CLIENT_SECRET = 'test-default-client-secret';
const TEST_SHORT_LIVED_SECRET = 'test-short-lived-client-secret';
export const TEST_PASSWORD = 'correct horse battery';

export const testEnv = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  AUTH_SECRET: 'test-auth-secret-that-is-long-enough-0123456789',
  OAUTH_DEFAULT_CLIENT_SECRET: TEST_CLIENT_SECRET,
  OAUTH_SHORT_LIVED_CLIENT_SECRET: TEST_SHORT_LIVED_SECRET,
  PUBLIC_URL: 'http://console.test',
} as const;

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * A fresh, migrated database (PGlite from the dump, or a clone of the PostgreSQL template) and the app on it.
 * `options.log`: the app's logger (default silent), for tests that read the request and error lines.
 */
export async function createTestContext(env: Record<string, string> = {}, options: { log?: Logger } = {}) {
  // Each context has its own data directory: local blob storage lives under DATA_DIR/storage.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'signage-test-'));
  const config: Config = parseConfig({ ...testEnv, DATA_DIR: dataDir, ...env });
  setConfig(config);
  resetSigningKey();
  const { handle, databaseUrl, dropDatabase } = await openTestDatabase();
  const storage = await createBlobStore(config);
  // As the service: metrics of its own per context (GET /metrics answers them once METRICS_TOKEN is set).
  const metrics = createMetrics(createLogger('silent'));
  attachMetrics(metrics, handle);
  // Every answer is checked against its route's declared schema; drift fails the file when it closes.
  const responseDrift: ResponseDrift[] = [];
  const app: App = createApp(
    { db: handle.db, config, storage, log: options.log ?? createLogger('silent'), metrics, ready: async () => true },
    undefined,
    {
      onResponseDrift: (drift) => responseDrift.push(drift),
    },
  );
  const db = handle.db;
  // As the service starts: the modules' reference data (starter templates).
  await prepareModules(db);
  // As the service runs: tokens served from the cache, kept true by the change feed (AUTH_CACHE_SIZE=0: off).
  const authCache = new AuthCache(config.authCacheSize);
  installAuthCache(db, authCache);
  const authFeed = authCache.maxEntries > 0 ? await startAuthChangeListener(handle, authCache, createLogger('silent')) : undefined;

  const factories = {
    async customer(values: Partial<typeof customers.$inferInsert> = {}) {
      const [row] = await db
        .insert(customers)
        .values({ name: `Customer ${randomBytes(4).toString('hex')}`, ...values })
        .returning();
      // As POST /api/customer does: every customer has its root folders.
      await insertInitialFolders(db, row!.id);

      return row!;
    },
    async user(values: Partial<typeof users.$inferInsert> & { role?: Role; password?: string } = {}) {
      const { password = TEST_PASSWORD, ...rest } = values;
      const customerId = rest.customerId ?? (await factories.customer()).id;
      const [row] = await db
        .insert(users)
        .values({
          id: uuidv7(),
          email: `user-${randomBytes(5).toString('hex')}@example.com`,
          name: 'Test User',
          role: 'VIEWER',
          passwordHash: await hashPassword(password),
          ...rest,
          customerId,
        })
        .returning();

      return row!;
    },
    /** An approved licence order of the customer (spec 5 §6: the licences devices may hold), BASIC and 10 licences unless told. */
    async licenseOrder(customerId: number, values: Partial<typeof licenseOrders.$inferInsert> = {}) {
      const [row] = await db
        .insert(licenseOrders)
        .values({
          customerId,
          orderDate: new Date(),
          deviceLicenseCount: 10,
          licenseType: 'BASIC',
          licensePayType: 'ONETIME',
          approved: true,
          approveDate: new Date(),
          ...values,
        })
        .returning();

      return row!;
    },
  };

  const servers: Server[] = [];
  let sockets: Promise<SocketEndpoint[]> | undefined;

  return {
    app,
    db,
    handle,
    metrics,
    authCache,
    /** The PostgreSQL URL of this test's database (undefined on PGlite). */
    databaseUrl,
    config,
    storage,
    dataDir,
    factories,
    /** POST /oauth/token with the password grant; returns the parsed response and status. */
    async token(
      form: Record<string, string>,
      client: 'default-client' | 'short-lived' = 'default-client',
      headers: Record<string, string> = {},
    ) {
      const secret = client === 'default-client' ? TEST_CLIENT_SECRET : TEST_SHORT_LIVED_SECRET;
      const res = await app.request('/oauth/token', {
        method: 'POST',
        headers: { authorization: basic(client, secret), 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });

      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    },
    /** Signs a user in and returns its access token. */
    async signIn(email: string, password = TEST_PASSWORD): Promise<string> {
      const res = await this.token({ grant_type: 'password', username: email, password });
      if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);

      return res.body.access_token as string;
    },
    /** A user of the given role (in a new customer unless given) with a live access token. */
    async actor(role: Role, values: Partial<typeof users.$inferInsert> = {}) {
      const user = await factories.user({ role, ...values });

      return { user, token: await this.signIn(user.email) };
    },
    async request(method: string, path: string, options: { token?: string; json?: unknown; headers?: Record<string, string> } = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.json !== undefined) headers['content-type'] = 'application/json';
      const res = await app.request(path, { method, headers, body: options.json === undefined ? undefined : JSON.stringify(options.json) });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON
      }

      return { status: res.status, headers: res.headers, body: body as any };
    },
    /**
     * The app behind a real Node HTTP server, as server/main.ts serves it (`createNodeListener`), for the
     * paths that behave differently there (raw request streams). Closed with the context.
     */
    async listen(): Promise<string> {
      const server = createServer(createNodeListener(app.fetch));
      // As server/main.ts: API upgrades (the device WebSocket) go to the modules' socket endpoints.
      sockets ??= startModuleSockets({ handle, config, storage, log: createLogger('silent') });
      const endpoints = await sockets;
      server.on(
        'upgrade',
        createUpgradeListener(() => endpoints, createLogger('silent')),
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);

      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      if (sockets) await Promise.allSettled((await sockets).map((endpoint) => endpoint.close()));
      await authFeed?.stop();
      await handle.close();
      await dropDatabase();
      await fs.rm(dataDir, { recursive: true, force: true });
      if (responseDrift.length > 0) {
        const lines = [...new Set(responseDrift.map((d) => `${d.route} ${d.status}: ${d.problem}`))];
        throw new Error(`Answers that differ from the OpenAPI declaration:\n${lines.join('\n')}`);
      }
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

async function openTestDatabase(): Promise<{ handle: DatabaseHandle; databaseUrl: string | undefined; dropDatabase: () => Promise<void> }> {
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    const dump = await fs.readFile(target.dumpFile);
    const handle = await openDatabase({ kind: 'pglite-memory', loadDataDir: new Blob([dump]) });

    return { handle, databaseUrl: undefined, dropDatabase: async () => undefined };
  }
  const database = await createPostgresDatabase({ fromTemplate: true });
  const handle = await openDatabase({ kind: 'pg', url: database.url, poolSize: 5 });

  return { handle, databaseUrl: database.url, dropDatabase: database.drop };
}

/**
 * A database of its own on the test run's PostgreSQL server (DATABASE_URL runs only): empty, or a clone of the run's
 * migrated template. `drop` removes it once its connections are gone.
 */
export async function createPostgresDatabase(options: { fromTemplate: boolean }): Promise<{ url: string; drop: () => Promise<void> }> {
  const target = inject('testDatabase');
  if (target.kind !== 'pg') throw new Error('createPostgresDatabase needs the PostgreSQL run (DATABASE_URL)');
  const name = `signage_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  await admin.query(options.fromTemplate ? `create database ${name} template ${target.template}` : `create database ${name}`);
  await admin.end();

  return {
    url: withDatabase(target.url, name),
    drop: async () => {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      // The pool has ended, but its backends may still be exiting: terminating them (FORCE) would reach
      // clients that are closing and surface as uncaught errors. Let them go first; FORCE is the fallback.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
