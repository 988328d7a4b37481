CREATE TABLE "report_list_changes" (
	"clinic_id" integer NOT NULL,
	"version" bigint NOT NULL,
	"positions" jsonb,
	CONSTRAINT "report_list_changes_clinic_id_version_pk" PRIMARY KEY("clinic_id","version")
);
--> statement-breakpoint
-- Issue 30, decision 024: every raise of report_counters.version by the reports' own triggers now also writes
-- what it changed (the old and new list positions of the reports it wrote; null when over 1,000), so that deep-page
-- bookmarks of an older version are recounted around those positions instead of read again. The last 200 per
-- clinic are kept.
CREATE FUNCTION report_list_positions(rows_ jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN jsonb_array_length(rows_) > 1000 THEN NULL ELSE rows_ END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_counters_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH bumped AS (
      INSERT INTO report_counters AS c (clinic_id, live_count, version)
        SELECT clinic_id, count(*) FILTER (WHERE deleted_at IS NULL), 1 FROM new_rows GROUP BY clinic_id
        ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count, version = c.version + 1
        RETURNING c.clinic_id, c.version
    ), logged AS (
      INSERT INTO report_list_changes (clinic_id, version, positions)
        SELECT b.clinic_id, b.version, report_list_positions(
          (SELECT coalesce(jsonb_agg(jsonb_build_array((extract(epoch FROM r.generated_at) * 1000000)::bigint,
                   r.exam_date - date '1970-01-01', r.id)), '[]') FROM new_rows r WHERE r.clinic_id = b.clinic_id))
        FROM bumped b
        RETURNING clinic_id, version
    )
    DELETE FROM report_list_changes l USING logged g WHERE l.clinic_id = g.clinic_id AND l.version <= g.version - 200;
  ELSIF TG_OP = 'DELETE' THEN
    WITH bumped AS (
      UPDATE report_counters c SET live_count = c.live_count - d.n, version = c.version + 1
        FROM (SELECT clinic_id, count(*) FILTER (WHERE deleted_at IS NULL) AS n FROM old_rows GROUP BY clinic_id) d
        WHERE c.clinic_id = d.clinic_id
        RETURNING c.clinic_id, c.version
    ), logged AS (
      INSERT INTO report_list_changes (clinic_id, version, positions)
        SELECT b.clinic_id, b.version, report_list_positions(
          (SELECT coalesce(jsonb_agg(jsonb_build_array((extract(epoch FROM r.generated_at) * 1000000)::bigint,
                   r.exam_date - date '1970-01-01', r.id)), '[]') FROM old_rows r WHERE r.clinic_id = b.clinic_id))
        FROM bumped b
        RETURNING clinic_id, version
    )
    DELETE FROM report_list_changes l USING logged g WHERE l.clinic_id = g.clinic_id AND l.version <= g.version - 200;
  ELSE
    WITH bumped AS (
      INSERT INTO report_counters AS c (clinic_id, live_count, version)
        SELECT clinic_id, sum(delta), 1 FROM (
          SELECT clinic_id, CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END AS delta FROM new_rows
          UNION ALL
          SELECT clinic_id, CASE WHEN deleted_at IS NULL THEN -1 ELSE 0 END FROM old_rows
        ) changes GROUP BY clinic_id
        ON CONFLICT (clinic_id) DO UPDATE SET live_count = c.live_count + excluded.live_count, version = c.version + 1
        RETURNING c.clinic_id, c.version
    ), logged AS (
      INSERT INTO report_list_changes (clinic_id, version, positions)
        SELECT b.clinic_id, b.version, report_list_positions(
          (SELECT coalesce(jsonb_agg(jsonb_build_array((extract(epoch FROM r.generated_at) * 1000000)::bigint,
                   r.exam_date - date '1970-01-01', r.id)), '[]')
             FROM (SELECT * FROM new_rows UNION ALL SELECT * FROM old_rows) r WHERE r.clinic_id = b.clinic_id))
        FROM bumped b
        RETURNING clinic_id, version
    )
    DELETE FROM report_list_changes l USING logged g WHERE l.clinic_id = g.clinic_id AND l.version <= g.version - 200;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A name shown in the lists changed: no report moved.
CREATE OR REPLACE FUNCTION report_lists_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    WITH bumped AS (
      UPDATE report_counters SET version = version + 1 WHERE clinic_id = OLD.clinic_id RETURNING clinic_id, version
    )
    INSERT INTO report_list_changes (clinic_id, version, positions) SELECT clinic_id, version, '[]' FROM bumped;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.clinic_id IS DISTINCT FROM OLD.clinic_id THEN
    WITH bumped AS (
      UPDATE report_counters SET version = version + 1 WHERE clinic_id = NEW.clinic_id RETURNING clinic_id, version
    )
    INSERT INTO report_list_changes (clinic_id, version, positions) SELECT clinic_id, version, '[]' FROM bumped;
  END IF;
  RETURN NULL;
END;
$$;
