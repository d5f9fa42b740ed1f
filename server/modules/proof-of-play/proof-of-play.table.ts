import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '@/server/tenant/customers.table';

/*
 * Proof of play (spec 4 §5). The raw events live in `play_event`, a table partitioned by month of
 * `started_at` that drizzle-kit cannot express (server/db/custom-sql/proof_of_play_events.sql). What the
 * reports read is here, per tenant, report dimension (device, content, channel, …), subject and UTC day, both
 * filled by the ingest's statement:
 *
 * - `play_rollup_day_total`: the day's six counters (plays started, plays completed, play time, clicks, viewers,
 *   attention) as plain columns. A report period that covers whole UTC days (TOTAL's inner days, DAILY and
 *   longer in UTC or whole-hour zones whose midnight is 00:00 UTC) reads only these narrow rows.
 * - `play_rollup_day`: the same counters over the day's 96 quarter-hour slots, each stored as running sums:
 *   97 elements, element k + 1 the total of slots 0..k, so the total of any run of slots is one subtraction.
 *   A counter that is 0 all day is stored as an empty array (clicks, viewers and attention mostly are), which
 *   keeps the row under the toast threshold: stored plain, an element is read without decompressing anything.
 *   Every time zone's offset is a whole number of quarter hours, so the part of a period in a day is a run of
 *   its slots: reports read these rows only for the days a period covers in part.
 * - Both are written by the ingest as new rows, one a subject and day per ingest (`batch`: the ingest's transaction
 *   id), never by updating a stored row: an ingest neither waits for the lock of a row other screens' ingests add to
 *   (a folder's, a file's day) nor rewrites a day's arrays. Every reader sums the rows of a key, so any number of
 *   them counts the same; the compaction job (proof-of-play.jobs.ts) merges them into the key's row of batch 0
 *   every minute.
 * - `play_subject`: the name of everything a play names, the item's current one while it exists (a rename
 *   updates it, by trigger: server/db/custom-sql/play_subject_renames.sql) and its last one once deleted, so
 *   plays of deleted files, content, channels and screens stay reportable under that name. Nothing here
 *   references the played items: deletes never cascade into proof of play (the tenant's own deletion does).
 */

/** The report dimensions a play is counted under (spec 3 "Reporting" `groupBy`). */
export const playDimensions = [
  'DEVICE',
  'DEVICE_GROUP',
  'CAMPAIGN',
  'MESSAGE',
  'CONTENT',
  'CONTENT_PAGE',
  'MEDIA_FILE',
  'ADVERTISER',
] as const;
export type PlayDimension = (typeof playDimensions)[number];

/** The key both rollups share: tenant, dimension, subject and UTC day (a fresh set of column builders a table). */
const rollupKey = () => ({
  customerId: bigint('customer_id', { mode: 'number' })
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' }),
  dimension: text('dimension', { enum: playDimensions }).notNull(),
  /** The subject's id as text (uuid or integer); CONTENT_PAGE: `<contentId>/<pageId>`. */
  subjectId: text('subject_id').notNull(),
  /** The UTC day the plays started in. */
  day: date('day', { mode: 'string' }).notNull(),
  /** 0: the merged counts of the key; else the transaction id of the ingest that added these (merged into 0 later). */
  batch: bigint('batch', { mode: 'number' }).notNull().default(0),
});

/** A play as `play_event` stores it (custom SQL, above): the event with what the ingest adds (the device's folder, the channel's advertiser). */
export type PlayRow = {
  eventId: string;
  startedAt: number;
  endedAt: number;
  durationMs: number;
  completed: boolean;
  deviceGroupId: string | null;
  campaignId: number | null;
  messageId: number | null;
  contentId: string | null;
  pageId: string | null;
  widgetKey: string | null;
  fileId: string | null;
  advertiserId: string | null;
  clicks: number;
  viewers: number;
  attentionMs: number;
};

export const playRollupDays = pgTable(
  'play_rollup_day',
  {
    ...rollupKey(),
    // Slot i covers [day + 15 min × i, day + 15 min × (i + 1)); each array is the running sums over the slots, from a leading 0, or empty when the counter is 0 all day.
    starts: integer('starts').array().notNull(),
    ends: integer('ends').array().notNull(),
    durationMs: bigint('duration_ms', { mode: 'number' }).array().notNull(),
    clicks: integer('clicks').array().notNull(),
    viewers: integer('viewers').array().notNull(),
    attentionMs: bigint('attention_ms', { mode: 'number' }).array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.dimension, t.subjectId, t.day, t.batch] }),
    // Reports of all subjects of one dimension: the days a period covers in part.
    index('play_rollup_day_dimension_day_idx').on(t.customerId, t.dimension, t.day),
    // The compaction's queue: the ingests' rows not merged yet, oldest first.
    index('play_rollup_day_batch_idx')
      .on(t.batch)
      .where(sql`batch <> 0`),
  ],
);

export const playRollupDayTotals = pgTable(
  'play_rollup_day_total',
  {
    ...rollupKey(),
    starts: integer('starts').notNull(),
    ends: integer('ends').notNull(),
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull(),
    clicks: integer('clicks').notNull(),
    viewers: integer('viewers').notNull(),
    attentionMs: bigint('attention_ms', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.dimension, t.subjectId, t.day, t.batch] }),
    // Reports of all subjects of one dimension: the days a period covers whole.
    index('play_rollup_day_total_dimension_day_idx').on(t.customerId, t.dimension, t.day),
    index('play_rollup_day_total_batch_idx')
      .on(t.batch)
      .where(sql`batch <> 0`),
  ],
);

export const playSubjects = pgTable(
  'play_subject',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    dimension: text('dimension', { enum: playDimensions }).notNull(),
    subjectId: text('subject_id').notNull(),
    name: text('name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.dimension, t.subjectId] })],
);
