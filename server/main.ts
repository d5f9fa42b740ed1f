import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { ConfigError } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { DatabaseTooNewError } from './db/migration-journal';
import { forwardedClientAddress } from './http/client-address';
import { createNodeListener } from './http/node-listener';
import { isApiPath } from './http/paths';
import { createPlayerHandler, isPlayerPath } from './http/player-assets';
import { moduleJobs } from './composition';
import { startJobQueue, type JobQueue } from './jobs/queue';
import { startMetricsListener, type MetricsListener } from './metrics/listener';
import { createLogger } from './logger';
import { createService } from './service';
import { resolveStartupConfig } from './startup';

/** The console calls the API in-process through this (sign-in, refresh, revoke). */
export const API_BRIDGE = Symbol.for('signage.apiFetch');
/** Set by this server on requests it hands to Next.js, so the console can pass the real client address on. */
export const CLIENT_ADDRESS_HEADER = 'x-signage-client-address';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const dev = process.env.SIGNAGE_NEXT_DEV === 'true';

  const { handle, app, upgrade, prepare, setReady, close, metrics } = await createService(config, log);
  (globalThis as Record<symbol, unknown>)[API_BRIDGE] = (request: Request, clientAddress?: string) =>
    app.fetch(request, { bridgeClientAddress: clientAddress });

  const apiListener = createNodeListener(app.fetch);
  const playerHandler = createPlayerHandler();
  const { default: next } = await import('next');
  // Next.js attaches its own `upgrade` listener to the server of the first request it handles; given this
  // stand-in instead, it never sees the real server, and upgrades reach Next only through the listener below.
  // Two listeners on one upgrade race for the socket (a refused API upgrade could hang or be cut).
  const nextUpgradeSink = new EventEmitter() as unknown as http.Server;
  const nextApp = next({ dev, dir: process.cwd(), hostname: 'localhost', port: config.port, httpServer: nextUpgradeSink });
  const nextReady = nextApp.prepare();
  nextReady.catch(() => undefined); // reported when awaited below, not as an unhandled rejection
  const nextHandler = nextApp.getRequestHandler();

  const server = http.createServer((req, res) => {
    if (isApiPath(req.url ?? '/')) {
      void apiListener(req, res);

      return;
    }
    // The web player (dist/player/): static files, no console runtime.
    if (isPlayerPath(req.url ?? '/')) {
      void playerHandler(req, res);

      return;
    }
    req.headers[CLIENT_ADDRESS_HEADER] = forwardedClientAddress(
      req.socket.remoteAddress,
      // Node joins repeated X-Forwarded-For headers into one string; the type allows a list for other headers.
      String(req.headers['x-forwarded-for'] ?? '') || undefined,
      config.trustedProxies,
    );
    nextReady.then(
      () => nextHandler(req, res),
      (err) => {
        log.error({ err }, 'console failed to start');
        res.statusCode = 503;
        res.end('Console unavailable');
      },
    );
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isApiPath(req.url ?? '/')) return upgrade(req, socket, head);
    // The console's own upgrades (the development server's hot reload, which also carries React's debug channel:
    // without it no page hydrates). Next listens on the stand-in (attached with its first request); its
    // `getUpgradeHandler()` goes to the inner server, which leaves the socket hanging.
    nextReady.then(
      () => (nextUpgradeSink.listenerCount('upgrade') > 0 ? nextUpgradeSink.emit('upgrade', req, socket, head) : socket.destroy()),
      () => socket.destroy(),
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  log.info({ port: config.port, driver: handle.driver }, 'listening');
  let metricsListener: MetricsListener | undefined;
  if (config.metrics.port !== undefined) {
    metricsListener = await startMetricsListener({ metrics, host: config.host, port: config.metrics.port, log });
    log.info({ port: metricsListener.port }, 'metrics listening');
  }

  const bootstrap = await prepare();
  if (bootstrap.created && bootstrap.generatedPassword) {
    // Printed once, to the terminal only (not the structured log): the development admin password.
    process.stdout.write(
      `\n  First administrator created\n    e-mail:   ${bootstrap.email}\n    password: ${bootstrap.generatedPassword}\n  Sign in at ${config.publicUrl}/login\n\n`,
    );
  }
  let queue: JobQueue | undefined;
  if (config.jobsEnabled) {
    queue = await startJobQueue(handle, log, config.databaseUrl);
    await queue.register(moduleJobs({ db: handle.db, config, log }));
  }
  await nextReady;
  setReady(true);
  log.info({ url: config.publicUrl }, 'ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    setReady(false);
    server.close();
    server.closeAllConnections();
    await metricsListener?.close();
    await queue?.stop().catch((err) => log.error({ err }, 'job queue stop failed'));
    await close().catch((err) => log.error({ err }, 'database close failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseTooNewError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
