import type { Fit, PlaylistData, SlideData, Transition } from '@/server/modules/content/content-data.schemas';

/*
 * What a playlist plays, in order and for how long: the one timing model of the editor preview and the web
 * player. Framework-free and pure: the caller resolves files, folders and embedded content first.
 */

/** A file as the player needs it; `durationMs` is a video's own length when known. */
export type MediaFile = {
  id: string;
  name?: string;
  contentType: string;
  url: string;
  durationMs?: number;
  validFrom?: number | null;
  validTo?: number | null;
};

export type EmbeddedContent = { id: string; name?: string; deviceContentType: 'content' | 'simpleLoop'; data: unknown };

export type Resolver = {
  file: (id: string) => MediaFile | undefined;
  /** The files of a folder, in play order (by name). */
  folder: (id: string) => readonly MediaFile[];
  content: (id: string) => EmbeddedContent | undefined;
  /** Epoch milliseconds: items and files outside their validity are skipped. */
  now: number;
};

export type PlayEntry =
  | { key: string; kind: 'image' | 'video'; file: MediaFile; durationMs: number; fit: Fit; transition?: Transition }
  | { key: string; kind: 'slide'; contentId: string; data: SlideData; durationMs: number; transition?: Transition };

/** Nested playlists deeper than this are not expanded (the API refuses cycles; this bounds a bad document). */
const MAX_NESTING = 8;

const within = (now: number, from?: number | null, to?: number | null) => (from == null || now >= from) && (to == null || now <= to);

export function isVideo(file: Pick<MediaFile, 'contentType'>): boolean {
  return file.contentType.startsWith('video/');
}

/**
 * The entries of a playlist, nested playlists and folders expanded, invalid and missing items left out.
 * `selfId` is the playlist's own id: a nested playlist already being expanded (a cycle, which the API
 * refuses) is skipped, and nesting stops at MAX_NESTING.
 */
export function playlistTimeline(data: PlaylistData, resolve: Resolver, options: { selfId?: string } = {}): PlayEntry[] {
  return expand(data, resolve, options.selfId ? [options.selfId] : [], []);
}

function expand(data: PlaylistData, resolve: Resolver, ancestors: readonly string[], path: readonly string[]): PlayEntry[] {
  const loop = data.loopData;
  const entries: PlayEntry[] = [];
  for (const item of data.slides) {
    if (item.enabled === false || !within(resolve.now, item.validFrom, item.validTo)) continue;
    const key = [...path, item.key].join('/');
    if (item.type === 'FILE' || item.type === 'FILE_FOLDER') {
      const files = item.type === 'FILE' ? [resolve.file(item.id)].filter((f): f is MediaFile => f !== undefined) : resolve.folder(item.id);
      files.forEach((file, i) => {
        if (!within(resolve.now, file.validFrom, file.validTo)) return;
        const video = isVideo(file);
        const durationMs = item.durationMs ?? (video ? (file.durationMs ?? loop.defaultDurationMs) : loop.defaultDurationMs);
        const fit = item.fit ?? (video ? loop.defaultVideoFit : loop.defaultImageFit);
        entries.push({
          key: item.type === 'FILE' ? key : `${key}/${i}`,
          kind: video ? 'video' : 'image',
          file,
          durationMs,
          fit,
          transition: item.transition,
        });
      });
    } else if (item.type === 'CONTENT') {
      const content = resolve.content(item.id);
      if (!content || content.deviceContentType !== 'content') continue;
      const slide = content.data as SlideData;
      const durationMs = item.durationMs ?? slide.pages[0]?.pageData.durationMs ?? loop.defaultDurationMs;
      entries.push({ key, kind: 'slide', contentId: item.id, data: slide, durationMs, transition: item.transition });
    } else {
      const nested = resolve.content(item.id);
      if (!nested || nested.deviceContentType !== 'simpleLoop' || ancestors.length > MAX_NESTING || ancestors.includes(item.id)) continue;
      entries.push(...expand(nested.data as PlaylistData, resolve, [...ancestors, item.id], [...path, item.key]));
    }
  }

  return entries;
}

export function totalDuration(entries: readonly PlayEntry[]): number {
  return entries.reduce((sum, e) => sum + e.durationMs, 0);
}

/** Which entry plays `elapsedMs` after the start (the playlist repeats), and how far into it. */
export function entryAt(entries: readonly PlayEntry[], elapsedMs: number): { index: number; offsetMs: number } | undefined {
  return loopPosition(
    entries.map((e) => e.durationMs),
    0,
    elapsedMs,
  );
}

/**
 * Where in a loop of `durations` (ms each, repeating from `anchor`) the instant `now` falls: the item and
 * how far into it. Before the anchor the loop runs backwards from it, so every screen gets the same answer.
 */
export function loopPosition(durations: readonly number[], anchor: number, now: number): { index: number; offsetMs: number } | undefined {
  const total = durations.reduce((sum, d) => sum + Math.max(0, d), 0);
  if (durations.length === 0 || total <= 0) return undefined;
  let t = (((now - anchor) % total) + total) % total;
  for (let index = 0; index < durations.length; index++) {
    const d = Math.max(0, durations[index]!);
    if (t < d) return { index, offsetMs: t };
    t -= d;
  }

  return { index: durations.length - 1, offsetMs: 0 };
}

/** "1:05" or "1:02:03". */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;

  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}
