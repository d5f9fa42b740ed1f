-- Proof-of-display reports. Reports of one entity by another dimension (a screen's plays by content, a channel's by
-- screen) read the raw plays of that entity in the window: one index per entity a report path names. Created on
-- the partitioned parent, so every monthly partition (existing and future) gets its own; partial, since most
-- plays name no channel, sub-channel, content or file. The device folder's index serves the `deviceGroupId` narrowing.
CREATE INDEX play_event_customer_device_started_idx ON play_event (customer_id, device_id, started_at);
--> statement-breakpoint
CREATE INDEX play_event_customer_content_started_idx ON play_event (customer_id, content_id, started_at) WHERE content_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX play_event_customer_file_started_idx ON play_event (customer_id, file_id, started_at) WHERE file_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX play_event_customer_campaign_started_idx ON play_event (customer_id, campaign_id, started_at) WHERE campaign_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX play_event_customer_message_started_idx ON play_event (customer_id, message_id, started_at) WHERE message_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX play_event_customer_device_group_started_idx ON play_event (customer_id, device_group_id, started_at) WHERE device_group_id IS NOT NULL;
