import type { Executor } from '@/server/db/client';
import { withTransaction } from '@/server/db/transaction';
import type { PlayDimension, PlayRow } from './proof-of-play.table';
import { PlayEventSchema, type PlayEvent, type PlayEventsResult } from './proof-of-play.schemas';
import { insertPlays, lockPlayingDevice, type PlayedItem, type PlayingDeviceRow, type PlaySubjectName } from './proof-of-play.queries';

/** Spec 4 §5: the limits of a play event. */
const PLAY_MAX_DURATION_MS = 24 * 3_600_000;
const PLAY_MAX_FUTURE_MS = 5 * 60_000;
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
  // Ids in lower case, as PostgreSQL writes uuids: an id is the same id in either case (duplicates, tenants, names).
  const event = parsed.data;
  event.eventId = event.eventId.toLowerCase();
  if (event.contentId !== undefined) event.contentId = event.contentId.toLowerCase();
  if (event.fileId !== undefined) event.fileId = event.fileId.toLowerCase();
  const reject = (key: string, message: string) => ({ rejection: { index, key, message } });
  if (event.endedAt < event.startedAt) return reject('proofOfPlay.error.endsBeforeStart', 'endedAt is before startedAt');
  if (event.endedAt - event.startedAt > PLAY_MAX_DURATION_MS)
    return reject('proofOfPlay.error.tooLong', 'The play lasts more than 24 hours');
  if (event.startedAt > now + PLAY_MAX_FUTURE_MS)
    return reject('proofOfPlay.error.inFuture', 'startedAt is more than 5 minutes in the future');
  if (event.startedAt < now - PLAY_MAX_AGE_MS) return reject('proofOfPlay.error.tooOld', 'startedAt is more than a year in the past');

  return { event };
}

/**
 * POST /api/display/proofOfPlay (spec 4 §5): each event checked on its own; an id that is not an item of the
 * device's tenant at ingest time (another tenant's, deleted, or never one) refuses the event, so no play is ever
 * counted under an id that names nothing of the tenant. In one transaction, under a lock on the device: the new
 * events stored, their day rollups added, and the names of what they name recorded.
 * A repeated event id (of this device, earlier or in this call) counts once, as a duplicate.
 */
export async function ingestPlayEvents(
  db: Executor,
  device: PlayingDevice,
  body: readonly unknown[],
  now = Date.now(),
): Promise<PlayEventsResult> {
  const rejected: Rejection[] = [];
  const valid: { index: number; event: PlayEvent }[] = [];
  body.forEach((raw, index) => {
    const checked = checkEvent(raw, index, now);
    if ('rejection' in checked) rejected.push(checked.rejection);
    else valid.push({ index, event: checked.event });
  });
  const named = {
    campaignIds: new Set<number>(),
    messageIds: new Set<number>(),
    contentIds: new Set<string>(),
    fileIds: new Set<string>(),
  };
  for (const { event } of valid) {
    if (event.campaignId !== undefined) named.campaignIds.add(event.campaignId);
    if (event.messageId !== undefined) named.messageIds.add(event.messageId);
    if (event.contentId !== undefined) named.contentIds.add(event.contentId);
    if (event.fileId !== undefined) named.fileIds.add(event.fileId);
  }

  return withTransaction(db, async (tx) => {
    const { device: playing, items } = await lockPlayingDevice(tx, device.customerId, device.deviceId, {
      campaignIds: [...named.campaignIds],
      messageIds: [...named.messageIds],
      contentIds: [...named.contentIds],
      fileIds: [...named.fileIds],
    });
    // Per kind, the ids that are the tenant's items (an id missing here is another tenant's or names nothing),
    // and the advertisers of the tenant's campaigns.
    const known = {
      campaignIds: new Set<number>(),
      messageIds: new Set<number>(),
      contentIds: new Set<string>(),
      fileIds: new Set<string>(),
    };
    const campaignAdvertisers = new Map<number, string>();
    for (const item of items) {
      if (item.dimension === 'CAMPAIGN') {
        known.campaignIds.add(Number(item.id));
        if (item.advertiserId !== null) campaignAdvertisers.set(Number(item.id), item.advertiserId);
      } else if (item.dimension === 'MESSAGE') known.messageIds.add(Number(item.id));
      else if (item.dimension === 'CONTENT') known.contentIds.add(item.id);
      else known.fileIds.add(item.id);
    }
    const unknown = <T>(ids: Set<T>, id: T | undefined) => id !== undefined && !ids.has(id);
    // The first event of each id in the call is the one stored; the others count as duplicates.
    const firsts = new Map<string, PlayEvent>();
    let duplicates = 0;
    for (const { index, event } of valid) {
      const field = unknown(known.campaignIds, event.campaignId)
        ? 'campaignId'
        : unknown(known.messageIds, event.messageId)
          ? 'messageId'
          : unknown(known.contentIds, event.contentId)
            ? 'contentId'
            : unknown(known.fileIds, event.fileId)
              ? 'fileId'
              : null;
      if (field)
        rejected.push({ index, key: 'proofOfPlay.error.foreignId', message: `${field} does not name an item of this device's customer` });
      else if (firsts.has(event.eventId)) duplicates += 1;
      else firsts.set(event.eventId, event);
    }
    const plays: PlayRow[] = [];
    for (const [eventId, event] of firsts) {
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
        widgetKey: event.widgetKey ?? null,
        fileId: event.fileId ?? null,
        advertiserId: event.campaignId === undefined ? null : (campaignAdvertisers.get(event.campaignId) ?? null),
        clicks: event.clicks ?? 0,
        viewers: event.viewers ?? 0,
        attentionMs: event.attentionMs ?? 0,
      });
    }
    // Under the device's lock: a concurrent call of this device has stored its events, or waits for these.
    const { stored, reported } = await insertPlays(
      tx,
      device.customerId,
      device.deviceId,
      plays,
      subjectNames(device, playing, items, plays),
    );
    rejected.sort((a, b) => a.index - b.index);

    return { accepted: stored, duplicates: duplicates + reported, rejected };
  });
}

/** The names to keep: the device and its folder, and the items and advertisers the stored plays name (all the tenant's). */
function subjectNames(
  device: PlayingDevice,
  playing: PlayingDeviceRow | undefined,
  items: readonly PlayedItem[],
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
  const played: Partial<Record<PlayDimension, Set<string | number | null>>> = {
    CAMPAIGN: new Set(plays.map((p) => p.campaignId)),
    MESSAGE: new Set(plays.map((p) => p.messageId)),
    CONTENT: new Set(plays.map((p) => p.contentId)),
    MEDIA_FILE: new Set(plays.map((p) => p.fileId)),
  };
  for (const item of items) {
    const id = item.dimension === 'CAMPAIGN' || item.dimension === 'MESSAGE' ? Number(item.id) : item.id;
    if (!played[item.dimension]?.has(id)) continue;
    add(item.dimension, item.id, item.name);
    if (item.dimension === 'CAMPAIGN') add('ADVERTISER', item.advertiserId, item.advertiserName);
  }

  return [...named.values()];
}
