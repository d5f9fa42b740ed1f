/*
 * What the service worker (player/sw.ts) keeps in its media cache, as pure functions. A file is cached under
 * /player/media/<fileId>?v=<crc> (stable while its bytes are; the manifest's signed URLs change daily). While
 * the next manifest's files download, the files of both manifests are kept and served; once the page has
 * switched, those of the current manifest alone.
 */

export type FileRef = { id: string; url: string; crc: string; contentType: string };

export const MEDIA_PREFIX = '/player/media/';

export const mediaKey = (f: Pick<FileRef, 'id' | 'crc'>): string =>
  `${MEDIA_PREFIX}${encodeURIComponent(f.id)}?v=${encodeURIComponent(f.crc)}`;

/** The files the worker answers for while `next` downloads: the current ones and the next ones (the next one's URL wins). */
export function unionFiles(current: Iterable<FileRef>, next: readonly FileRef[]): FileRef[] {
  const byId = new Map<string, FileRef>();
  for (const f of current) byId.set(f.id, f);
  for (const f of next) byId.set(f.id, f);

  return [...byId.values()];
}

/** Cached media paths (`pathname + search`) that no file of `keep` uses: to delete. Other paths are left alone. */
export function staleKeys(cached: readonly string[], keep: readonly FileRef[]): string[] {
  const wanted = new Set(keep.map(mediaKey));

  return cached.filter((path) => path.startsWith(MEDIA_PREFIX) && !wanted.has(path));
}

/** The files of `list` not cached yet (each once), in the manifest's order. */
export function missingFiles(list: readonly FileRef[], cached: ReadonlySet<string>): FileRef[] {
  const seen = new Set<string>();

  return list.filter((f) => {
    const key = mediaKey(f);
    if (cached.has(key) || seen.has(key)) return false;
    seen.add(key);

    return true;
  });
}
