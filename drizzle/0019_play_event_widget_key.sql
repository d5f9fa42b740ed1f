-- The slide widget that showed a play (spec 4 §5 `widgetKey`): reports grouped by WIDGET count the raw plays by it,
-- plays without one forming the row "(whole page)". Added to the partitioned table, so to every partition.
ALTER TABLE play_event ADD COLUMN widget_key text;
