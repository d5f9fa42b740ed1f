import type { Reported } from './plan';

/*
 * Proof of play on the way out (spec 4 §5): events wait in IndexedDB and leave in NDJSON batches, oldest
 * first, bounded by count and bytes; a batch is removed from the queue only after the server answered it.
 * Pure: the queue's storage is player/store.ts.
 */

export type PlayEvent = {
  eventId: string;
  startedAt: number;
  endedAt: number;
  completed: boolean;
  campaignId?: number;
  messageId?: number;
  contentId?: string;
  pageId?: string;
  widgetKey?: string;
  fileId?: string;
};

/**
 * The event of an entry shown from `startedAt` to `endedAt` (server clock): a slide names its content, a file
 * itself and the playlist it is part of; the channel and sub-channel it played in, and the slide widget that
 * showed it. A slide's datasource widget names the widget alone.
 */
export function playEvent(play: Reported, span: { startedAt: number; endedAt: number; completed: boolean }, eventId: string): PlayEvent {
  const shown = { eventId, startedAt: Math.round(span.startedAt), endedAt: Math.round(span.endedAt), completed: span.completed };
  if (play.kind === 'datasource') return { ...shown, widgetKey: play.widgetKey };

  return {
    ...shown,
    ...(play.campaignId !== undefined ? { campaignId: play.campaignId } : {}),
    ...(play.messageId !== undefined ? { messageId: play.messageId } : {}),
    ...(play.kind === 'slide'
      ? { contentId: play.contentId }
      : { fileId: play.file.id, ...(play.ownerContentId ? { contentId: play.ownerContentId } : {}) }),
    ...(play.widgetKey !== undefined ? { widgetKey: play.widgetKey } : {}),
  };
}

export type Queued = { key: number; event: PlayEvent };

/** Events per upload (the server takes up to 10 000) and bytes per upload. */
const BATCH_EVENTS = 500;
const BATCH_BYTES = 512 * 1024;

/** The next upload: the oldest events within the bounds (at least one), as NDJSON, and their queue keys. */
export function nextBatch(
  queued: readonly Queued[],
  limits: { events?: number; bytes?: number } = {},
): { keys: number[]; body: string } | undefined {
  const maxEvents = limits.events ?? BATCH_EVENTS;
  const maxBytes = limits.bytes ?? BATCH_BYTES;
  const sorted = [...queued].sort((a, b) => a.key - b.key);
  const keys: number[] = [];
  const lines: string[] = [];
  let bytes = 0;
  for (const { key, event } of sorted) {
    const line = JSON.stringify(event);
    if (keys.length > 0 && (keys.length >= maxEvents || bytes + line.length + 1 > maxBytes)) break;
    keys.push(key);
    lines.push(line);
    bytes += line.length + 1;
  }

  return keys.length === 0 ? undefined : { keys, body: `${lines.join('\n')}\n` };
}

/** A version 4 UUID from `getRandomValues` (which, unlike `randomUUID`, also works on plain http). */
export function uuid4(random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b)): string {
  const b = random(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');

  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
