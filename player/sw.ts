import { rangeResponse } from './cached-range';

/*
 * The player's service worker (scope /player/): keeps the player itself and every media file of the current
 * manifest in Cache Storage, so a screen without network keeps playing until the manifest's `validUntil`.
 * Media is asked for at /player/media/<fileId>?v=<crc> (stable while the file's bytes are); the page tells
 * the worker the signed URL of each file with every manifest. A `Range` request is answered from the cache
 * with a 206 slice, so video seeks work offline. Files no longer referenced are removed.
 */

declare const BUILD_ID: string;
declare const PLAYER_ASSETS: string[];

type FileRef = { id: string; url: string; crc: string; contentType: string };
type ExtendableEvent = Event & { waitUntil(p: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(r: Promise<Response> | Response): void };
type MessageEventSW = ExtendableEvent & { data: { type?: string; files?: FileRef[] }; ports: readonly MessagePort[] };
type Worker = {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEventSW) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
};

const sw = self as unknown as Worker;
const SHELL = `player-shell-${BUILD_ID}`;
const MEDIA = 'player-media';
const MAP_KEY = '/player/media-map.json';

let files: Map<string, FileRef> | undefined;

const mediaKey = (f: Pick<FileRef, 'id' | 'crc'>) => `/player/media/${encodeURIComponent(f.id)}?v=${encodeURIComponent(f.crc)}`;

async function fileMap(): Promise<Map<string, FileRef>> {
  if (files) return files;
  const saved = await (await caches.open(MEDIA)).match(MAP_KEY);
  files = new Map(saved ? ((await saved.json()) as FileRef[]).map((f) => [f.id, f]) : []);

  return files;
}

/** Keeps exactly the files of `list`: downloads those not cached yet (one at a time), drops the others. */
async function syncMedia(list: FileRef[]): Promise<void> {
  files = new Map(list.map((f) => [f.id, f]));
  const cache = await caches.open(MEDIA);
  await cache.put(MAP_KEY, new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } }));
  const wanted = new Set(list.map(mediaKey));
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname + new URL(request.url).search;
    if (path !== MAP_KEY && !wanted.has(path)) await cache.delete(request);
  }
  for (const file of list) {
    if (await cache.match(mediaKey(file))) continue;
    try {
      const res = await fetch(file.url);
      if (res.ok) await cache.put(mediaKey(file), new Response(await res.blob(), { headers: { 'content-type': file.contentType } }));
    } catch {
      // Offline: tried again with the next manifest.
    }
  }
}

/** A cached (or, while not cached, fetched) file, sliced when a range is asked for. */
async function media(request: Request, url: URL): Promise<Response> {
  const cache = await caches.open(MEDIA);
  const key = url.pathname + url.search;
  const cached = await cache.match(key);
  if (cached) return slice(cached, request.headers.get('range'));
  const id = decodeURIComponent(url.pathname.slice('/player/media/'.length));
  const file = (await fileMap()).get(id);
  if (!file) return new Response('Not in the manifest', { status: 404 });
  // Not cached yet: straight from the server (which answers ranges itself).
  const headers = new Headers();
  const range = request.headers.get('range');
  if (range) headers.set('range', range);

  return fetch(file.url, { headers });
}

async function slice(cached: Response, header: string | null): Promise<Response> {
  const blob = await cached.blob();

  return rangeResponse(blob, header, cached.headers.get('content-type') ?? (blob.type || 'application/octet-stream'));
}

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    await cache.addAll(PLAYER_ASSETS);
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith('player-shell-') && name !== SHELL) await caches.delete(name);
    await sw.clients.claim();
  })());
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) return;
  if (url.pathname.startsWith('/player/media/')) {
    event.respondWith(media(event.request, url));
  } else if (url.pathname === '/player/' || url.pathname === '/player/index.html') {
    // The page: the network first (a new version is picked up at the next reload), the cache offline.
    event.respondWith(fetch(event.request).catch(async () => (await caches.match('/player/', { cacheName: SHELL })) ?? Response.error()));
  } else if (PLAYER_ASSETS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: SHELL }).then((hit) => hit ?? fetch(event.request)));
  }
});

sw.addEventListener('message', (event) => {
  const reply = () => event.ports[0]?.postMessage({ done: true });
  const { type, files: list } = event.data ?? {};
  if (type === 'manifest' && Array.isArray(list)) event.waitUntil(syncMedia(list).then(reply));
  else if (type === 'clear') event.waitUntil(caches.delete(MEDIA).then(() => (files = undefined)).then(reply));
  else if (type === 'cache') event.waitUntil(fileMap().then((m) => syncMedia([...m.values()])).then(reply));
});
