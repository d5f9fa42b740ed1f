import { describe, expect, it } from 'vitest';
import type { PlaylistData, SlideData } from '@/server/modules/content/content-data.schemas';
import { fittedBox, formatClock, paintOrder, scaleToFit } from './layout';
import { entryAt, formatDuration, playlistTimeline, totalDuration, type EmbeddedContent, type MediaFile, type Resolver } from './timeline';

const image: MediaFile = { id: 'img', contentType: 'image/png', url: '/img' };
const video: MediaFile = { id: 'vid', contentType: 'video/mp4', url: '/vid', durationMs: 42_000 };
const expired: MediaFile = { id: 'old', contentType: 'image/png', url: '/old', validTo: 1_000 };
const slide: SlideData = {
  pages: [
    { name: 'Default', tags: [], pageStyle: {}, pageData: { screenSize: { width: 1920, height: 1080 }, durationMs: 5_000 }, widgets: [] },
  ],
};

function playlist(slides: PlaylistData['slides']): PlaylistData {
  return {
    loopData: {
      resolution: { width: 1920, height: 1080 },
      defaultImageFit: 'contain',
      defaultVideoFit: 'cover',
      defaultDurationMs: 10_000,
    },
    slides,
  };
}

function resolver(contents: Record<string, EmbeddedContent> = {}, now = 5_000): Resolver {
  const files: Record<string, MediaFile> = { img: image, vid: video, old: expired };

  return { file: (id) => files[id], folder: (id) => (id === 'folder' ? [image, video, expired] : []), content: (id) => contents[id], now };
}

describe('playlistTimeline', () => {
  it('gives images the default duration, videos their own length, and each item its own when set', () => {
    const entries = playlistTimeline(
      playlist([
        { key: 'a', type: 'FILE', id: 'img' },
        { key: 'b', type: 'FILE', id: 'vid' },
        { key: 'c', type: 'FILE', id: 'img', durationMs: 3_000, fit: 'fill' },
      ]),
      resolver(),
    );
    expect(entries.map((e) => [e.kind, e.durationMs])).toEqual([
      ['image', 10_000],
      ['video', 42_000],
      ['image', 3_000],
    ]);
    expect(entries.map((e) => ('fit' in e ? e.fit : null))).toEqual(['contain', 'cover', 'fill']);
    expect(totalDuration(entries)).toBe(55_000);
  });

  it('expands folders, skips what is disabled, outside its validity or missing', () => {
    const entries = playlistTimeline(
      playlist([
        { key: 'f', type: 'FILE_FOLDER', id: 'folder', durationMs: 2_000 },
        { key: 'off', type: 'FILE', id: 'img', enabled: false },
        { key: 'later', type: 'FILE', id: 'img', validFrom: 9_000 },
        { key: 'gone', type: 'FILE', id: 'nope' },
      ]),
      resolver(),
    );
    expect(entries.map((e) => e.key)).toEqual(['f/0', 'f/1']);
    expect(entries.every((e) => e.durationMs === 2_000)).toBe(true);
  });

  it('plays slides for their page duration and expands nested playlists, never a cycle', () => {
    const inner = playlist([
      { key: 'i', type: 'FILE', id: 'img' },
      { key: 'back', type: 'SIMPLE_LOOP', id: 'outer' },
    ]);
    const outer = playlist([
      { key: 's', type: 'CONTENT', id: 'slide' },
      { key: 'n', type: 'SIMPLE_LOOP', id: 'inner' },
    ]);
    const contents: Record<string, EmbeddedContent> = {
      slide: { id: 'slide', deviceContentType: 'content', data: slide },
      inner: { id: 'inner', deviceContentType: 'simpleLoop', data: inner },
      outer: { id: 'outer', deviceContentType: 'simpleLoop', data: outer },
    };
    const entries = playlistTimeline(outer, resolver(contents), { selfId: 'outer' });
    // outer → slide, inner → image, (inner → outer: a cycle, skipped).
    expect(entries.map((e) => [e.key, e.durationMs])).toEqual([
      ['s', 5_000],
      ['n/i', 10_000],
    ]);
    // Without its own id, the cycle is cut the first time a playlist comes round again.
    expect(playlistTimeline(outer, resolver(contents)).map((e) => e.key)).toEqual(['s', 'n/i', 'n/back/s']);
  });
});

describe('entryAt', () => {
  const entries = playlistTimeline(
    playlist([
      { key: 'a', type: 'FILE', id: 'img', durationMs: 1_000 },
      { key: 'b', type: 'FILE', id: 'img', durationMs: 2_000 },
    ]),
    resolver(),
  );

  it('finds the entry playing at a moment, repeating after the end', () => {
    expect(entryAt(entries, 0)).toEqual({ index: 0, offsetMs: 0 });
    expect(entryAt(entries, 999)).toEqual({ index: 0, offsetMs: 999 });
    expect(entryAt(entries, 1_000)).toEqual({ index: 1, offsetMs: 0 });
    expect(entryAt(entries, 3_500)).toEqual({ index: 0, offsetMs: 500 });
    expect(entryAt([], 10)).toBeUndefined();
  });

  it('formats durations', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
  });
});

describe('layout', () => {
  it('letterboxes a screen into a container, centred', () => {
    expect(scaleToFit({ width: 1920, height: 1080 }, { width: 960, height: 960 })).toEqual({ scale: 0.5, offsetX: 0, offsetY: 210 });
    expect(scaleToFit({ width: 1080, height: 1920 }, { width: 1000, height: 960 })).toEqual({ scale: 0.5, offsetX: 230, offsetY: 0 });
  });

  it('computes what each fit mode draws', () => {
    const media = { width: 400, height: 200 };
    const frame = { width: 200, height: 200 };
    expect(fittedBox(media, frame, 'contain')).toEqual({ left: 0, top: 50, width: 200, height: 100 });
    expect(fittedBox(media, frame, 'cover')).toEqual({ left: -100, top: 0, width: 400, height: 200 });
    expect(fittedBox(media, frame, 'fill')).toEqual({ left: 0, top: 0, width: 200, height: 200 });
    expect(fittedBox(media, frame, 'none')).toEqual({ left: -100, top: 0, width: 400, height: 200 });
  });

  it('paints widgets by z-index, then in document order', () => {
    const w = (id: string, zIndex: number) => ({ id, type: 'text' as const, text: '', x: 0, y: 0, width: 1, height: 1, zIndex });
    expect(paintOrder({ widgets: [w('a', 2), w('b', 1), w('c', 2), w('d', 0)] }).map((x) => x.id)).toEqual(['d', 'b', 'a', 'c']);
  });

  it("formats a clock in the screen's time zone", () => {
    const at = new Date('2026-07-01T10:05:09Z');
    expect(formatClock(at, 'HH:mm', { timeZone: 'Europe/Berlin' })).toBe('12:05');
    expect(formatClock(at, 'HH:mm:ss', { timeZone: 'UTC' })).toBe('10:05:09');
    expect(formatClock(at, 'h:mm a', { timeZone: 'America/New_York', locale: 'en-US' })).toBe('6:05 AM');
  });
});
