-- Every way a file row disappears (its own delete, a folder delete, the customer's delete cascade)
-- queues its blob and thumbnail for removal, gives its bytes back to the customer's quota and drops
-- its team assignments, in the deleting transaction. Keys follow server/storage/keys.ts
-- (fileBlobKey / thumbnailBlobKey). Folders drop their team assignments the same way.
CREATE OR REPLACE FUNCTION file_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO blob_cleanup (key, not_before, reason)
    SELECT v.key, now(), 'file deleted'
    FROM deleted_files d
    CROSS JOIN LATERAL (VALUES ('customer/' || d.customer_id || '/files/' || d.id),
                               ('customer/' || d.customer_id || '/files/' || d.id || '.tmb')) AS v(key)
  ON CONFLICT (key) DO UPDATE SET not_before = excluded.not_before, reason = excluded.reason;
  UPDATE customer c SET used_storage_size = greatest(0, c.used_storage_size - s.total)
    FROM (SELECT customer_id, sum(size) AS total FROM deleted_files GROUP BY customer_id) s
    WHERE c.id = s.customer_id;
  DELETE FROM team_assignment ta USING deleted_files d WHERE ta.resource_type = 'file' AND ta.resource_id = d.id::text;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER file_after_delete AFTER DELETE ON file
  REFERENCING OLD TABLE AS deleted_files
  FOR EACH STATEMENT EXECUTE FUNCTION file_after_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION file_folder_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM team_assignment ta USING deleted_folders d WHERE ta.resource_type = 'fileFolder' AND ta.resource_id = d.id::text;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER file_folder_after_delete AFTER DELETE ON file_folder
  REFERENCING OLD TABLE AS deleted_folders
  FOR EACH STATEMENT EXECUTE FUNCTION file_folder_after_delete();
