import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '@/server/modules/customers/customers.table';

/*
 * Proof of play (spec 4 §5). The raw events live in `play_event`, a table partitioned by month of
 * `started_at` that drizzle-kit cannot express (server/db/custom-sql/proof_of_play_events.sql). What the
 * reports read is here:
 *
 * - `play_rollup_day`: per tenant, report dimension (device, content, channel, …), subject and UTC day, six
 *   counters (plays started, plays completed, play time, clicks, viewers, attention) over the day's 96
 *   quarter-hour slots, each stored as running sums: 97 elements, element k + 1 the total of slots 0..k, so
 *   the total of any run of slots is one subtraction. Filled by the ingest in its own statement. Every time
 *   zone's offset is a whole number of quarter hours, so a period in any zone is whole runs of slots of the day
 *   rows it overlaps: a DAILY report over 90 days reads 91 rows per subject however many plays there were.
 * - `play_subject`: the last known name of everything a play names, so plays of deleted files, content,
 *   channels and screens stay reportable under that name. Nothing here references the played items: deletes
 *   never cascade into proof of play (the tenant's own deletion does).
 */

/** The report dimensions a play is counted under (spec 3 "Reporting" `groupBy`). */
export const playDimensions = ['DEVICE', 'DEVICE_GROUP', 'CAMPAIGN', 'MESSAGE', 'CONTENT', 'CONTENT_PAGE', 'MEDIA_FILE', 'ADVERTISER'] as const;
export type PlayDimension = (typeof playDimensions)[number];

export const playRollupDays = pgTable(
  'play_rollup_day',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    dimension: text('dimension', { enum: playDimensions }).notNull(),
    /** The subject's id as text (uuid or integer); CONTENT_PAGE: `<contentId>/<pageId>`. */
    subjectId: text('subject_id').notNull(),
    /** The UTC day; slot i covers [day + 15 min × i, day + 15 min × (i + 1)); each array is the running sums over the slots, from a leading 0. */
    day: date('day', { mode: 'string' }).notNull(),
    starts: integer('starts').array().notNull(),
    ends: integer('ends').array().notNull(),
    durationMs: bigint('duration_ms', { mode: 'number' }).array().notNull(),
    clicks: integer('clicks').array().notNull(),
    viewers: integer('viewers').array().notNull(),
    attentionMs: bigint('attention_ms', { mode: 'number' }).array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.dimension, t.subjectId, t.day] }),
    // "All devices" / "top played" reports: one dimension of a tenant over a range of days.
    index('play_rollup_day_dimension_day_idx').on(t.customerId, t.dimension, t.day),
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
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.dimension, t.subjectId] })],
);
