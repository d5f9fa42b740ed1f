-- Slide data travels keyed by page name (DECISIONS §2), and a page named like an array index ("1", "10")
-- cannot keep its place in a JSON object read by JavaScript: the API refuses such names from now on. Pages
-- stored with one are renamed "Page <n>" (with " (2)", " (3)"... when the name is taken), and the taps that
-- went to them follow. The stored form (a list of pages, each with its name) does not change otherwise.
DO $$
DECLARE
  item record;
  taken text[];
  renamed jsonb;
  old_name text;
  new_name text;
  n int;
  is_index boolean;
BEGIN
  FOR item IN
    SELECT c.id, c.data FROM device_content c
    WHERE c.device_content_type = 'content' AND jsonb_typeof(c.data -> 'pages') = 'array'
      AND EXISTS (SELECT 1 FROM jsonb_array_elements(c.data -> 'pages') p
                  WHERE CASE WHEN p ->> 'name' ~ '^(0|[1-9][0-9]{0,9})$' THEN (p ->> 'name')::bigint <= 4294967294 ELSE false END)
  LOOP
    SELECT coalesce(array_agg(p ->> 'name'), '{}') INTO taken FROM jsonb_array_elements(item.data -> 'pages') p;
    renamed := '{}'::jsonb;
    FOREACH old_name IN ARRAY taken LOOP
      -- (A CASE inside IF would end the condition at its THEN.)
      is_index := CASE WHEN old_name ~ '^(0|[1-9][0-9]{0,9})$' THEN old_name::bigint <= 4294967294 ELSE false END;
      IF is_index THEN
        new_name := 'Page ' || old_name;
        n := 1;
        WHILE new_name = ANY (taken) LOOP
          n := n + 1;
          new_name := 'Page ' || old_name || ' (' || n || ')';
        END LOOP;
        taken := array_append(taken, new_name);
        renamed := renamed || jsonb_build_object(old_name, new_name);
      END IF;
    END LOOP;
    UPDATE device_content SET data = jsonb_set(item.data, '{pages}', (
      SELECT jsonb_agg(
        CASE WHEN renamed ? (p ->> 'name') THEN jsonb_set(p, '{name}', renamed -> (p ->> 'name')) ELSE p END
        || CASE WHEN jsonb_typeof(p -> 'widgets') = 'array' THEN jsonb_build_object('widgets', (
             SELECT coalesce(jsonb_agg(
               CASE WHEN renamed ? coalesce(w #>> '{action,page}', '') THEN jsonb_set(w, '{action,page}', renamed -> (w #>> '{action,page}')) ELSE w END
               ORDER BY wi), '[]'::jsonb)
             FROM jsonb_array_elements(p -> 'widgets') WITH ORDINALITY AS ws(w, wi)))
           ELSE '{}'::jsonb END
        ORDER BY pi)
      FROM jsonb_array_elements(item.data -> 'pages') WITH ORDINALITY AS ps(p, pi)))
    WHERE id = item.id;
  END LOOP;
END $$;
