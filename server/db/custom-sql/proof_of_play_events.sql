-- Raw proof-of-play events (spec 4 §5), partitioned by month of started_at (UTC): a month's partition is
-- dropped whole once it is more than a year old (job proof-of-play.partitions), never row by row. The ingest
-- checks idempotency per device and event id under a per-device lock; the primary key carries started_at
-- because the keys of a partitioned table must. No reference to devices, content, files or channels: plays
-- outlive them (their names are kept in play_subject). The tenant's own deletion removes its plays.
CREATE TABLE play_event (
  customer_id bigint NOT NULL REFERENCES customer(id) ON DELETE CASCADE,
  device_id uuid NOT NULL,
  event_id uuid NOT NULL,
  started_at timestamp(3) with time zone NOT NULL,
  ended_at timestamp(3) with time zone NOT NULL,
  duration_ms integer NOT NULL,
  completed boolean NOT NULL,
  device_group_id uuid,
  campaign_id bigint,
  message_id bigint,
  content_id uuid,
  page_id text,
  file_id uuid,
  advertiser_id uuid,
  clicks integer NOT NULL DEFAULT 0,
  viewers integer NOT NULL DEFAULT 0,
  attention_ms bigint NOT NULL DEFAULT 0,
  received_at timestamp(3) with time zone NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, event_id, started_at)
) PARTITION BY RANGE (started_at);
--> statement-breakpoint
CREATE INDEX play_event_customer_started_idx ON play_event (customer_id, started_at);
--> statement-breakpoint
-- The advertiser's CSV history: its plays, newest first.
CREATE INDEX play_event_advertiser_started_idx ON play_event (advertiser_id, started_at DESC) WHERE advertiser_id IS NOT NULL;
--> statement-breakpoint
-- Creates the monthly partitions play_event_YYYY_MM of `months` months from the month of `first_month` that
-- do not exist yet. Bounds are UTC month starts.
CREATE OR REPLACE FUNCTION play_event_ensure_partitions(first_month date, months integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  m date;
  created integer := 0;
BEGIN
  FOR i IN 0 .. months - 1 LOOP
    m := (date_trunc('month', first_month) + make_interval(months => i))::date;
    IF to_regclass('play_event_' || to_char(m, 'YYYY_MM')) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF play_event FOR VALUES FROM (%L) TO (%L)',
        'play_event_' || to_char(m, 'YYYY_MM'), to_char(m, 'YYYY-MM-DD') || ' 00:00:00+00',
        to_char((m + interval '1 month')::date, 'YYYY-MM-DD') || ' 00:00:00+00');
      created := created + 1;
    END IF;
  END LOOP;
  RETURN created;
END
$$;
--> statement-breakpoint
-- Drops the monthly partitions that end on or before `cutoff`; answers how many.
CREATE OR REPLACE FUNCTION play_event_drop_partitions_before(cutoff timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'play_event'::regclass AND c.relname ~ '^play_event_[0-9]{4}_[0-9]{2}$'
  LOOP
    IF (to_date(substr(part.relname, 12), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC' <= cutoff THEN
      EXECUTE format('DROP TABLE %I', part.relname);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END
$$;
--> statement-breakpoint
SELECT play_event_ensure_partitions((now() AT TIME ZONE 'UTC' - interval '12 months')::date, 16);
