/*
 * The server process without the console, for the graceful-shutdown test (shutdown.api.test.ts): `startServer` as
 * server/main.ts runs it (the API, the player's files, the device WebSocket, the job queue, the same SIGTERM
 * handling), configured by the environment; only Next.js is left out (other paths answer 404). Not run by the product.
 */
import { createLogger } from './logger';
import { startServer } from './serve';
import { resolveStartupConfig } from './startup';

const config = resolveStartupConfig();
await startServer({ config, log: createLogger(config.logLevel) });
