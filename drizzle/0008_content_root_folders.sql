-- Every customer gets a root content folder (the content of a deleted folder moves there), and the Templates
-- folder it was created with, at the top until now, moves below that root.
INSERT INTO content_group (id, customer_id, parent_id, name, path, is_template_group)
SELECT r.id, c.id, NULL, 'Root', ARRAY[r.id], false
FROM customer c CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id) r
WHERE NOT EXISTS (SELECT 1 FROM content_group g WHERE g.customer_id = c.id AND g.parent_id IS NULL AND NOT g.is_template_group);
--> statement-breakpoint
UPDATE content_group t SET parent_id = r.id, path = ARRAY[r.id] || t.path
FROM content_group r
WHERE t.customer_id = r.customer_id AND r.parent_id IS NULL AND NOT r.is_template_group AND t.is_template_group AND t.parent_id IS NULL;
