ALTER TABLE "report_counters" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Written by hand instead of drizzle-kit's drop and re-create: the same index, only without a pending list.
ALTER INDEX "reports_search_trgm_idx" SET (fastupdate = false);--> statement-breakpoint
SELECT gin_clean_pending_list('reports_search_trgm_idx');
--> statement-breakpoint
-- report_counters.version rises with every statement that changes a clinic's reports, in the writer's own
-- transaction, so that a list answer remembered under a version (in any server process) is exact while the
-- database still says that version. Unlike live_count, every update counts, not only soft deletes.
CREATE OR REPLACE FUNCTION report_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_counters AS c (clinic_id, live_count, version)
      SELECT clinic_id, count(*) FILTER (WHERE deleted_at IS NULL), 1 FROM new_rows GROUP BY clinic_id
      ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count, version = c.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE report_counters c SET live_count = c.live_count - d.n, version = c.version + 1
      FROM (SELECT clinic_id, count(*) FILTER (WHERE deleted_at IS NULL) AS n FROM old_rows GROUP BY clinic_id) d
      WHERE c.clinic_id = d.clinic_id;
  ELSE
    INSERT INTO report_counters AS c (clinic_id, live_count, version)
      SELECT clinic_id, sum(delta), 1 FROM (
        SELECT clinic_id, CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END AS delta FROM new_rows
        UNION ALL
        SELECT clinic_id, CASE WHEN deleted_at IS NULL THEN -1 ELSE 0 END FROM old_rows
      ) changes GROUP BY clinic_id
      ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count, version = c.version + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Lists also show the physician's and the signers' names. UPDATE only (no insert): a clinic without a counter
-- row has no reports, and a cascade from a deleted clinic must not recreate its row.
CREATE FUNCTION report_lists_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE report_counters SET version = version + 1 WHERE clinic_id = OLD.clinic_id;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.clinic_id IS DISTINCT FROM OLD.clinic_id THEN
    UPDATE report_counters SET version = version + 1 WHERE clinic_id = NEW.clinic_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER physicians_report_lists_update AFTER UPDATE ON physicians FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.title IS DISTINCT FROM NEW.title
        OR OLD.specialty IS DISTINCT FROM NEW.specialty OR OLD.signature_url IS DISTINCT FROM NEW.signature_url
        OR OLD.clinic_id IS DISTINCT FROM NEW.clinic_id)
  EXECUTE FUNCTION report_lists_touch();
--> statement-breakpoint
CREATE TRIGGER physicians_report_lists_delete AFTER DELETE ON physicians FOR EACH ROW EXECUTE FUNCTION report_lists_touch();
--> statement-breakpoint
CREATE TRIGGER users_report_lists_update AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
        OR OLD.email IS DISTINCT FROM NEW.email OR OLD.clinic_id IS DISTINCT FROM NEW.clinic_id)
  EXECUTE FUNCTION report_lists_touch();
--> statement-breakpoint
CREATE TRIGGER users_report_lists_delete AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION report_lists_touch();
