import { rangeResponse } from './cached-range';
import { MEDIA_PREFIX, mediaKey, missingFiles, staleKeys, unionFiles, type FileRef } from './media-cache';

/*
 * The player's service worker (scope /player/): keeps the player itself and every media file of the current
 * manifest in Cache Storage, so a screen without network keeps playing until the manifest's `validUntil`.
 * Media is asked for at /player/media/<fileId>?v=<crc> (stable while the file's bytes are); the page tells
 * the worker the signed URL of each file with every manifest. A `Range` request is answered from the cache
 * with a 206 slice, so video seeks work offline. The next manifest's files are downloaded (`prefetch`) before
 * the page switches to it, the current ones kept; after the switch (`manifest`) files no longer referenced
 * are removed (player/manifest-switch.ts). Messages are handled one at a time, in the order the page sent them.
 */

declare const BUILD_ID: string;
declare const PLAYER_ASSETS: string[];

type ExtendableEvent = Event & { waitUntil(p: Promise<unknown>): void };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(r: Promise<Response> | Response): void };
type MessageEventSW = ExtendableEvent & { data: { type?: string; files?: FileRef[]; keep?: FileRef[] }; ports: readonly MessagePort[] };
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

async function fileMap(): Promise<Map<string, FileRef>> {
  if (files) return files;
  const saved = await (await caches.open(MEDIA)).match(MAP_KEY);
  files = new Map(saved ? ((await saved.json()) as FileRef[]).map((f) => [f.id, f]) : []);

  return files;
}

/** The files the worker answers for: set when a message arrives (before the fetches that follow it), kept across its restarts. */
function setFiles(list: FileRef[]): void {
  files = new Map(list.map((f) => [f.id, f]));
}

async function saveFiles(cache: Cache): Promise<void> {
  await cache.put(MAP_KEY, new Response(JSON.stringify([...(files?.values() ?? [])]), { headers: { 'content-type': 'application/json' } }));
}

/** Downloads the files of `list` not cached yet, one at a time; a failure (offline) is tried again with the next message. */
async function download(cache: Cache, list: FileRef[]): Promise<{ cached: number; failed: number }> {
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search));
  let cached = 0;
  let failed = 0;
  for (const file of missingFiles(list, have)) {
    try {
      const res = await fetch(file.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      await cache.put(mediaKey(file), new Response(await res.blob(), { headers: { 'content-type': file.contentType } }));
      cached++;
    } catch {
      failed++;
    }
  }

  return { cached, failed };
}

/** The next manifest's files (`list`), downloaded beside the current ones (`keep`): nothing is removed. */
async function prefetch(list: FileRef[]): Promise<{ cached: number; failed: number }> {
  const cache = await caches.open(MEDIA);
  await saveFiles(cache);

  return download(cache, list);
}

/** The page plays `list` now: keeps its files (and `keep`'s, a manifest still downloading), drops the others, fetches what is missing. */
async function syncMedia(list: FileRef[], keep: FileRef[] = []): Promise<{ cached: number; failed: number }> {
  const cache = await caches.open(MEDIA);
  await saveFiles(cache);
  const cachedPaths = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
  for (const path of staleKeys(cachedPaths, unionFiles(keep, list))) await cache.delete(path);

  return download(cache, list);
}

/** A cached (or, while not cached, fetched) file, sliced when a range is asked for. */
async function media(request: Request, url: URL): Promise<Response> {
  const cache = await caches.open(MEDIA);
  const key = url.pathname + url.search;
  const cached = await cache.match(key);
  if (cached) return slice(cached, request.headers.get('range'));
  const id = decodeURIComponent(url.pathname.slice(MEDIA_PREFIX.length));
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
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(PLAYER_ASSETS);
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('player-shell-') && name !== SHELL) await caches.delete(name);
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== location.origin) return;
  if (url.pathname.startsWith(MEDIA_PREFIX)) {
    event.respondWith(media(event.request, url));
  } else if (url.pathname === '/player/' || url.pathname === '/player/index.html') {
    // The page: the network first (a new version is picked up at the next reload), the cache offline.
    event.respondWith(fetch(event.request).catch(async () => (await caches.match('/player/', { cacheName: SHELL })) ?? Response.error()));
  } else if (PLAYER_ASSETS.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname, { cacheName: SHELL }).then((hit) => hit ?? fetch(event.request)));
  }
});

let queue: Promise<unknown> = Promise.resolve();
/** Runs `task` after the messages before it (a prune never races a download the page asked for earlier). */
function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);

  return run;
}

sw.addEventListener('message', (event) => {
  const reply = (result?: unknown) => event.ports[0]?.postMessage({ done: true, ...(result && typeof result === 'object' ? result : {}) });
  const { type, files: list, keep } = event.data ?? {};
  const keeping = Array.isArray(keep) ? keep : [];
  // The files answered for change in the order of the messages, at once: media of a manifest the page switched to
  // without waiting is found even while an earlier download holds the queue.
  if ((type === 'prefetch' || type === 'manifest') && Array.isArray(list)) setFiles(unionFiles(keeping, list));
  if (type === 'prefetch' && Array.isArray(list)) event.waitUntil(serial(() => prefetch(list)).then(reply, () => reply()));
  else if (type === 'manifest' && Array.isArray(list)) event.waitUntil(serial(() => syncMedia(list, keeping)).then(reply, () => reply()));
  else if (type === 'clear') event.waitUntil(serial(() => caches.delete(MEDIA).then(() => (files = undefined))).then(() => reply()));
  else if (type === 'cache') event.waitUntil(serial(() => fileMap().then((m) => syncMedia([...m.values()]))).then(reply, () => reply()));
});
