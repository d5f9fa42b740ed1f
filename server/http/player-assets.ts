import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

/*
 * The web player's files (dist/player/, built by scripts/build-player.mjs) at /player/: outside the API and
 * the console, so no Next.js runtime is involved. The script's name carries its content hash and is cached
 * for a year; the page and the service worker are revalidated on every load, so a new build is picked up
 * at the next reload.
 */

const PLAYER_PREFIX = '/player';

/** The security headers of the console's pages (next.config.mjs), and a policy that fits a kiosk page. */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob: https:; connect-src 'self' ws: wss:; frame-src http: https:; worker-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function isPlayerPath(url: string): boolean {
  const p = url.split('?', 1)[0]!;

  return p === PLAYER_PREFIX || p.startsWith(`${PLAYER_PREFIX}/`);
}

export type PlayerAsset = { redirect: string } | { file: string; headers: Record<string, string> } | undefined;

/**
 * What answers `url`: the page for /player/ (and any path under it that is not a file: the player has no
 * routes of its own), a file of the bundle by its plain name, a redirect for /player. Media paths
 * (/player/media/…) are the service worker's: a 404 here.
 */
export function playerAsset(url: string): PlayerAsset {
  const [p = '', query] = url.split('?', 2);
  if (p === PLAYER_PREFIX) return { redirect: `${PLAYER_PREFIX}/${query ? `?${query}` : ''}` };
  const name = p.slice(PLAYER_PREFIX.length + 1);
  if (name.startsWith('media/')) return undefined;
  if (name === '' || name === 'index.html')
    return { file: 'index.html', headers: { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache', ...SECURITY_HEADERS } };
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)+$/.test(name)) return undefined;
  const type = TYPES[path.extname(name)];
  if (!type) return undefined;
  const hashed = /-[A-Z0-9]{8}\.js(\.map)?$/.test(name);

  return {
    file: name,
    headers: {
      'content-type': type,
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      ...(name === 'sw.js' ? { 'service-worker-allowed': `${PLAYER_PREFIX}/` } : {}),
    },
  };
}

/** Serves /player/* from `dir` (GET and HEAD). */
export function createPlayerHandler(dir = path.join(process.cwd(), 'dist', 'player')) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const asset = playerAsset(req.url ?? '/');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
      return;
    }
    if (asset && 'redirect' in asset) {
      res.writeHead(308, { location: asset.redirect }).end();
      return;
    }
    const info = asset ? await stat(path.join(dir, asset.file)).catch(() => undefined) : undefined;
    if (!asset || !info?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-cache' }).end('Not found');
      return;
    }
    const etag = `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'cache-control': asset.headers['cache-control']! }).end();
      return;
    }
    res.writeHead(200, { ...asset.headers, etag, 'content-length': String(info.size) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(path.join(dir, asset.file))
      .on('error', () => res.destroy())
      .pipe(res);
  };
}
