import http from 'node:http';
import net from 'node:net';
import { createGuardedClient } from './client';
import type { OutboundClient, Resolver } from './types';

type RecordedRequest = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string };

export type TestServer = {
  port: number;
  /** http://127.0.0.1:port */
  origin: string;
  requests: RecordedRequest[];
  /** Sockets accepted so far. */
  connections: number;
  /** Sockets closed so far (the client gave up or finished). */
  closedConnections: number;
  close(): Promise<void>;
};

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the test server has no port');
  }

  return address.port;
}

/** An HTTP server on 127.0.0.1 and a random port that records every request (its body read first). */
export async function startServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      state.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, response, body);
    });
  });
  server.on('connection', (socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      state.closedConnections += 1;
      sockets.delete(socket);
    });
  });
  const port = await listen(server);
  const state: TestServer = {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests: [],
    connections: 0,
    closedConnections: 0,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  return state;
}

/** A TCP server on 127.0.0.1 that writes whatever the test wants (a body without length, until close). */
export async function startRawServer(onSocket: (socket: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  const port = await listen(server);

  return {
    port,
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (a server opened and closed again). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));

  return port;
}

export type PublicNetwork = {
  client: OutboundClient;
  /** Every name the resolver was asked for, in order. */
  lookups: string[];
  /** Every checked address the connector dialled, before the test mapping to 127.0.0.1. */
  dialled: string[];
};

/**
 * A client that believes it is on the internet: names resolve through `names` (as if public DNS), and every
 * address that passes the check is dialled at 127.0.0.1 instead (the test-only seam). Addresses are still
 * checked exactly as in production, with ALLOW_PRIVATE_NETWORK_FETCH off unless told.
 */
export function publicNetwork(
  names: Record<string, string[]>,
  options: { allowPrivateNetwork?: boolean; resolve?: Resolver } = {},
): PublicNetwork {
  const lookups: string[] = [];
  const dialled: string[] = [];
  const resolve: Resolver =
    options.resolve ??
    (async (hostname) => {
      lookups.push(hostname);
      const addresses = names[hostname];
      if (!addresses) {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      }

      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    });
  const client = createGuardedClient({
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    resolve,
    testOnly: {
      dialAddress: (address) => {
        dialled.push(address);

        return '127.0.0.1';
      },
    },
  });

  return { client, lookups, dialled };
}
