import type { Manifest } from '@/server/modules/display/display.schemas';
import type { Resolver } from '@/lib/player/timeline';
import type { Ack } from './connection';
import { contentPlays, type Play } from './plan';

/*
 * The commands of the webhook device actions that show something over the content or hand it to the content
 * (spec 4 §3 `showToast`, `loadUrl`, `sensorEvent`, and our `previewContent`): what each reads of its parameters
 * and how long it shows. Pure, with the timers and the drawing handed in; player/main.ts wires them to the page.
 */

/** How long an overlay shows: the command's `durationMs` (or `duration`), else `fallbackMs`, kept within bounds. */
export function commandDuration(params: Record<string, unknown>, fallbackMs: number, bounds: { minMs: number; maxMs: number }): number {
  const asked = Number(params.durationMs ?? params.duration);
  const ms = Number.isFinite(asked) && asked > 0 ? asked : fallbackMs;

  return Math.min(Math.max(bounds.minMs, ms), bounds.maxMs);
}

export const TOAST = { fallbackMs: 5_000, minMs: 1_000, maxMs: 600_000 } as const;
export const WEB_PAGE = { fallbackMs: 60_000, minMs: 5_000, maxMs: 86_400_000 } as const;
export const PREVIEW = { fallbackMs: 60_000, minMs: 1_000, maxMs: 86_400_000 } as const;

/**
 * One thing shown for a while (a toast, a web page, a preview): showing another replaces it and its time starts
 * again (the earlier one's timer cannot hide the newer one); `render(undefined)` when its time is up.
 */
export class TimedOverlay<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: T | undefined;

  constructor(private readonly render: (value: T | undefined) => void) {}

  get value(): T | undefined {
    return this.current;
  }

  show(value: T, ms: number): void {
    clearTimeout(this.timer);
    this.current = value;
    this.render(value);
    this.timer = setTimeout(() => this.hide(), ms);
  }

  hide(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.current === undefined) return;
    this.current = undefined;
    this.render(undefined);
  }
}

/** The text of a toast: `message` (or `text`), as text; none is no toast. */
export function toastText(params: Record<string, unknown>): string {
  const text = params.message ?? params.text;

  return typeof text === 'string' ? text.trim() : '';
}

/**
 * The page `loadUrl` shows, and the sandbox of its frame: scripts and forms, and its own origin's storage only when
 * that origin is not the player's (a page of the player's origin with both would reach the player's credentials).
 */
export function webPage(params: Record<string, unknown>, playerOrigin: string): { url: string; sandbox: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(String(params.url ?? ''));
  } catch {
    return { error: 'loadUrl needs an http or https address' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'loadUrl needs an http or https address' };
  const sameOrigin = url.origin === playerOrigin;

  return { url: url.href, sandbox: sameOrigin ? 'allow-scripts allow-forms' : 'allow-scripts allow-same-origin allow-forms' };
}

/** The DOM event a sensor event becomes: content and anything else on the page listen with `addEventListener('signage:sensor', …)`. */
export const SENSOR_EVENT = 'signage:sensor';

/** Hands the sensor data to the page as a `signage:sensor` CustomEvent (its `detail`, null when none came). */
export function dispatchSensorEvent(target: EventTarget, params: Record<string, unknown>): Ack {
  target.dispatchEvent(new CustomEvent(SENSOR_EVENT, { detail: params.sensorData ?? null }));

  return { ok: true, result: { event: SENSOR_EVENT } };
}

/**
 * What `previewContent` plays: the content's loop, when the manifest holds it (its schedule, channels or
 * playlists use it, so its document and files are here); otherwise a reason. A screen cannot fetch content its
 * manifest does not name (the device API serves manifests, not single contents).
 */
export function previewPlays(
  manifest: Pick<Manifest, 'contents'> | undefined,
  params: Record<string, unknown>,
  resolve: Resolver,
): { contentId: string; plays: Play[] } | { error: string } {
  const contentId = typeof params.contentId === 'string' ? params.contentId : '';
  if (!contentId) return { error: 'previewContent needs a contentId' };
  if (!manifest?.contents[contentId])
    return {
      error: `content ${contentId} is not in this screen's manifest: a screen previews only content its schedule, channels or playlists use`,
    };
  const plays = contentPlays(contentId, resolve, `preview/${contentId}`);
  if (plays.length === 0) return { error: `content ${contentId} has nothing to play` };

  return { contentId, plays };
}
