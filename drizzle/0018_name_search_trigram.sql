-- Substring search on names (`name~…`, `name:…`, `name^…` compile to ILIKE/LIKE '%…%'; docs/decisions.md "Query
-- language"): a trigram GIN index on every name column the query language searches, so a search reads the rows whose
-- names hold the pattern's trigrams instead of every row of the tenant. The planner combines it with the tenant's
-- b-tree (BitmapAnd) where that pays; patterns under 3 characters have no trigram and keep the b-tree plans.
-- pg_trgm is a trusted extension (PostgreSQL 13+: a database owner may create it; Debian's server package ships it);
-- PGlite loads it in server/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX advertiser_name_trgm_idx ON advertiser USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX campaign_name_trgm_idx ON campaign USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX content_template_name_trgm_idx ON content_template USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX customer_name_trgm_idx ON customer USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX device_name_trgm_idx ON device USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX device_content_name_trgm_idx ON device_content USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX file_name_trgm_idx ON file USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX message_name_trgm_idx ON message USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX message_group_name_trgm_idx ON message_group USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX quick_filter_name_trgm_idx ON quick_filter USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX team_name_trgm_idx ON team USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX ui_profile_name_trgm_idx ON ui_profile USING gin (name gin_trgm_ops);
--> statement-breakpoint
-- Users: the console searches `name~…|email~…`; both sides indexed make the OR one BitmapOr.
CREATE INDEX app_user_name_trgm_idx ON app_user USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX app_user_email_trgm_idx ON app_user USING gin (email gin_trgm_ops);
--> statement-breakpoint
-- Folders answer a root's name as null (its name is internal): the index is on that expression, the one a search
-- of a folder's `name` compiles to.
CREATE INDEX content_group_name_trgm_idx ON content_group USING gin ((CASE WHEN parent_id IS NULL THEN NULL ELSE name END) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX device_group_name_trgm_idx ON device_group USING gin ((CASE WHEN parent_id IS NULL THEN NULL ELSE name END) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX file_folder_name_trgm_idx ON file_folder USING gin ((CASE WHEN parent_id IS NULL THEN NULL ELSE name END) gin_trgm_ops);
