import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { NotFoundError, ServiceUnavailableError } from '@/server/errors';
import { toErrorBody } from './errors';

/**
 * A WebSocket endpoint of the API (spec 4 §3 `GET /api/display/ws`). The server owns the HTTP `upgrade`
 * event for API paths (STACK-NOTES: Next.js's own listener leaves refused upgrades hanging), so a refused
 * upgrade always gets an HTTP answer before the socket closes.
 */
export type SocketEndpoint = {
  /** The exact path, e.g. `/api/display/ws`. */
  path: string;
  /** Completes the upgrade, or throws an AppError, answered as DECISIONS §3 error body before the socket closes. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => Promise<void>;
  /** Closes every connection of the endpoint (server shutdown). */
  close: () => Promise<void>;
};

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Answers an upgrade request with a plain HTTP error (the DECISIONS §3 body) and closes the socket. */
function refuseUpgrade(socket: Duplex, err: unknown): void {
  if (socket.destroyed) return;
  const { body, headers } = toErrorBody(err);
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${body.status} ${REASONS[body.status] ?? 'Error'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Cache-Control: no-store',
    'Connection: close',
    ...Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${text}`);
}

/**
 * The `upgrade` listener for API paths: the endpoint with the request's path takes it; any other API path
 * answers 404, and before the endpoints are up (start-up) 503.
 */
export function createUpgradeListener(endpoints: () => readonly SocketEndpoint[] | undefined, log: Pick<Logger, 'error'>) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => undefined); // a client that goes away mid-handshake is not our error
    const list = endpoints();
    if (!list) return refuseUpgrade(socket, new ServiceUnavailableError('The service is starting'));
    const path = (req.url ?? '/').split('?', 1)[0];
    const endpoint = list.find((e) => e.path === path);
    if (!endpoint) return refuseUpgrade(socket, new NotFoundError('endpoint'));
    endpoint.upgrade(req, socket, head).catch((err: unknown) => {
      if (toErrorBody(err).body.status >= 500) log.error({ err, path }, 'WebSocket upgrade failed');
      refuseUpgrade(socket, err);
    });
  };
}
