import { EventEmitter } from 'node:events';
import type http from 'node:http';
import { ConfigError } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { DatabaseTooNewError } from './db/migration-journal';
import { forwardedClientAddress } from './http/client-address';
import { createLogger } from './logger';
import { startServer } from './serve';
import { resolveStartupConfig } from './startup';

/** The console calls the API in-process through this (sign-in, refresh, revoke). */
export const API_BRIDGE = Symbol.for('signage.apiFetch');
/** Set by this server on requests it hands to Next.js, so the console can pass the real client address on. */
export const CLIENT_ADDRESS_HEADER = 'x-signage-client-address';

async function main() {
  const config = resolveStartupConfig();
  const log = createLogger(config.logLevel);
  const dev = process.env.SIGNAGE_NEXT_DEV === 'true';

  const { bootstrap } = await startServer({
    config,
    log,
    console: async ({ app }) => {
      (globalThis as Record<symbol, unknown>)[API_BRIDGE] = (request: Request, clientAddress?: string) =>
        app.fetch(request, { bridgeClientAddress: clientAddress });
      const { default: next } = await import('next');
      // Next.js attaches its own `upgrade` listener to the server of the first request it handles; given this
      // stand-in instead, it never sees the real server, and upgrades reach Next only through the listener below.
      // Two listeners on one upgrade race for the socket (a refused API upgrade could hang or be cut).
      const nextUpgradeSink = new EventEmitter() as unknown as http.Server;
      const nextApp = next({ dev, dir: process.cwd(), hostname: 'localhost', port: config.port, httpServer: nextUpgradeSink });
      const ready = nextApp.prepare();
      ready.catch(() => undefined); // reported when awaited by startServer, not as an unhandled rejection
      const nextHandler = nextApp.getRequestHandler();

      return {
        ready,
        request: (req, res) => {
          req.headers[CLIENT_ADDRESS_HEADER] = forwardedClientAddress(
            req.socket.remoteAddress,
            // Node joins repeated X-Forwarded-For headers into one string; the type allows a list for other headers.
            String(req.headers['x-forwarded-for'] ?? '') || undefined,
            config.trustedProxies,
          );
          ready.then(
            () => nextHandler(req, res),
            (err) => {
              log.error({ err }, 'console failed to start');
              res.statusCode = 503;
              res.end('Console unavailable');
            },
          );
        },
        // The console's own upgrades (the development server's hot reload, which also carries React's debug channel:
        // without it no page hydrates). Next listens on the stand-in (attached with its first request); its
        // `getUpgradeHandler()` goes to the inner server, which leaves the socket hanging.
        upgrade: (req, socket, head) => {
          ready.then(
            () => (nextUpgradeSink.listenerCount('upgrade') > 0 ? nextUpgradeSink.emit('upgrade', req, socket, head) : socket.destroy()),
            () => socket.destroy(),
          );
        },
      };
    },
  });
  if (bootstrap.created && bootstrap.generatedPassword) {
    // Printed once, to the terminal only (not the structured log): the development admin password.
    process.stdout.write(
      `\n  First administrator created\n    e-mail:   ${bootstrap.email}\n    password: ${bootstrap.generatedPassword}\n  Sign in at ${config.publicUrl}/login\n\n`,
    );
  }
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof DatabaseTooNewError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
