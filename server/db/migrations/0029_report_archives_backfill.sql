-- Versions signed before 0027 were archived in the signing request, which recorded each copy only in the audit
-- trail (report.archived: version, file id, SHA-256, size). Their rows here make the history show those copies
-- like newer ones. Only a copy whose report, version and stored file are still the clinic's own is taken; a
-- version that has a row already keeps it.
INSERT INTO "report_archives" ("clinic_id", "report_id", "version_number", "status", "file_id", "sha256",
	"byte_size", "archived_at", "signed_by", "created_at", "updated_at")
SELECT DISTINCT ON (r."id", v."version_number")
	r."clinic_id", r."id", v."version_number", 'archived', f."id", f."sha256", f."byte_size", e."created_at",
	e."actor_user_id", e."created_at", e."created_at"
FROM "audit_events" e
JOIN "reports" r ON r."id"::text = e."entity_id" AND r."clinic_id" = e."clinic_id"
JOIN "report_versions" v ON v."report_id" = r."id" AND v."version_number"::text = e."details"->>'version'
JOIN "stored_files" f ON f."id"::text = e."details"->>'fileId' AND f."clinic_id" = r."clinic_id"
	AND f."kind" = 'report_archive' AND f."sha256" = e."details"->>'sha256'
WHERE e."action" = 'report.archived' AND e."entity_type" = 'report'
ORDER BY r."id", v."version_number", e."id"
ON CONFLICT ("report_id", "version_number") DO NOTHING;
