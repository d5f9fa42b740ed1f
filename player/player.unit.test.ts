import { describe, expect, it } from 'vitest';
import type { Page } from '@/server/modules/content/content-data.schemas';
import type { ChannelPlay, Manifest, Segment } from '@/server/modules/display/display.schemas';
import { backoffDelay } from './backoff';
import { ServerClock, clockOffset, loopPosition, segmentAt } from './clock';
import { channelPlays, contentPlays, datasourcePlay, fileWidgetPlay, manifestResolver, segmentPlays, widgetPlays } from './plan';
import { nextBatch, playEvent, uuid4, type PlayEvent } from './pop-batch';
import { rangeResponse } from './cached-range';
import { cloneIndex, fitRect, webPageLabel } from './capture';
import { STALL_MS, StallWatch, shownSpan, watchDatasourceWidgets } from './stage';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the server clock', () => {
  it('takes serverTime as read half-way through the round trip', () => {
    expect(clockOffset(10_500, 1_000, 2_000)).toBe(9_000);
    expect(clockOffset(1_000, 1_000, 1_000)).toBe(0);
  });

  it('keeps the sample with the shortest round trip until it is ten minutes old', () => {
    let local = 0;
    const clock = new ServerClock(() => local);
    clock.sample(5_000, 0, 1_000); // offset 4 500, round trip 1 000
    clock.sample(9_000, 100, 300); // offset 8 800, round trip 200: better
    expect(clock.offset).toBe(8_800);
    clock.sample(0, 400, 2_400); // worse round trip: ignored
    expect(clock.offset).toBe(8_800);
    clock.sample(700_000, 700_000, 702_000); // ten minutes later: taken even though slower
    expect(clock.offset).toBe(-1_000);
    local = 50;
    expect(clock.now()).toBe(-950);
  });

  it('finds the segment of an instant, half-open', () => {
    const segments = [
      { from: 0, to: 100 },
      { from: 100, to: 200 },
    ];
    expect(segmentAt(segments, 0)).toBe(segments[0]);
    expect(segmentAt(segments, 100)).toBe(segments[1]);
    expect(segmentAt(segments, 200)).toBeUndefined();
  });

  it('reads the position in a loop from its anchor, the same before and after it', () => {
    const durations = [10_000, 5_000, 15_000]; // a 30 s loop
    expect(loopPosition(durations, 1_000_000, 1_000_000)).toEqual({ index: 0, offsetMs: 0 });
    expect(loopPosition(durations, 1_000_000, 1_012_000)).toEqual({ index: 1, offsetMs: 2_000 });
    expect(loopPosition(durations, 1_000_000, 1_000_000 + 30_000 * 7 + 16_000)).toEqual({ index: 2, offsetMs: 1_000 });
    // Before the anchor the loop runs backwards from it: 1 s before is 1 s before the end.
    expect(loopPosition(durations, 1_000_000, 999_000)).toEqual({ index: 2, offsetMs: 14_000 });
    expect(loopPosition([], 0, 5)).toBeUndefined();
    expect(loopPosition([0, 0], 0, 5)).toBeUndefined();
  });
});

describe('reconnect back-off', () => {
  it('doubles from the base up to the cap, jittered between half and all of it', () => {
    expect(backoffDelay(0, {}, () => 0)).toBe(500);
    expect(backoffDelay(0, {}, () => 1)).toBe(1_000);
    expect(backoffDelay(3, {}, () => 1)).toBe(8_000);
    expect(backoffDelay(3, {}, () => 0)).toBe(4_000);
    expect(backoffDelay(20, {}, () => 1)).toBe(60_000);
    expect(backoffDelay(1_000, { baseMs: 100, maxMs: 5_000 }, () => 0.5)).toBe(3_750);
  });

  it('spreads a fleet: different random draws give different delays within the bounds', () => {
    const delays = [0.1, 0.4, 0.7, 0.95].map((r) => backoffDelay(4, {}, () => r));
    expect(new Set(delays).size).toBe(4);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(8_000);
      expect(d).toBeLessThanOrEqual(16_000);
    }
  });
});

describe('proof-of-play batches', () => {
  const event = (n: number): PlayEvent => ({
    eventId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    startedAt: n * 1000,
    endedAt: n * 1000 + 500,
    completed: true,
  });

  it('takes the oldest events first, as NDJSON lines', () => {
    const batch = nextBatch(
      [3, 1, 2].map((key) => ({ key, event: event(key) })),
      { events: 2 },
    );
    expect(batch?.keys).toEqual([1, 2]);
    const lines = batch!.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as PlayEvent);
    expect(lines.map((e) => e.startedAt)).toEqual([1_000, 2_000]);
    expect(batch!.body.endsWith('\n')).toBe(true);
  });

  it('stops before the byte bound, but always takes one event', () => {
    const queued = [1, 2, 3].map((key) => ({ key, event: event(key) }));
    const line = JSON.stringify(event(1)).length + 1;
    expect(nextBatch(queued, { bytes: line * 2 })?.keys).toEqual([1, 2]);
    expect(nextBatch(queued, { bytes: 10 })?.keys).toEqual([1]);
    expect(nextBatch([])).toBeUndefined();
  });

  it('makes version 4 UUIDs without randomUUID (plain http has none)', () => {
    expect(uuid4()).toMatch(UUID);
    expect(uuid4((b) => b.fill(0))).toBe('00000000-0000-4000-8000-000000000000');
    expect(uuid4((b) => b.fill(255))).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});

describe('Range answers from the cache', () => {
  const bytes = new Uint8Array(1_000).map((_, i) => i % 251);
  const blob = new Blob([bytes], { type: 'video/webm' });

  it('answers a range with the 206 slice and its Content-Range', async () => {
    const res = rangeResponse(blob, 'bytes=100-199', 'video/webm');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('content-length')).toBe('100');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([...bytes.slice(100, 200)]);
    const tail = rangeResponse(blob, 'bytes=-10', 'video/webm');
    expect(tail.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect((await tail.arrayBuffer()).byteLength).toBe(10);
  });

  it('answers the whole file without a usable range, and 416 past the end', async () => {
    const whole = rangeResponse(blob, null, 'video/webm');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect((await whole.arrayBuffer()).byteLength).toBe(1_000);
    expect(rangeResponse(blob, 'bytes=0-1,5-6', 'video/webm').status).toBe(200);
    const past = rangeResponse(blob, 'bytes=1000-', 'video/webm');
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');
  });
});

describe('what a segment plays', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const manifest: Pick<Manifest, 'files' | 'contents' | 'folders'> = {
    files: {
      [id(1)]: { id: id(1), name: 'poster.png', contentType: 'image/png', size: 10, crcCheckSum: 'a', url: '/f1' },
      [id(2)]: { id: id(2), name: 'clip.webm', contentType: 'video/webm', size: 10, crcCheckSum: 'b', durationMs: 4_000, url: '/f2' },
    },
    contents: {
      [id(9)]: {
        id: id(9),
        name: 'Loop',
        deviceContentType: 'simpleLoop',
        data: {
          loopData: {
            resolution: { width: 1920, height: 1080 },
            defaultImageFit: 'contain',
            defaultVideoFit: 'cover',
            defaultDurationMs: 7_000,
          },
          slides: [
            { key: 'a', type: 'FILE', id: id(1) },
            { key: 'b', type: 'FILE', id: id(2) },
          ],
        },
      },
    },
    folders: {},
  };
  const resolve = manifestResolver(manifest, 0, (f) => `/player/media/${f.id}`);

  it("plays a content layer's playlist with the file URLs the player chose, naming the playlist", () => {
    const segment: Segment = {
      from: 0,
      to: 100,
      layer: 'CONTENT',
      content: { id: id(9), name: 'Loop', deviceContentType: 'simpleLoop' },
      channels: [],
    };
    const plays = segmentPlays(segment, resolve);
    expect(plays.map((p) => [p.kind, p.durationMs, 'file' in p ? p.file.url : '', p.ownerContentId])).toEqual([
      ['image', 7_000, `/player/media/${id(1)}`, id(9)],
      ['video', 4_000, `/player/media/${id(2)}`, id(9)],
    ]);
    expect(segmentPlays({ ...segment, layer: 'NONE' }, resolve)).toEqual([]);
  });

  it('shares a channels layer by saturation, each turn one pass or a playback slot, tagged with the campaign', () => {
    const channel = (
      campaignId: number,
      saturation: number,
      items: ChannelPlay['items'],
      playbackSlot?: ChannelPlay['playbackSlot'],
    ): ChannelPlay => ({
      campaignId,
      name: `c${campaignId}`,
      weight: 1,
      saturation,
      tags: [],
      items,
      ...(playbackSlot ? { playbackSlot } : {}),
    });
    const image = { type: 'FILE' as const, id: id(1), name: 'poster', durationMs: 5_000 };
    const video = { type: 'FILE' as const, id: id(2), name: 'clip', durationMs: 4_000 };
    const plays = channelPlays([channel(1, 2, [image]), channel(2, 1, [video, image], { items: 1 })], resolve);
    // Turns of one cycle: 1, 2, 1 (saturation 2:1); channel 2 plays one item a turn, so two cycles pass
    // before it is back at its first item.
    expect(plays.map((p) => [p.campaignId, p.kind])).toEqual([
      [1, 'image'],
      [2, 'video'],
      [1, 'image'],
      [1, 'image'],
      [2, 'image'],
      [1, 'image'],
    ]);
    expect(new Set(plays.map((p) => p.key)).size).toBe(plays.length);
    // The channels layer plays them full screen; a channel without items takes no turn.
    const segment: Segment = { from: 0, to: 1, layer: 'CHANNELS', channels: [channel(1, 1, [video]), channel(3, 1, [])] };
    expect(segmentPlays(segment, resolve).map((p) => [p.campaignId, p.durationMs])).toEqual([[1, 4_000]]);
  });

  it("plays a slide keyed by page name (the manifest's form) as its page list, pages in key order, once converted", () => {
    const screenSize = { width: 1920, height: 1080 };
    const slide = {
      id: id(5),
      name: 'Kiosk',
      deviceContentType: 'content' as const,
      structureType: 'COMPLEX' as const,
      data: { Welcome: { pageData: { screenSize, durationMs: 2_000 } }, Menu: { pageData: { screenSize }, vendor: 1 } },
    };
    // A manifest an older player stored holds the page list already.
    const stored = {
      id: id(6),
      name: 'Old',
      deviceContentType: 'content' as const,
      data: { pages: [{ name: 'Default', pageData: { screenSize } }] },
    };
    const resolver = manifestResolver({ ...manifest, contents: { [id(5)]: slide, [id(6)]: stored as never } }, 0);
    const played = contentPlays(id(5), resolver, 'k');
    expect(played).toHaveLength(1);
    expect(played[0]).toMatchObject({
      kind: 'slide',
      durationMs: 12_000,
      data: {
        pages: [
          { name: 'Welcome', pageData: { screenSize, durationMs: 2_000 } },
          { name: 'Menu', pageData: { screenSize }, vendor: 1 },
        ],
      },
    });
    expect(resolver.content(id(5))).toBe(manifestResolver({ ...manifest, contents: { [id(5)]: slide } }, 0).content(id(5)));
    expect(resolver.content(id(6))).toBe(stored);
    expect(resolve.content(id(9))).toBe(manifest.contents[id(9)]);
  });

  describe("proof of play of what a slide's widgets show (spec 4 §5 widgetKey)", () => {
    const box = { x: 0, y: 0, width: 100, height: 100, zIndex: 1 };
    const span = { startedAt: 1_000, endedAt: 6_000, completed: true };
    const events = (plays: ReturnType<typeof segmentPlays>) => plays.map((p, i) => playEvent(p, span, id(100 + i)));

    it("a playlist widget's items carry the widget's key, with the file and the playlist", () => {
      expect(events(widgetPlays({ ...box, id: 'w-menu', type: 'playlist', simpleLoopId: id(9) }, [], resolve))).toEqual([
        { eventId: id(100), startedAt: 1_000, endedAt: 6_000, completed: true, fileId: id(1), contentId: id(9), widgetKey: 'w-menu' },
        { eventId: id(101), startedAt: 1_000, endedAt: 6_000, completed: true, fileId: id(2), contentId: id(9), widgetKey: 'w-menu' },
      ]);
    });

    it("a channel widget's items carry the widget's key and their channel; a file widget its file and key only", () => {
      const ads: ChannelPlay = {
        campaignId: 7,
        name: 'Ads',
        weight: 1,
        saturation: 1,
        tags: ['ads'],
        items: [{ type: 'FILE', id: id(1), name: 'poster', durationMs: 5_000 }],
      };
      const other: ChannelPlay = { ...ads, campaignId: 8, tags: ['news'] };
      expect(events(widgetPlays({ ...box, id: 'w-ads', type: 'channel', tags: ['ads'] }, [ads, other], resolve))).toEqual([
        { eventId: id(100), startedAt: 1_000, endedAt: 6_000, completed: true, campaignId: 7, fileId: id(1), widgetKey: 'w-ads' },
      ]);
      const poster = fileWidgetPlay({ ...box, id: 'w-logo', type: 'image', fileId: id(1) }, resolve, 10_000);
      expect(playEvent(poster!, span, id(100))).toEqual({
        eventId: id(100),
        startedAt: 1_000,
        endedAt: 6_000,
        completed: true,
        fileId: id(1),
        widgetKey: 'w-logo',
      });
      expect(fileWidgetPlay({ ...box, id: 'w-gone', type: 'video', fileId: id(3) }, resolve, 10_000)).toBeUndefined();
    });

    describe('a datasource widget (one play a page show while it had its data, named by its key alone)', () => {
      /** The player's datasource store as the widgets see it: documents set by the test, subscribers told. */
      const feed = (documents: Record<string, unknown> = {}) => {
        const listeners = new Map<string, Set<() => void>>();

        return {
          read: (dsId: string) => documents[dsId],
          subscribe: (dsId: string, onChange: () => void) => {
            const set = listeners.get(dsId) ?? new Set();
            set.add(onChange);
            listeners.set(dsId, set);

            return () => void set.delete(onChange);
          },
          set: (dsId: string, data: unknown) => {
            documents[dsId] = data;
            listeners.get(dsId)?.forEach((listener) => listener());
          },
          listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
        };
      };
      const datasource = (widgetId: string, datasourceId?: string) => ({
        ...box,
        id: widgetId,
        type: 'datasource' as const,
        mode: 'text' as const,
        ...(datasourceId ? { datasourceId } : {}),
      });
      const page = (...widgets: Page['widgets'] & object): Page => ({
        name: 'Prices',
        pageData: { screenSize: { width: 1920, height: 1080 } },
        widgets,
      });
      /** The page revealed at 1 000 and cut at 6 000 (the page's end, `completed` as given): the events it reports. */
      const shown = (watched: ReturnType<typeof watchDatasourceWidgets>, completed = true) =>
        watched.shows.flatMap((show, i) => {
          const cut = show.cut(1_000, 6_000);

          return cut ? [playEvent(show.play, { ...cut, completed }, id(200 + i))] : [];
        });

      it('reports the widget that had its data, by its key alone, as long as the page was on screen', () => {
        const data = feed({ prices: { price: 4.5 } });
        const watched = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => 500);
        expect(shown(watched)).toEqual([{ eventId: id(200), startedAt: 1_000, endedAt: 6_000, completed: true, widgetKey: 'w-price' }]);
        // Cut short with its page: not completed, as the page.
        const again = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => 500);
        expect(shown(again, false)).toEqual([expect.objectContaining({ completed: false, widgetKey: 'w-price' })]);
      });

      it('reports nothing while its datasource has no document (the placeholder shows), from its arrival once it came', () => {
        const data = feed();
        let now = 500;
        const watched = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => now);
        expect(shown(watched)).toEqual([]);
        const later = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => now);
        now = 2_500;
        data.set('prices', { price: 4.5 });
        expect(shown(later)).toEqual([expect.objectContaining({ startedAt: 2_500, endedAt: 6_000, widgetKey: 'w-price' })]);
        // A widget without a datasource only ever shows its placeholder.
        expect(datasourcePlay(datasource('w-empty'))).toBeUndefined();
        expect(watchDatasourceWidgets(page(datasource('w-empty')).widgets!, data, () => now).shows).toEqual([]);
      });

      it('reports each datasource widget with data on its own, and no other widget', () => {
        const data = feed({ prices: { price: 4.5 }, news: { items: [{ title: 'Open late' }] } });
        const widgets = page(
          datasource('w-price', 'prices'),
          { ...box, id: 'w-title', type: 'text', text: 'Today' },
          datasource('w-news', 'news'),
          datasource('w-rooms', 'rooms'),
        ).widgets!;
        expect(shown(watchDatasourceWidgets(widgets, data, () => 0))).toEqual([
          { eventId: id(200), startedAt: 1_000, endedAt: 6_000, completed: true, widgetKey: 'w-price' },
          { eventId: id(201), startedAt: 1_000, endedAt: 6_000, completed: true, widgetKey: 'w-news' },
        ]);
      });

      it('reports a page that stays on screen loop by loop, nothing for a page never revealed, and stops listening', () => {
        const data = feed({ prices: 1 });
        const watched = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => 0);
        const [show] = watched.shows;
        expect(show!.cut(1_000, 6_000)).toEqual({ startedAt: 1_000, endedAt: 6_000 });
        expect(show!.cut(1_000, 11_000)).toEqual({ startedAt: 6_000, endedAt: 11_000 });
        const ahead = watchDatasourceWidgets(page(datasource('w-price', 'prices')).widgets!, data, () => 0);
        expect(ahead.shows[0]!.cut(undefined, 6_000)).toBeUndefined();
        expect(data.listening()).toBe(2);
        watched.stop();
        ahead.stop();
        expect(data.listening()).toBe(0);
      });
    });

    it('a whole item (full screen, not in a widget) carries no key', () => {
      const segment: Segment = {
        from: 0,
        to: 100,
        layer: 'CONTENT',
        content: { id: id(9), name: 'Loop', deviceContentType: 'simpleLoop' },
        channels: [],
      };
      expect(events(segmentPlays(segment, resolve)).map((e) => 'widgetKey' in e)).toEqual([false, false]);
    });
  });
});

describe('the stall watchdog', () => {
  it('calls a video stalled when its time has not moved for 15 s, and not while it moves or after it ended', () => {
    expect(STALL_MS).toBe(15_000);
    const watch = new StallWatch(0);
    expect(watch.stalled(0, false, 1_000)).toBe(false);
    expect(watch.stalled(0.5, false, 2_000)).toBe(false);
    expect(watch.stalled(0.5, false, 16_999)).toBe(false);
    expect(watch.stalled(0.5, false, 17_000)).toBe(true);
    // Moving again resets it; an ended video waits for its slot to end.
    expect(watch.stalled(0.6, false, 18_000)).toBe(false);
    expect(watch.stalled(4, true, 60_000)).toBe(false);
    expect(watch.stalled(4, true, 90_000)).toBe(false);
  });
});

describe('what a play event covers', () => {
  it('runs from the first frame when the file came after its slot began, to its end', () => {
    expect(shownSpan(10_000, 10_000, 13_000)).toEqual({ startedAt: 10_000, endedAt: 13_000 });
    expect(shownSpan(10_000, 11_500, 13_000)).toEqual({ startedAt: 11_500, endedAt: 13_000 });
    // Built ahead: a frame before the slot began counts from the slot.
    expect(shownSpan(10_000, 9_000, 13_000)).toEqual({ startedAt: 10_000, endedAt: 13_000 });
  });

  it('is nothing for an entry that never had a frame in its slot', () => {
    expect(shownSpan(10_000, undefined, 13_000)).toBeUndefined();
    expect(shownSpan(10_000, 13_000, 13_000)).toBeUndefined();
  });
});

describe('the screenshot', () => {
  it('draws a video frame where object-fit puts it', () => {
    // A 16:9 frame in a 4:3 box: letterboxed with contain, cropped with cover, stretched with fill.
    expect(fitRect('contain', 1600, 900, 800, 600)).toEqual([0, 75, 800, 450]);
    expect(fitRect('cover', 1600, 600, 800, 600)).toEqual([-400, 0, 1600, 600]);
    expect(fitRect('fill', 1600, 900, 800, 600)).toEqual([0, 0, 800, 600]);
    expect(fitRect('none', 400, 300, 800, 600)).toEqual([200, 150, 400, 300]);
    expect(fitRect('scale-down', 400, 300, 800, 600)).toEqual([200, 150, 400, 300]);
    // No frame size known yet: the whole box.
    expect(fitRect('contain', 0, 0, 800, 600)).toEqual([0, 0, 800, 600]);
  });

  it('puts a replaced element back at its place among the children the clone keeps', () => {
    const text = { nodeType: 3, nodeName: '#text' };
    const comment = { nodeType: 8, nodeName: '#comment' };
    const style = { nodeType: 1, nodeName: 'STYLE' };
    const label = { nodeType: 1, nodeName: 'DIV' };
    const video = { nodeType: 1, nodeName: 'VIDEO' };
    const frame = { nodeType: 1, nodeName: 'IFRAME' };
    const replaced = (n: unknown) => n === video || n === frame;
    const children = [comment, text, style, video, label, frame];
    expect(cloneIndex(children, video, replaced)).toBe(1);
    // The video before it is not in the clone either (it is replaced after the iframe, last first).
    expect(cloneIndex(children, frame, replaced)).toBe(2);
    expect(cloneIndex([video], video, replaced)).toBe(0);
  });

  it('labels a web page by its host', () => {
    expect(webPageLabel('https://example.com/news?id=1')).toBe('Web page: example.com');
    expect(webPageLabel('about:blank')).toBe('Web page');
    expect(webPageLabel('')).toBe('Web page');
  });
});
