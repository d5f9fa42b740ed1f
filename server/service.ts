import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase, runMigrations, type DatabaseHandle } from './db/client';
import { AuthCache, installAuthCache } from './auth/auth-cache';
import { startAuthChangeListener, type AuthChangeListener } from './auth/auth-change-listener';
import { createApp, type App } from './http/app';
import { ensureFirstAdmin, ensureInitialFolders, type BootstrapResult } from './modules/users/bootstrap';
import { prepareModules } from './modules';
import { createBlobStore, type BlobStore } from './storage';

export type Service = {
  handle: DatabaseHandle;
  /** Stops the token cache's change feed, then closes the database. */
  close: () => Promise<void>;
  storage: BlobStore;
  app: App;
  /** Migrations, then the first administrator; run after listening so /healthz answers meanwhile. */
  prepare: () => Promise<BootstrapResult>;
  setReady: (ready: boolean) => void;
};

/** The API on its database: what every server entry point (main.ts, benchmarks) starts the same way. */
export async function createService(config: Config, log: Logger): Promise<Service> {
  const handle = await openDatabase(
    config.databaseUrl ? { kind: 'pg', url: config.databaseUrl, poolSize: config.databasePoolSize } : { kind: 'pglite-dir', dataDir: config.dataDir },
  );
  const storage = await createBlobStore(config);
  const authCache = new AuthCache(config.authCacheSize);
  installAuthCache(handle.db, authCache);
  let authFeed: AuthChangeListener | undefined;
  let ready = false;
  const app = createApp({
    db: handle.db,
    config,
    storage,
    log,
    ready: async () => {
      if (!ready) return false;
      await handle.ping();
      await storage.ping();

      return true;
    },
  });

  return {
    handle,
    storage,
    app,
    close: async () => {
      await authFeed?.stop();
      await handle.close();
    },
    prepare: async () => {
      await runMigrations(handle);
      if (authCache.maxEntries > 0) authFeed = await startAuthChangeListener(handle, authCache, log);
      const result = await ensureFirstAdmin(handle.db, config);
      await ensureInitialFolders(handle.db);
      await prepareModules(handle.db);

      return result;
    },
    setReady: (value) => {
      ready = value;
    },
  };
}
