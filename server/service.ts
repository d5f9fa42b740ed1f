import type { Logger } from 'pino';
import type { Config } from './config';
import { openDatabase, runMigrations, type DatabaseHandle } from './db/client';
import { AuthCache, installAuthCache } from './auth/auth-cache';
import { startAuthChangeListener, type AuthChangeListener } from './auth/auth-change-listener';
import { attachMetrics, createApp } from './composition';
import { createMetrics, type Metrics } from './metrics/metrics';
import type { App } from './http/app';
import { ensureFirstAdmin, ensureInitialFolders, type BootstrapResult } from './modules/users/bootstrap';
import { prepareModules, startModuleSockets } from './composition';
import { createUpgradeListener, type SocketEndpoint } from './http/upgrade';
import { createReadiness } from './readiness';
import { createBlobStore, type BlobStore } from './storage';

export type Service = {
  handle: DatabaseHandle;
  /**
   * Closes the WebSocket endpoints: devices are told to reconnect elsewhere (1012) and their session leases end; API
   * requests arriving after this answer 503 (server/shutdown.ts drains the ones already being answered).
   */
  closeSockets: () => Promise<void>;
  /** The sockets if still open, then the token cache's change feed, then the database. */
  close: () => Promise<void>;
  storage: BlobStore;
  app: App;
  /** The `upgrade` listener for API paths (the device WebSocket); 503 until `prepare` has started the endpoints. */
  upgrade: ReturnType<typeof createUpgradeListener>;
  /**
   * Migrations (refused with DatabaseTooNewError when the database is ahead of this build), then the first
   * administrator; run after listening so /healthz answers meanwhile (the rest 503, /readyz naming the phase).
   */
  prepare: () => Promise<BootstrapResult>;
  /** true: serving (/readyz now probes the database and storage); false after that: stopping (/readyz 503). */
  setReady: (ready: boolean) => void;
  /** Prometheus metrics: GET /metrics on the app (METRICS_TOKEN), or server/metrics/listener.ts (METRICS_PORT). */
  metrics: Metrics;
};

/** The API on its database: what every server entry point (main.ts, benchmarks) starts the same way. */
export async function createService(config: Config, log: Logger): Promise<Service> {
  const metrics = createMetrics(log);
  const handle = await openDatabase(
    config.databaseUrl
      ? { kind: 'pg', url: config.databaseUrl, poolSize: config.databasePoolSize, onStatement: metrics.observeStatement }
      : { kind: 'pglite-dir', dataDir: config.dataDir },
  );
  attachMetrics(metrics, handle);
  const storage = await createBlobStore(config);
  const authCache = new AuthCache(config.authCacheSize);
  installAuthCache(handle.db, authCache);
  let authFeed: AuthChangeListener | undefined;
  let sockets: SocketEndpoint[] | undefined;
  const readiness = createReadiness({
    pingDatabase: handle.ping,
    pingStorage: () => storage.ping(),
    onChange: (failed, cause) => {
      if (failed) log.warn({ check: failed, err: cause }, 'not ready');
      else log.info('ready again');
    },
  });
  const app = createApp({
    // Until prepare has started the endpoints, and again once close has begun: the upgrade listener's rule too.
    starting: () => sockets === undefined,
    db: handle.db,
    config,
    storage,
    log,
    metrics,
    ready: readiness.check,
  });

  const closeSockets = async () => {
    readiness.setPhase('stopping');
    const open = sockets ?? [];
    sockets = undefined;
    await Promise.allSettled(open.map((endpoint) => endpoint.close()));
  };

  return {
    handle,
    storage,
    app,
    metrics,
    upgrade: createUpgradeListener(() => sockets, log),
    closeSockets,
    close: async () => {
      await closeSockets();
      await authFeed?.stop();
      await handle.close();
    },
    prepare: async () => {
      readiness.setPhase('migrations');
      await runMigrations(handle, { onWait: () => log.info('another instance is migrating the database; waiting for it') });
      readiness.setPhase('starting');
      if (authCache.maxEntries > 0) authFeed = await startAuthChangeListener(handle, authCache, log);
      const result = await ensureFirstAdmin(handle.db, config);
      await ensureInitialFolders(handle.db);
      await prepareModules(handle.db);
      sockets = await startModuleSockets({ handle, config, storage, log });

      return result;
    },
    setReady: (value) => {
      // Ready once, then not ready again: shutdown has begun (main.ts, on SIGTERM or SIGINT).
      if (value) readiness.setPhase('serving');
      else if (readiness.phase === 'serving') readiness.setPhase('stopping');
    },
  };
}
