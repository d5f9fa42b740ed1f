import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Config } from './config';
import { moduleJobs } from './composition';
import { createNodeListener } from './http/node-listener';
import { isApiPath } from './http/paths';
import { createPlayerHandler, isPlayerPath } from './http/player-assets';
import { startJobQueue, type JobQueue } from './jobs/queue';
import { startMetricsListener, type MetricsListener } from './metrics/listener';
import type { BootstrapResult } from './modules/users/bootstrap';
import { createService, type Service } from './service';
import { createShutdown, type Shutdown } from './shutdown';

/** What answers the paths that are neither the API's nor the player's: the console (main.ts: Next.js). */
type ConsoleHandler = {
  request: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** An upgrade outside the API (the console's development server). */
  upgrade: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Settles when the console can serve; the instance is ready only then. */
  ready: Promise<void>;
};

export type StartServerOptions = {
  config: Config;
  log: Logger;
  /**
   * Builds the console once the API app exists (it calls the API in-process). Without one (the shutdown test's
   * child process), other paths answer 404: the API, the player and the process's life are the same.
   */
  console?: (service: Service) => Promise<ConsoleHandler>;
};

export type RunningServer = {
  /** The port listened on (PORT=0: the one the system chose). */
  port: number;
  /** The first administrator, when this start created it (main.ts prints a generated password once). */
  bootstrap: BootstrapResult;
  shutdown: Shutdown;
};

/**
 * The server process (server/main.ts): the service behind one Node HTTP server (API paths to the Hono app, the player's
 * files, the rest to the console), listening before the migrations so /healthz answers meanwhile; the job queue; ready
 * once everything is; SIGTERM/SIGINT stop it gracefully (server/shutdown.ts).
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config, log } = options;
  const service = await createService(config, log);
  const consoleHandler = await options.console?.(service);
  const apiListener = createNodeListener(service.app.fetch);
  const playerHandler = createPlayerHandler();

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (isApiPath(url)) return void apiListener(req, res);
    // The web player (dist/player/): static files, no console runtime.
    if (isPlayerPath(url)) return void playerHandler(req, res);
    if (consoleHandler) return consoleHandler.request(req, res);
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (isApiPath(req.url ?? '/')) return service.upgrade(req, socket, head);
    if (consoleHandler) return consoleHandler.upgrade(req, socket, head);
    socket.destroy();
  });
  server.keepAliveTimeout = 65_000;

  let metricsListener: MetricsListener | undefined;
  let queue: JobQueue | undefined;
  // Before listening: the drain must know every connection and request from the first one.
  const shutdown = createShutdown(
    {
      server,
      notReady: () => service.setReady(false),
      closeSockets: service.closeSockets,
      closeListeners: async () => metricsListener?.close(),
      stopJobs: async (deadline) => queue?.stop(Math.max(0, deadline - Date.now())),
      close: service.close,
    },
    {
      log,
      graceMs: config.shutdown.graceSeconds * 1000,
      delayMs: config.shutdown.delaySeconds * 1000,
      exit: (code) => process.exit(code),
    },
  );

  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const port = (server.address() as AddressInfo).port;
  log.info({ port, driver: service.handle.driver }, 'listening');
  if (config.metrics.port !== undefined) {
    metricsListener = await startMetricsListener({ metrics: service.metrics, host: config.host, port: config.metrics.port, log });
    log.info({ port: metricsListener.port }, 'metrics listening');
  }

  const bootstrap = await service.prepare();
  if (config.jobsEnabled) {
    queue = await startJobQueue(service.handle, log, config.databaseUrl);
    await queue.register(moduleJobs({ db: service.handle.db, config, log, stopping: queue.stopping }));
  }
  await consoleHandler?.ready;
  service.setReady(true);
  // From here on, not before: a signal during the start-up ends the process at once, as nothing is served yet.
  process.on('SIGTERM', () => void shutdown.stop('SIGTERM'));
  process.on('SIGINT', () => void shutdown.stop('SIGINT'));
  log.info({ url: config.publicUrl, port }, 'ready');

  return { port, bootstrap, shutdown };
}
