-- The event ids of `ids` a device has stored before (the ingest's idempotency probe, spec 4 §5). Only the monthly
-- partitions of play_event between the first and the last UTC day the device has plays on are probed: its DEVICE
-- day totals, written in the same statement as every play it stored, name those days (a fresh device probes none,
-- a device of three months four partitions, not all sixteen). One query over those partitions, planned with the
-- ids: each partition is probed by its key index, an id at a time.
CREATE OR REPLACE FUNCTION play_event_reported(customer bigint, device uuid, ids uuid[]) RETURNS SETOF uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  first_day date;
  last_day date;
  m date;
  probes text[] := '{}';
BEGIN
  SELECT min(t.day), max(t.day) INTO first_day, last_day
    FROM play_rollup_day_total t
   WHERE t.customer_id = customer AND t.dimension = 'DEVICE' AND t.subject_id = device::text;
  m := date_trunc('month', first_day)::date;
  WHILE m <= last_day LOOP
    IF to_regclass('play_event_' || to_char(m, 'YYYY_MM')) IS NOT NULL THEN
      probes := probes || format('SELECT event_id FROM %I WHERE device_id = $1 AND event_id = ANY($2)', 'play_event_' || to_char(m, 'YYYY_MM'));
    END IF;
    m := (m + interval '1 month')::date;
  END LOOP;
  IF cardinality(probes) > 0 THEN
    RETURN QUERY EXECUTE array_to_string(probes, ' UNION ALL ') USING device, ids;
  END IF;
END
$$;
