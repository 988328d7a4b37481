-- Every request's session read (session, user, clinic, the clinic's report-list version) may be remembered by a
-- server process while nothing it depends on has changed. Writes from this process are seen as they happen;
-- these triggers tell the other processes (another server, the CLI tools, a psql session) through
-- LISTEN/NOTIFY, sent at commit. Statement-level, so a bulk change sends one notice.
CREATE FUNCTION session_auth_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sonoscribe_session_auth', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION session_auth_notify();
--> statement-breakpoint
CREATE TRIGGER users_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION session_auth_notify();
--> statement-breakpoint
CREATE TRIGGER clinics_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "clinics"
  FOR EACH STATEMENT EXECUTE FUNCTION session_auth_notify();
--> statement-breakpoint
CREATE TRIGGER report_counters_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "report_counters"
  FOR EACH STATEMENT EXECUTE FUNCTION session_auth_notify();
