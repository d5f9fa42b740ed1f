-- Every change that alters who a live access token stands for notifies the `auth_change` channel, from the
-- writing transaction (delivered at commit, never on rollback), so each server process evicts its token
-- cache (server/auth/auth-cache.ts). Payloads: {"familyId"}, {"userId"}, {"customerId"}.
CREATE OR REPLACE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  IF TG_TABLE_NAME = 'oauth_token_family' THEN
    PERFORM pg_notify('auth_change', json_build_object('familyId', changed.id)::text);
  ELSIF TG_TABLE_NAME = 'app_user' THEN
    PERFORM pg_notify('auth_change', json_build_object('userId', changed.id)::text);
  ELSIF TG_TABLE_NAME = 'customer' THEN
    PERFORM pg_notify('auth_change', json_build_object('customerId', changed.id)::text);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER oauth_token_family_auth_change AFTER UPDATE OF revoked_at ON oauth_token_family
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at) EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER oauth_token_family_auth_change_delete AFTER DELETE ON oauth_token_family
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL) EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER app_user_auth_change AFTER UPDATE OF email, name, role, restricted, customer_id ON app_user
  FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email OR OLD.name IS DISTINCT FROM NEW.name OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER app_user_auth_change_delete AFTER DELETE ON app_user FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER customer_auth_change AFTER UPDATE OF name, restricted, is_subreseller ON customer
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.is_subreseller IS DISTINCT FROM NEW.is_subreseller)
  EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER customer_auth_change_delete AFTER DELETE ON customer FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
