import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the local remote answers for one path: a status, headers and a body; or a handler of its own. */
export type RemoteRoute =
  { status?: number; headers?: Record<string, string>; body: string | Buffer } | ((req: IncomingMessage, res: ServerResponse) => void);

/**
 * A remote on 127.0.0.1 for datasource tests (the service fetches it with ALLOW_PRIVATE_NETWORK_FETCH=true): routes
 * change while it runs, and every request is counted by path, so a test sees how often a datasource was fetched.
 */
export async function startRemote(routes: Record<string, RemoteRoute> = {}) {
  const hits = new Map<string, number>();
  const requests: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    requests.push({ path, headers: req.headers });
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');

      return;
    }
    if (typeof route === 'function') {
      route(req, res);

      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? {}).end(route.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    url: (path: string) => `${base}${path}`,
    routes,
    hits: (path: string) => hits.get(path) ?? 0,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An RSS 2.0 feed of `items` (newest first), as news sites publish them. */
export function rssFeed(items: Array<{ guid: string; title: string; pubDate: Date; description?: string }>): string {
  const entries = items
    .map(
      (i) =>
        `<item><guid isPermaLink="false">${i.guid}</guid><title>${i.title}</title><link>https://news.example.com/${i.guid}</link>` +
        `<description>${i.description ?? ''}</description><pubDate>${i.pubDate.toUTCString()}</pubDate></item>`,
    )
    .join('');

  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Example News</title><link>https://news.example.com/</link><description>News</description>${entries}</channel></rss>`;
}
