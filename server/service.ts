import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase, runMigrations, type DatabaseHandle } from './db/client';
import { createApp, type App } from './http/app';
import { ensureFirstAdmin, type BootstrapResult } from './modules/users/bootstrap';

export type Service = {
  handle: DatabaseHandle;
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
  let ready = false;
  const app = createApp({
    db: handle.db,
    config,
    log,
    ready: async () => {
      if (!ready) return false;
      await handle.ping();
      // Local blob storage lives under DATA_DIR: it must stay writable.
      await fs.access(config.dataDir, fs.constants.W_OK);

      return true;
    },
  });

  return {
    handle,
    app,
    prepare: async () => {
      await runMigrations(handle);

      return ensureFirstAdmin(handle.db, config);
    },
    setReady: (value) => {
      ready = value;
    },
  };
}
