-- One round trip per audit event (decision 027): takes the chain's lock, reads the head with a snapshot taken
-- after the lock (a VOLATILE function's statements each take a new one under READ COMMITTED), and inserts only
-- when the caller's hash was computed on that head. Otherwise it inserts nothing and answers the head, and the
-- caller (platform/audit.ts) computes the hash again: the HMAC key never leaves the application.
CREATE FUNCTION "audit_append"(
	"expected_prev" text,
	"p_clinic_id" integer,
	"p_actor_user_id" text,
	"p_action" text,
	"p_entity_type" text,
	"p_entity_id" text,
	"p_details" text,
	"p_ip" text,
	"p_request_id" text,
	"p_created_at" text,
	"p_hash" text
) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
	head text;
BEGIN
	PERFORM pg_advisory_xact_lock(730117);
	SELECT "hash" INTO head FROM "audit_events" ORDER BY "id" DESC LIMIT 1;
	head := coalesce(head, repeat('0', 64));
	IF expected_prev IS DISTINCT FROM head THEN
		RETURN head;
	END IF;
	INSERT INTO "audit_events" ("clinic_id", "actor_user_id", "action", "entity_type", "entity_id", "details", "ip",
		"request_id", "created_at", "prev_hash", "hash")
	VALUES (p_clinic_id, p_actor_user_id, p_action, p_entity_type, p_entity_id, p_details::jsonb, p_ip, p_request_id,
		p_created_at::timestamptz, head, p_hash);
	RETURN NULL;
END
$$;
