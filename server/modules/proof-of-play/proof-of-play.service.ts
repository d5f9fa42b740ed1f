import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import type { PlayDimension } from './proof-of-play.table';
import { PlayEventSchema, type PlayEvent, type PlayEventsResult } from './proof-of-play.schemas';
import { findPlayedItems, findReportedEventIds, insertPlays, lockPlayingDevice, type PlayRow, type PlaySubjectName } from './proof-of-play.queries';

/** Spec 4 §5: the limits of a play event. */
export const PLAY_MAX_DURATION_MS = 24 * 3_600_000;
export const PLAY_MAX_FUTURE_MS = 5 * 60_000;
export const PLAY_MAX_AGE_MS = 365 * 86_400_000;

/** An NDJSON line that is not JSON: refused on its own, at its index. */
export const NOT_JSON: unique symbol = Symbol('not JSON');

type Rejection = PlayEventsResult['rejected'][number];
type PlayingDevice = { deviceId: string; customerId: number };

/** The first problem of one event on its own (schema, then the time rules of spec 4 §5), or the event. */
function checkEvent(raw: unknown, index: number, now: number): { event: PlayEvent } | { rejection: Rejection } {
  if (raw === NOT_JSON) return { rejection: { index, key: 'proofOfPlay.error.invalidJson', message: 'The line is not JSON' } };
  const parsed = PlayEventSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'event';

    return { rejection: { index, key: 'proofOfPlay.error.invalidEvent', message: `${where}: ${issue?.message ?? 'invalid'}` } };
  }
  const event = parsed.data;
  const reject = (key: string, message: string) => ({ rejection: { index, key, message } });
  if (event.endedAt < event.startedAt) return reject('proofOfPlay.error.endsBeforeStart', 'endedAt is before startedAt');
  if (event.endedAt - event.startedAt > PLAY_MAX_DURATION_MS) return reject('proofOfPlay.error.tooLong', 'The play lasts more than 24 hours');
  if (event.startedAt > now + PLAY_MAX_FUTURE_MS) return reject('proofOfPlay.error.inFuture', 'startedAt is more than 5 minutes in the future');
  if (event.startedAt < now - PLAY_MAX_AGE_MS) return reject('proofOfPlay.error.tooOld', 'startedAt is more than a year in the past');

  return { event };
}

/**
 * POST /api/display/proofOfPlay (spec 4 §5): each event checked on its own; ids of another tenant refuse the
 * event; ids that exist nowhere (deleted since it played) are kept. In one transaction, under a lock on the
 * device: the new events stored, their day rollups updated, and the names of what they name recorded.
 * A repeated event id (of this device, earlier or in this call) counts once, as a duplicate.
 */
export async function ingestPlayEvents(db: Executor, device: PlayingDevice, body: readonly unknown[], now = Date.now()): Promise<PlayEventsResult> {
  const rejected: Rejection[] = [];
  const valid: { index: number; event: PlayEvent }[] = [];
  body.forEach((raw, index) => {
    const checked = checkEvent(raw, index, now);
    if ('rejection' in checked) rejected.push(checked.rejection);
    else valid.push({ index, event: checked.event });
  });

  return withTransaction(db, async (tx) => {
    const items = await findPlayedItems(tx, {
      campaignIds: [...new Set(valid.flatMap(({ event }) => (event.campaignId === undefined ? [] : [event.campaignId])))],
      messageIds: [...new Set(valid.flatMap(({ event }) => (event.messageId === undefined ? [] : [event.messageId])))],
      contentIds: [...new Set(valid.flatMap(({ event }) => (event.contentId === undefined ? [] : [event.contentId])))],
      fileIds: [...new Set(valid.flatMap(({ event }) => (event.fileId === undefined ? [] : [event.fileId])))],
    });
    const known = new Map(items.map((item) => [`${item.dimension}:${item.id}`, item]));
    const foreign = (dimension: PlayDimension, id: string | number | undefined) => {
      const item = id === undefined ? undefined : known.get(`${dimension}:${id}`);

      return item !== undefined && Number(item.customerId) !== device.customerId;
    };
    const playing = await lockPlayingDevice(tx, device.deviceId);
    const candidates: PlayEvent[] = [];
    for (const { index, event } of valid) {
      const field = foreign('CAMPAIGN', event.campaignId)
        ? 'campaignId'
        : foreign('MESSAGE', event.messageId)
          ? 'messageId'
          : foreign('CONTENT', event.contentId)
            ? 'contentId'
            : foreign('MEDIA_FILE', event.fileId)
              ? 'fileId'
              : null;
      if (field) rejected.push({ index, key: 'proofOfPlay.error.foreignId', message: `${field} does not name an item of this device's customer` });
      else candidates.push(event);
    }
    // The first event of each id in the call is the one stored; the others count as duplicates.
    const firsts = new Map<string, PlayEvent>();
    for (const event of candidates) if (!firsts.has(event.eventId.toLowerCase())) firsts.set(event.eventId.toLowerCase(), event);
    // Under the device's lock: a concurrent call of this device has stored its events, or waits for these.
    const reported = await findReportedEventIds(tx, device.deviceId, [...firsts.keys()]);
    const duplicates = candidates.length - firsts.size + reported.size;
    const plays: PlayRow[] = [];
    for (const [eventId, event] of firsts) {
      if (reported.has(eventId)) continue;
      const campaign = event.campaignId === undefined ? undefined : known.get(`CAMPAIGN:${event.campaignId}`);
      plays.push({
        eventId,
        startedAt: event.startedAt,
        endedAt: event.endedAt,
        durationMs: event.endedAt - event.startedAt,
        completed: event.completed,
        deviceGroupId: playing?.deviceGroupId ?? null,
        campaignId: event.campaignId ?? null,
        messageId: event.messageId ?? null,
        contentId: event.contentId ?? null,
        pageId: event.pageId ?? null,
        fileId: event.fileId ?? null,
        advertiserId: campaign?.advertiserId ?? null,
        clicks: event.clicks ?? 0,
        viewers: event.viewers ?? 0,
        attentionMs: event.attentionMs ?? 0,
      });
    }
    const accepted = await insertPlays(tx, device.customerId, device.deviceId, plays, subjectNames(device, playing, items, plays));
    rejected.sort((a, b) => a.index - b.index);

    return { accepted, duplicates, rejected };
  });
}

/** The names to keep: the device and its folder, and the tenant's items and advertisers the plays name. */
function subjectNames(
  device: PlayingDevice,
  playing: { name: string; deviceGroupId: string | null; folderName: string | null } | undefined,
  items: readonly { dimension: PlayDimension; id: string; customerId: number; name: string; advertiserId: string | null; advertiserName: string | null }[],
  plays: readonly PlayRow[],
): PlaySubjectName[] {
  if (plays.length === 0) return [];
  const named = new Map<string, PlaySubjectName>();
  const add = (dimension: PlayDimension, id: string | null, name: string | null) => {
    if (id !== null && name !== null) named.set(`${dimension}:${id}`, { dimension, id, name });
  };
  if (playing) {
    add('DEVICE', device.deviceId, playing.name);
    add('DEVICE_GROUP', playing.deviceGroupId, playing.folderName);
  }
  const played = new Set(plays.flatMap((p) => [`CAMPAIGN:${p.campaignId}`, `MESSAGE:${p.messageId}`, `CONTENT:${p.contentId}`, `MEDIA_FILE:${p.fileId}`]));
  for (const item of items) {
    if (Number(item.customerId) !== device.customerId || !played.has(`${item.dimension}:${item.id}`)) continue;
    add(item.dimension, item.id, item.name);
    if (item.dimension === 'CAMPAIGN') add('ADVERTISER', item.advertiserId, item.advertiserName);
  }

  return [...named.values()];
}
