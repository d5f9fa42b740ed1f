import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/*
 * A graceful stop (SIGTERM, SIGINT), for an instance behind a proxy (issue 34; docs/decisions/process-and-serving.md,
 * "Graceful shutdown"). In order:
 *   1. `/readyz` answers 503 `stopping` at once; for `delayMs` the instance otherwise serves as before, so a proxy's
 *      health check sees it leave before connections are refused;
 *   2. the listener closes (new connections are refused); idle keep-alive connections close; a request being answered
 *      is finished and its answer says `Connection: close`; the device WebSockets close with 1012 (Service Restart:
 *      the player reconnects within seconds, to another instance) and their session leases end; the job queue
 *      claims no more jobs and lets the running ones finish;
 *   3. `graceMs` after the signal, what is still open is cut (sockets destroyed; jobs still running handed back);
 *   4. last, the change feeds and the database close, and the process exits with 0.
 * A second signal meanwhile is logged and changes nothing: the drain is bounded already, and SIGKILL stops at once.
 * Should the final close hang, the process exits with 1 `closeMs` after the grace.
 */

/** What a stop takes down (server/serve.ts fills it). */
export type ShutdownParts = {
  /** The listener of the API and the console. */
  server: Server;
  /** `/readyz` answers 503 `stopping` from now on. */
  notReady: () => void;
  /** Closes the device WebSockets (1012, Service Restart) and ends their session leases. */
  closeSockets: () => Promise<void>;
  /** Listeners beside the main one (METRICS_PORT), closed with it. */
  closeListeners?: () => Promise<void>;
  /** The job queue claims no more; jobs running may finish until `deadline` (epoch ms), then are handed back. */
  stopJobs?: (deadline: number) => Promise<void>;
  /** Last: the change feeds and the database. */
  close: () => Promise<void>;
};

export type ShutdownOptions = {
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** From the signal to cutting what is still open. */
  graceMs: number;
  /** From the signal (not ready) to closing the listener; less than `graceMs`. */
  delayMs: number;
  exit: (code: number) => void;
  /** After the grace, how long the final close may take before the process exits anyway (with 1). */
  closeMs?: number;
};

export type Shutdown = {
  /** Starts the stop; a second call (a second signal) is logged and answers the same stop. */
  stop: (signal: string) => Promise<void>;
  readonly stopping: boolean;
};

const DEFAULT_CLOSE_MS = 2_000;

/**
 * The stop of the process serving on `parts.server`. Called before the server listens: from then on it knows every
 * connection and every request being answered, which the drain needs.
 */
export function createShutdown(parts: ShutdownParts, options: ShutdownOptions): Shutdown {
  const { server } = parts;
  const { log } = options;
  const connections = new Set<Socket>();
  const answering = new Set<ServerResponse>();
  let draining = false;
  let stopped: Promise<void> | undefined;

  // Every TCP connection, the upgraded ones (WebSockets) too: Node's closeAllConnections knows only the HTTP ones.
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // First among the request listeners, so a handler that answers at once already answers `Connection: close`.
  server.prependListener('request', (_req, res: ServerResponse) => {
    answering.add(res);
    res.once('close', () => answering.delete(res));
    if (draining) closeAfterAnswer(res);
  });

  async function run(signal: string): Promise<void> {
    const startedAt = Date.now();
    const deadline = startedAt + options.graceMs;
    parts.notReady();
    log.info({ signal, graceSeconds: options.graceMs / 1000, delaySeconds: options.delayMs / 1000 }, 'stopping: not ready');
    const overrun = setTimeout(
      () => {
        log.error('stopping took longer than its grace period; exiting now');
        options.exit(1);
      },
      options.graceMs + (options.closeMs ?? DEFAULT_CLOSE_MS),
    );
    overrun.unref();
    await timer(options.delayMs).done;

    draining = true;
    const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const res of answering) closeAfterAnswer(res);
    log.info({ requests: answering.size, connections: connections.size }, 'stopping: listener closed; draining');
    const drained = Promise.all([
      listenerClosed,
      failSoft(parts.closeSockets(), 'closing the device sockets failed'),
      failSoft(parts.closeListeners?.(), 'closing the other listeners failed'),
      failSoft(parts.stopJobs?.(deadline), 'stopping the job queue failed'),
    ]);
    const graceOver = timer(deadline - Date.now());
    if ((await Promise.race([drained.then(() => 'drained' as const), graceOver.done.then(() => 'grace over' as const)])) === 'grace over') {
      log.warn({ requests: answering.size, connections: connections.size }, 'stopping: grace period over; cutting what is still open');
      server.closeAllConnections();
      for (const socket of connections) socket.destroy();
      await drained;
    }
    graceOver.cancel();
    await failSoft(parts.close(), 'closing the database failed');
    clearTimeout(overrun);
    log.info({ ms: Date.now() - startedAt }, 'stopped');
    options.exit(0);
  }

  async function failSoft(work: Promise<void> | undefined, message: string): Promise<void> {
    try {
      await work;
    } catch (err) {
      log.error({ err }, message);
    }
  }

  return {
    stop(signal) {
      if (stopped) {
        log.warn({ signal }, 'already stopping: the drain goes on (bounded by SHUTDOWN_GRACE_SECONDS; SIGKILL stops at once)');

        return stopped;
      }
      stopped = run(signal);

      return stopped;
    },
    get stopping() {
      return stopped !== undefined;
    },
  };
}

/**
 * The connection closes once this answer is out: `Connection: close` while its headers are still to be written
 * (Node then ends the socket after it), else the socket is ended after the answer.
 */
function closeAfterAnswer(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  else if (res.writableFinished) res.socket?.end();
  else res.once('finish', () => res.socket?.end());
}

/** A timer as a promise that can be cancelled (a grace that was not needed must not hold the process). */
function timer(ms: number): { done: Promise<void>; cancel: () => void } {
  let handle: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    handle = setTimeout(resolve, Math.max(0, ms));
  });

  return { done, cancel: () => clearTimeout(handle) };
}
