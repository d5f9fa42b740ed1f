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
CREATE TRIGGER device_play_subject_rename AFTER UPDATE OF name ON device
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('DEVICE');
--> statement-breakpoint
CREATE TRIGGER device_group_play_subject_rename AFTER UPDATE OF name ON device_group
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('DEVICE_GROUP');
--> statement-breakpoint
CREATE TRIGGER campaign_play_subject_rename AFTER UPDATE OF name ON campaign
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('CAMPAIGN');
--> statement-breakpoint
CREATE TRIGGER message_play_subject_rename AFTER UPDATE OF name ON message
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('MESSAGE');
--> statement-breakpoint
CREATE TRIGGER device_content_play_subject_rename AFTER UPDATE OF name ON device_content
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('CONTENT');
--> statement-breakpoint
CREATE TRIGGER file_play_subject_rename AFTER UPDATE OF name ON file
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('MEDIA_FILE');
--> statement-breakpoint
CREATE TRIGGER advertiser_play_subject_rename AFTER UPDATE OF name ON advertiser
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION play_subject_rename('ADVERTISER');
--> statement-breakpoint
-- Names kept before this migration were refreshed only by a later play: bring those of existing items up to date.
UPDATE play_subject n SET name = x.name, updated_at = now() FROM device x
 WHERE n.dimension = 'DEVICE' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM device_group x
 WHERE n.dimension = 'DEVICE_GROUP' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM campaign x
 WHERE n.dimension = 'CAMPAIGN' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM message x
 WHERE n.dimension = 'MESSAGE' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM device_content x
 WHERE n.dimension = 'CONTENT' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM file x
 WHERE n.dimension = 'MEDIA_FILE' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
--> statement-breakpoint
UPDATE play_subject n SET name = x.name, updated_at = now() FROM advertiser x
 WHERE n.dimension = 'ADVERTISER' AND n.subject_id = x.id::text AND n.customer_id = x.customer_id AND n.name IS DISTINCT FROM x.name;
