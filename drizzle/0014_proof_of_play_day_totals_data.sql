-- Proof-of-play rollups in two layouts (server/modules/proof-of-play/proof-of-play.table.ts): the day totals come
-- from the running sums kept so far (element 97 is the day's total), so every play counted before the upgrade
-- stays counted; the raw events cannot rebuild them, since plays are kept a year and rollups for good.
INSERT INTO play_rollup_day_total (customer_id, dimension, subject_id, day, starts, ends, duration_ms, clicks, viewers, attention_ms)
SELECT customer_id, dimension, subject_id, day, coalesce(starts[97], 0), coalesce(ends[97], 0), coalesce(duration_ms[97], 0),
       coalesce(clicks[97], 0), coalesce(viewers[97], 0), coalesce(attention_ms[97], 0)
  FROM play_rollup_day
    ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- A counter that is 0 all day (its last running sum is 0: counters are never negative) becomes an empty array,
-- and the rest are rewritten (`'{}' || array` makes a new, uncompressed value): rows then stay under the toast
-- threshold and are stored plain, so a report reads an element without decompressing the array.
UPDATE play_rollup_day SET
  starts = CASE WHEN coalesce(starts[97], 0) = 0 THEN '{}'::integer[] ELSE '{}'::integer[] || starts END,
  ends = CASE WHEN coalesce(ends[97], 0) = 0 THEN '{}'::integer[] ELSE '{}'::integer[] || ends END,
  duration_ms = CASE WHEN coalesce(duration_ms[97], 0) = 0 THEN '{}'::bigint[] ELSE '{}'::bigint[] || duration_ms END,
  clicks = CASE WHEN coalesce(clicks[97], 0) = 0 THEN '{}'::integer[] ELSE '{}'::integer[] || clicks END,
  viewers = CASE WHEN coalesce(viewers[97], 0) = 0 THEN '{}'::integer[] ELSE '{}'::integer[] || viewers END,
  attention_ms = CASE WHEN coalesce(attention_ms[97], 0) = 0 THEN '{}'::bigint[] ELSE '{}'::bigint[] || attention_ms END;
