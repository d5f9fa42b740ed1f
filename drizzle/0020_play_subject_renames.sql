-- Proof of play reports a play under the current name of what it names while that exists, and under its last
-- name once it is deleted (spec 4 §5). play_subject keeps that name for every device, folder, channel,
-- sub-channel, content item, file and advertiser with stored plays: the ingest adds the names of subjects new to
-- it, and a rename of any of them, by whatever path, updates the kept name in the renaming transaction (a row
-- trigger on a change of `name`, one indexed update of play_subject's key; an item without plays has no row and
-- nothing changes). A delete then leaves the last name in place.
CREATE OR REPLACE FUNCTION play_subject_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE play_subject SET name = NEW.name, updated_at = now()
   WHERE customer_id = NEW.customer_id AND dimension = TG_ARGV[0] AND subject_id = NEW.id::text;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Per table and the dimension its rows are reported under: the trigger, and the names kept before this
-- migration (refreshed only by a later play until now) brought up to date with the items that still exist.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('device', 'DEVICE'), ('device_group', 'DEVICE_GROUP'), ('campaign', 'CAMPAIGN'), ('message', 'MESSAGE'),
                                 ('device_content', 'CONTENT'), ('file', 'MEDIA_FILE'), ('advertiser', 'ADVERTISER')) AS v(tbl, dimension)
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE OF name ON %I FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename(%L)',
                   t.tbl || '_play_subject_rename', t.tbl, t.dimension);
    EXECUTE format('UPDATE play_subject n SET name = x.name, updated_at = now() FROM %I x
                     WHERE n.dimension = %L AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name',
                   t.tbl, t.dimension);
  END LOOP;
END
$$;
