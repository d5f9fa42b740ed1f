import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Manifest } from '@/server/modules/display/display.schemas';
import { manifestResolver } from './plan';
import {
  commandDuration,
  dispatchSensorEvent,
  PREVIEW,
  previewPlays,
  SENSOR_EVENT,
  TimedOverlay,
  TOAST,
  toastText,
  WEB_PAGE,
  webPage,
} from './screen-commands';

/* The commands of the webhook device actions as the web player carries them out (spec 4 §3; player/main.ts). */

describe('how long an overlay shows', () => {
  it('takes durationMs (or duration), else the default, within the bounds', () => {
    expect(commandDuration({ durationMs: 8_000 }, TOAST.fallbackMs, TOAST)).toBe(8_000);
    expect(commandDuration({ duration: 9_000 }, TOAST.fallbackMs, TOAST)).toBe(9_000);
    expect(commandDuration({}, TOAST.fallbackMs, TOAST)).toBe(5_000);
    expect(commandDuration({ durationMs: 'soon' }, WEB_PAGE.fallbackMs, WEB_PAGE)).toBe(60_000);
    expect(commandDuration({ durationMs: -5 }, PREVIEW.fallbackMs, PREVIEW)).toBe(60_000);
    expect(commandDuration({ durationMs: 10 }, TOAST.fallbackMs, TOAST)).toBe(1_000);
    expect(commandDuration({ durationMs: 3_600_000 }, TOAST.fallbackMs, TOAST)).toBe(600_000);
    expect(commandDuration({ durationMs: 1_000 }, WEB_PAGE.fallbackMs, WEB_PAGE)).toBe(5_000);
  });
});

describe('a timed overlay (toast, web page, preview)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows for its time, then hides', () => {
    const drawn: (string | undefined)[] = [];
    const toast = new TimedOverlay<string>((text) => drawn.push(text));
    toast.show('Fire drill', 5_000);
    expect(toast.value).toBe('Fire drill');
    vi.advanceTimersByTime(4_999);
    expect(drawn).toEqual(['Fire drill']);
    vi.advanceTimersByTime(1);
    expect(drawn).toEqual(['Fire drill', undefined]);
    expect(toast.value).toBeUndefined();
  });

  it('a newer one replaces it with its own time: the earlier timer does not hide the newer one', () => {
    const drawn: (string | undefined)[] = [];
    const toast = new TimedOverlay<string>((text) => drawn.push(text));
    toast.show('first', 5_000);
    vi.advanceTimersByTime(4_000);
    toast.show('second', 5_000);
    vi.advanceTimersByTime(2_000); // past the first one's end
    expect(toast.value).toBe('second');
    expect(drawn).toEqual(['first', 'second']);
    vi.advanceTimersByTime(3_000);
    expect(drawn).toEqual(['first', 'second', undefined]);
  });

  it('hides at once when asked, and only once', () => {
    const drawn: (string | undefined)[] = [];
    const page = new TimedOverlay<string>((url) => drawn.push(url));
    page.show('https://example.com/', 60_000);
    page.hide();
    page.hide();
    vi.advanceTimersByTime(60_000);
    expect(drawn).toEqual(['https://example.com/', undefined]);
  });
});

describe('showToast', () => {
  it('shows the message (or text) as given, trimmed; none is no toast', () => {
    expect(toastText({ message: '  Meeting in room 2  ' })).toBe('Meeting in room 2');
    expect(toastText({ text: 'hi' })).toBe('hi');
    expect(toastText({ message: '<b>not markup</b>' })).toBe('<b>not markup</b>');
    expect(toastText({})).toBe('');
    expect(toastText({ message: 42 })).toBe('');
  });
});

describe('loadUrl', () => {
  const origin = 'https://signage.example.com';

  it('frames http and https pages, with their own origin when it is not the player’s', () => {
    expect(webPage({ url: 'https://example.com/menu' }, origin)).toEqual({
      url: 'https://example.com/menu',
      sandbox: 'allow-scripts allow-same-origin allow-forms',
    });
    expect(webPage({ url: 'http://intranet.local:8080/x' }, origin)).toMatchObject({ url: 'http://intranet.local:8080/x' });
  });

  it("keeps a page of the player's own origin away from the player's storage (no allow-same-origin)", () => {
    expect(webPage({ url: `${origin}/api/storage/some-file` }, origin)).toEqual({
      url: `${origin}/api/storage/some-file`,
      sandbox: 'allow-scripts allow-forms',
    });
  });

  it('refuses anything else', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<p>x</p>', 'file:///etc/passwd', 'example.com', '', undefined]) {
      expect(webPage({ url }, origin), String(url)).toEqual({ error: 'loadUrl needs an http or https address' });
    }
  });
});

describe('sensorEvent', () => {
  it('dispatches signage:sensor with the sensor data as its detail, and acknowledges', () => {
    const page = new EventTarget();
    const heard: unknown[] = [];
    page.addEventListener(SENSOR_EVENT, (event) => heard.push((event as CustomEvent).detail));
    expect(dispatchSensorEvent(page, { sensorData: { door: 'open', temperature: 21.5 } })).toEqual({
      ok: true,
      result: { event: 'signage:sensor' },
    });
    expect(dispatchSensorEvent(page, {})).toMatchObject({ ok: true });
    expect(heard).toEqual([{ door: 'open', temperature: 21.5 }, null]);
  });
});

describe('previewContent', () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const manifest: Pick<Manifest, 'files' | 'contents' | 'folders'> = {
    files: { [id(1)]: { id: id(1), name: 'poster.png', contentType: 'image/png', size: 10, crcCheckSum: 'a', url: '/f1' } },
    contents: {
      [id(9)]: {
        id: id(9),
        name: 'Menu',
        deviceContentType: 'simpleLoop',
        data: {
          loopData: {
            resolution: { width: 1920, height: 1080 },
            defaultImageFit: 'contain',
            defaultVideoFit: 'cover',
            defaultDurationMs: 7_000,
          },
          slides: [{ key: 'a', type: 'FILE', id: id(1) }],
        },
      },
      [id(8)]: {
        id: id(8),
        name: 'Empty',
        deviceContentType: 'simpleLoop',
        data: {
          loopData: {
            resolution: { width: 1920, height: 1080 },
            defaultImageFit: 'contain',
            defaultVideoFit: 'cover',
            defaultDurationMs: 7_000,
          },
          slides: [],
        },
      },
    },
    folders: {},
  };
  const resolve = manifestResolver(manifest, 0);

  it('plays content the manifest holds, as its own loop', () => {
    const found = previewPlays(manifest, { contentId: id(9) }, resolve);
    expect(found).toMatchObject({ contentId: id(9) });
    expect('plays' in found && found.plays.map((p) => [p.key, p.kind, p.durationMs, p.ownerContentId])).toEqual([
      [`preview/${id(9)}/a`, 'image', 7_000, id(9)],
    ]);
  });

  it('answers why not for content the manifest does not hold, content with nothing to play, or no id', () => {
    expect(previewPlays(manifest, { contentId: id(7) }, resolve)).toEqual({
      error: `content ${id(7)} is not in this screen's manifest: a screen previews only content its schedule, channels or playlists use`,
    });
    expect(previewPlays(undefined, { contentId: id(9) }, resolve)).toHaveProperty('error');
    expect(previewPlays(manifest, { contentId: id(8) }, resolve)).toEqual({ error: `content ${id(8)} has nothing to play` });
    expect(previewPlays(manifest, {}, resolve)).toEqual({ error: 'previewContent needs a contentId' });
  });
});
