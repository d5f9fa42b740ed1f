import type { PlayDimension, PlayRow } from './proof-of-play.table';

/*
 * The day rollups of a batch of plays (proof-of-play.table.ts): per report dimension, subject and UTC day, the
 * six counters of its plays in total and as running sums over the day's 96 quarter-hour slots. Computed here
 * from the plays the ingest is about to store, and added to the stored rows by its statement: building the
 * running sums in SQL (a window, a series per slot, ordered aggregates) cost more than the whole insert.
 */

/** The counters of a rollup, in the order of their columns. */
export const ROLLUP_COUNTERS = ['starts', 'ends', 'durationMs', 'clicks', 'viewers', 'attentionMs'] as const;
export type RollupCounter = (typeof ROLLUP_COUNTERS)[number];

const SLOTS = 96;
const QUARTER_MS = 900_000;
const DAY_MS = 86_400_000;

/** What a play adds to the rollups of the subjects it names: a stored play without its ids, end and widget (WIDGET is counted from the raw plays). */
export type RolledPlay = Omit<PlayRow, 'eventId' | 'endedAt' | 'widgetKey'>;

/**
 * One subject's plays of one UTC day: the day's totals, and per counter the running sums (97 elements from a
 * leading 0: element k + 1 is the total of slots 0..k) or `null` when the counter stays 0 (stored as an empty array).
 */
export type DayRollup = {
  dimension: PlayDimension;
  subjectId: string;
  /** yyyy-MM-dd, UTC. */
  day: string;
  totals: Record<RollupCounter, number>;
  runningSums: Record<RollupCounter, number[] | null>;
};

type DayCounts = { dimension: PlayDimension; subjectId: string; day: number; slots: Float64Array };

/** The rollups of `plays` (all of one device), one per dimension, subject and UTC day they name. */
export function rollupPlays(deviceId: string, plays: readonly RolledPlay[]): DayRollup[] {
  // Per dimension, subject and day, the counters' values per slot (six counters of 96 slots in one array);
  // nested maps, so that a play costs no key string. Subject ids as PostgreSQL writes them (uuids in lower
  // case), so they match the rows of earlier ingests.
  const days: DayCounts[] = [];
  const byDimension = new Map<PlayDimension, Map<string | number, Map<number, DayCounts>>>();
  const values = new Float64Array(ROLLUP_COUNTERS.length);
  const add = (dimension: PlayDimension, subject: string | number, day: number, slot: number) => {
    let subjects = byDimension.get(dimension);
    if (subjects === undefined) byDimension.set(dimension, (subjects = new Map()));
    let byDay = subjects.get(subject);
    if (byDay === undefined) subjects.set(subject, (byDay = new Map()));
    let counts = byDay.get(day);
    if (counts === undefined) {
      counts = { dimension, subjectId: String(subject), day, slots: new Float64Array(ROLLUP_COUNTERS.length * SLOTS) };
      byDay.set(day, counts);
      days.push(counts);
    }
    for (let c = 0; c < values.length; c++) counts.slots[c * SLOTS + slot]! += values[c]!;
  };
  const device = deviceId.toLowerCase();
  for (const play of plays) {
    const quarter = Math.floor(play.startedAt / QUARTER_MS);
    const day = Math.floor(quarter / SLOTS);
    const slot = quarter - day * SLOTS;
    values[0] = 1;
    values[1] = play.completed ? 1 : 0;
    values[2] = play.durationMs;
    values[3] = play.clicks;
    values[4] = play.viewers;
    values[5] = play.attentionMs;
    add('DEVICE', device, day, slot);
    if (play.deviceGroupId !== null) add('DEVICE_GROUP', play.deviceGroupId.toLowerCase(), day, slot);
    if (play.campaignId !== null) add('CAMPAIGN', play.campaignId, day, slot);
    if (play.messageId !== null) add('MESSAGE', play.messageId, day, slot);
    if (play.contentId !== null) {
      add('CONTENT', play.contentId.toLowerCase(), day, slot);
      if (play.pageId !== null) add('CONTENT_PAGE', `${play.contentId.toLowerCase()}/${play.pageId}`, day, slot);
    }
    if (play.fileId !== null) add('MEDIA_FILE', play.fileId.toLowerCase(), day, slot);
    if (play.advertiserId !== null) add('ADVERTISER', play.advertiserId.toLowerCase(), day, slot);
  }

  return days.map(({ dimension, subjectId, day, slots }) => {
    const totals = {} as Record<RollupCounter, number>;
    const runningSums = {} as Record<RollupCounter, number[] | null>;
    ROLLUP_COUNTERS.forEach((counter, c) => {
      const sums = new Array<number>(SLOTS + 1);
      sums[0] = 0;
      for (let s = 0; s < SLOTS; s++) sums[s + 1] = sums[s]! + slots[c * SLOTS + s]!;
      totals[counter] = sums[SLOTS]!;
      runningSums[counter] = sums[SLOTS] === 0 ? null : sums;
    });

    return { dimension, subjectId, day: new Date(day * DAY_MS).toISOString().slice(0, 10), totals, runningSums };
  });
}
