-- Trigram indexes make "contains" searches (patient names, study types) use an index. Managed PostgreSQL
-- services and PGlite (registered in server/db/client.ts) both ship this extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
