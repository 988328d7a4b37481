-- report_counters.live_count = the clinic's reports with deleted_at null, kept by statement-level triggers so
-- that every writer (services, seeds, bulk loads) keeps it exact, in the writer's own transaction.
CREATE FUNCTION report_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_counters AS c (clinic_id, live_count)
      SELECT clinic_id, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY clinic_id
      ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE report_counters c SET live_count = c.live_count - d.n
      FROM (SELECT clinic_id, count(*) AS n FROM old_rows WHERE deleted_at IS NULL GROUP BY clinic_id) d
      WHERE c.clinic_id = d.clinic_id;
  ELSE
    INSERT INTO report_counters AS c (clinic_id, live_count)
      SELECT clinic_id, sum(delta) FROM (
        SELECT clinic_id, 1 AS delta FROM new_rows WHERE deleted_at IS NULL
        UNION ALL
        SELECT clinic_id, -1 FROM old_rows WHERE deleted_at IS NULL
      ) changes GROUP BY clinic_id HAVING sum(delta) <> 0
      ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER reports_counters_insert AFTER INSERT ON reports
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_counters_apply();
--> statement-breakpoint
CREATE TRIGGER reports_counters_update AFTER UPDATE ON reports
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_counters_apply();
--> statement-breakpoint
CREATE TRIGGER reports_counters_delete AFTER DELETE ON reports
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_counters_apply();
--> statement-breakpoint
INSERT INTO report_counters (clinic_id, live_count)
  SELECT clinic_id, count(*) FROM reports WHERE deleted_at IS NULL GROUP BY clinic_id
  ON CONFLICT (clinic_id) DO UPDATE SET live_count = excluded.live_count;
