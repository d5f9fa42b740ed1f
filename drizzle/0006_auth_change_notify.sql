-- Every change that alters who a live access token stands for, or the caller's own user view, notifies the
-- `auth_change` channel from the writing transaction (delivered at commit, never on rollback), so each server
-- process evicts its token cache (server/auth/auth-cache.ts). Payloads: {"familyId"}, {"userId"}, {"customerId"}.
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
  ELSIF TG_TABLE_NAME = 'user_profile_picture' THEN
    PERFORM pg_notify('auth_change', json_build_object('userId', changed.user_id)::text);
  ELSIF TG_TABLE_NAME = 'ui_profile' THEN
    PERFORM pg_notify('auth_change', json_build_object('customerId', changed.customer_id)::text);
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
-- Any column but the activity counters (written once a minute per active user; the cached own view may show
-- them up to a minute late, as often as they are recorded): the caller's own view shows nearly all of them.
CREATE TRIGGER app_user_auth_change AFTER UPDATE ON app_user
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_activity' - 'presence_time_seconds' - 'last_login' - 'login_count' - 'totp_last_step')
    IS DISTINCT FROM (to_jsonb(NEW) - 'last_activity' - 'presence_time_seconds' - 'last_login' - 'login_count' - 'totp_last_step'))
  EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER app_user_auth_change_delete AFTER DELETE ON app_user FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
-- The columns a token or the user view reads (not the storage counters every upload moves).
CREATE TRIGGER customer_auth_change AFTER UPDATE OF name, restricted, is_subreseller, expiration_date, force_2fa ON customer
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.is_subreseller IS DISTINCT FROM NEW.is_subreseller
    OR OLD.expiration_date IS DISTINCT FROM NEW.expiration_date OR OLD.force_2fa IS DISTINCT FROM NEW.force_2fa)
  EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER customer_auth_change_delete AFTER DELETE ON customer FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER user_profile_picture_auth_change AFTER INSERT OR UPDATE OR DELETE ON user_profile_picture
  FOR EACH ROW EXECUTE FUNCTION notify_auth_change();
--> statement-breakpoint
CREATE TRIGGER ui_profile_auth_change AFTER UPDATE OF name ON ui_profile
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION notify_auth_change();
