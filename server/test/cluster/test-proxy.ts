import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROXY_SETTINGS, READINESS_PROBE_INTERVAL_MS } from './proxy-settings';

/**
 * The cluster test's reverse proxy (no dependency): HTTP and WebSocket upgrades, round robin over the instances,
 * with the settings of docs/deploying/nginx.conf (proxy-settings.ts). An instance is skipped while its `/readyz`
 * fails (an active probe) or for `failTimeoutSeconds` after a connection to it failed (nginx's passive check); a
 * refused or timed-out connection is retried on the next instance, since nothing reached the refusing one. The
 * instances get the headers nginx.conf sets: `Host` as the client sent it (PUBLIC_URL's host, port included),
 * `X-Forwarded-For`, `-Proto` and `-Host`.
 */
export type TestProxy = {
  url: string;
  port: number;
  /** Which instance answered each WebSocket upgrade that is still open, by the socket's client port. */
  readonly tunnels: ReadonlyMap<number, string>;
  /** Requests and upgrades handed to each instance so far (by name). */
  readonly forwarded: ReadonlyMap<string, number>;
  /** Whether the proxy currently sends traffic to the instance (ready and not failed). */
  inRotation: (name: string) => boolean;
  /** Waits until the instance's in-rotation state is `expected` (the probe runs every READINESS_PROBE_INTERVAL_MS). */
  waitForRotation: (name: string, expected: boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
};

export type ProxyBackend = { name: string; url: string };

/** The header carrying which instance answered an upgrade (test observability; nginx.conf has no such header). */
export const BACKEND_HEADER = 'x-test-backend';

type Backend = ProxyBackend & { host: string; port: number; ready: boolean; failedUntil: number };

/** Methods sent again to the next instance when one failed them: they carry no body and change nothing. */
const BODILESS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Hop-by-hop headers (RFC 9110 §7.6.1): never forwarded as they came. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

export async function startTestProxy(backendList: ProxyBackend[], options: { port?: number } = {}): Promise<TestProxy> {
  const backends: Backend[] = backendList.map((b) => {
    const url = new URL(b.url);

    return { ...b, host: url.hostname, port: Number(url.port), ready: false, failedUntil: 0 };
  });
  const agent = new http.Agent({ keepAlive: true, timeout: PROXY_SETTINGS.upstreamKeepaliveTimeoutSeconds * 1000 });
  const tunnels = new Map<number, string>();
  const forwarded = new Map<string, number>();
  const openSockets = new Set<Duplex>();
  let next = 0;
  let closed = false;

  const available = (b: Backend) => b.ready && b.failedUntil <= Date.now();
  /** The instances to try, in round-robin order from the next one; only those in rotation. */
  const candidates = (): Backend[] => {
    const start = next++ % backends.length;
    const order = [...backends.slice(start), ...backends.slice(0, start)];

    return order.filter(available);
  };
  const failed = (b: Backend) => {
    b.failedUntil = Date.now() + PROXY_SETTINGS.failTimeoutSeconds * 1000;
  };
  const count = (b: Backend) => forwarded.set(b.name, (forwarded.get(b.name) ?? 0) + 1);

  /** The request's headers as the instance gets them: hop-by-hop ones dropped, the X-Forwarded-* set. */
  const upstreamHeaders = (req: http.IncomingMessage, upgrade: boolean): http.OutgoingHttpHeaders => {
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const client = req.socket.remoteAddress ?? 'unknown';
    const prior = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = prior ? `${String(prior)}, ${client}` : client;
    headers['x-forwarded-proto'] = 'http';
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
    if (upgrade) {
      headers.connection = 'upgrade';
      headers.upgrade = req.headers.upgrade;
    }

    return headers;
  };

  /**
   * Opens the request to the first instance that takes the connection. The client's body is piped only once the
   * connection stands, so a refused one can be retried elsewhere even for a POST (nothing was sent).
   */
  const connect = (
    req: http.IncomingMessage,
    upgrade: boolean,
    onRequest: (upstream: http.ClientRequest | undefined, backend: Backend | undefined) => void,
    skip?: Backend,
  ) => {
    const tryNext = (queue: Backend[]): void => {
      const backend = queue.shift();
      if (!backend) return onRequest(undefined, undefined);
      const upstream = http.request({
        host: backend.host,
        port: backend.port,
        method: req.method,
        path: req.url,
        headers: upstreamHeaders(req, upgrade),
        agent: upgrade ? false : agent,
      });
      let sent = false;
      const connectTimer = setTimeout(() => upstream.destroy(new Error('connect timeout')), PROXY_SETTINGS.connectTimeoutSeconds * 1000);
      upstream.once('socket', (socket) => {
        const ready = () => {
          clearTimeout(connectTimer);
          if (sent) return;
          sent = true;
          count(backend);
          onRequest(upstream, backend);
        };
        // A kept-alive socket is connected already; a new one says so.
        if (!socket.connecting) ready();
        else socket.once('connect', ready);
      });
      // Before the connection stood: this instance is out for a while, the next one is tried. After: the caller's.
      upstream.on('error', () => {
        clearTimeout(connectTimer);
        if (sent) return;
        sent = true;
        failed(backend);
        tryNext(queue);
      });
    };
    tryNext(candidates().filter((b) => b !== skip));
  };

  /** Forwards one request; `retried` is the instance that already failed it (a bodiless request is sent once more). */
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, retried?: Backend) => {
    connect(
      req,
      false,
      (upstream, backend) => {
        if (!upstream || !backend) {
          res.writeHead(502).end('No instance answered');
          req.resume();

          return;
        }
        upstream.setTimeout(PROXY_SETTINGS.readTimeoutSeconds * 1000, () => upstream.destroy(new Error('read timeout')));
        let answered = false;
        upstream.on('response', (answer) => {
          answered = true;
          const headers = { ...answer.headers };
          for (const name of HOP_BY_HOP) delete headers[name];
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        });
        upstream.on('error', () => {
          // The instance died with the request sent (SIGKILL, or a kept-alive connection it had closed). A request
          // without a body goes to the next instance once (nginx's proxy_next_upstream for idempotent methods);
          // anything else could run twice, so the client gets the failure.
          if (!answered && !retried && BODILESS.has(req.method ?? 'GET')) {
            failed(backend);
            forward(req, res, backend);
          } else if (!res.headersSent) res.writeHead(502).end('The instance failed');
          else res.destroy();
        });
        let received = 0;
        req.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > PROXY_SETTINGS.clientMaxBodyBytes) {
            upstream.destroy();
            if (!res.headersSent) res.writeHead(413, { connection: 'close' }).end('Request body too large');
            req.destroy();
          }
        });
        // A retried request was read to its end already (it has no body): only the end is sent again.
        if (req.readableEnded) upstream.end();
        else req.pipe(upstream);
        res.on('close', () => {
          if (!res.writableFinished) upstream.destroy();
        });
      },
      retried,
    );
  };

  const server = http.createServer((req, res) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > PROXY_SETTINGS.clientMaxBodyBytes) {
      res.writeHead(413, { connection: 'close' }).end('Request body too large');
      req.resume();

      return;
    }
    forward(req, res);
  });

  server.on('upgrade', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    openSockets.add(client);
    client.on('close', () => openSockets.delete(client));
    client.on('error', () => client.destroy());
    connect(req, true, (upstream, backend) => {
      if (!upstream || !backend) {
        client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');

        return;
      }
      upstream.on('upgrade', (answer, socket, upstreamHead) => {
        openSockets.add(socket);
        const clientPort = (client as unknown as { remotePort?: number }).remotePort ?? 0;
        tunnels.set(clientPort, backend.name);
        const lines = [`HTTP/1.1 101 ${answer.statusMessage ?? 'Switching Protocols'}`];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
        lines.push(`${BACKEND_HEADER}: ${backend.name}`);
        client.write(`${lines.join('\r\n')}\r\n\r\n`);
        if (upstreamHead.length > 0) client.write(upstreamHead);
        if (head.length > 0) socket.write(head);
        // Idle WebSockets: nothing either way for readTimeoutSeconds closes both ends (proxy_read_timeout).
        const idle = PROXY_SETTINGS.readTimeoutSeconds * 1000;
        socket.setTimeout(idle, () => socket.destroy());
        client.on('data', () => socket.setTimeout(idle));
        socket.pipe(client);
        client.pipe(socket);
        const end = () => {
          tunnels.delete(clientPort);
          socket.destroy();
          client.destroy();
        };
        socket.on('close', end);
        socket.on('error', end);
        client.on('close', end);
      });
      upstream.on('response', (answer) => {
        // The instance refused the upgrade (a bad ticket: 401): its answer goes back as it is.
        const lines = [`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}`];
        for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
        client.write(`${lines.join('\r\n')}\r\n\r\n`);
        answer.pipe(client);
      });
      upstream.on('error', () => client.destroy());
      upstream.end();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  // The active check: every instance's /readyz, each probe bounded by the connect timeout.
  const probe = async () => {
    await Promise.all(
      backends.map(async (b) => {
        try {
          const res = await fetch(`${b.url}/readyz`, { signal: AbortSignal.timeout(PROXY_SETTINGS.connectTimeoutSeconds * 1000) });
          await res.body?.cancel();
          b.ready = res.status === 200;
        } catch {
          b.ready = false;
        }
      }),
    );
  };
  await probe();
  let probing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    probing = probing.then(probe);
  }, READINESS_PROBE_INTERVAL_MS);

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const byName = (name: string) => {
    const b = backends.find((x) => x.name === name);
    if (!b) throw new Error(`no instance ${name} behind the proxy`);

    return b;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    tunnels,
    forwarded,
    inRotation: (name) => available(byName(name)),
    async waitForRotation(name, expected, timeoutMs = 30_000) {
      const b = byName(name);
      const deadline = Date.now() + timeoutMs;
      while (available(b) !== expected) {
        if (Date.now() > deadline) throw new Error(`instance ${name} did not ${expected ? 'enter' : 'leave'} the rotation`);
        await new Promise((r) => setTimeout(r, READINESS_PROBE_INTERVAL_MS / 5));
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await probing;
      for (const socket of openSockets) socket.destroy();
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
