import { serve } from '@hono/node-server';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '@/server/config';
import type { DatabaseHandle } from '@/server/db/client';

type FetchHandler = Parameters<typeof serve>[0]['fetch'];

/**
 * How the TypeScript benchmark servers serve the production app: a bare `@hono/node-server` (keep-alive
 * as in server/main.ts), answering once listening, and stopping cleanly on SIGTERM/SIGINT (readiness
 * off, connections closed, database closed) so the scripts can end them at any point.
 */
export async function serveForBenchmark(input: {
  config: Config;
  handle: DatabaseHandle;
  fetch: FetchHandler;
  setReady: (ready: boolean) => void;
  /** The service's `upgrade` listener (the device WebSocket), attached as server/main.ts attaches it for API paths. */
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}): Promise<void> {
  const { config, handle, setReady } = input;
  const server = serve({ fetch: input.fetch, port: config.port, hostname: config.host });
  if (input.upgrade) server.on('upgrade', input.upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  if ('keepAliveTimeout' in server) (server as { keepAliveTimeout: number }).keepAliveTimeout = 65_000;

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setReady(false);
    server.close();
    if ('closeAllConnections' in server) (server as { closeAllConnections: () => void }).closeAllConnections();
    await handle.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
