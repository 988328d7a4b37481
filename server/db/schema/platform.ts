import { bigint, date, index, integer, jsonb, pgTable, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { id } from "./columns";

/** Append-only; each row's hash covers its content and the previous row's hash. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    clinicId: integer("clinic_id"),
    actorUserId: varchar("actor_user_id", { length: 64 }),
    action: varchar("action", { length: 60 }).notNull(),
    entityType: varchar("entity_type", { length: 40 }),
    entityId: varchar("entity_id", { length: 64 }),
    details: jsonb("details").notNull().default({}),
    ip: varchar("ip", { length: 64 }),
    requestId: varchar("request_id", { length: 64 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    prevHash: varchar("prev_hash", { length: 64 }).notNull(),
    hash: varchar("hash", { length: 64 }).notNull(),
  },
  (t) => [index("audit_events_clinic_idx").on(t.clinicId, t.createdAt)],
);

/** Platform-wide worksheet/report pairs for the language model's examples. */
export const trainingPairs = pgTable("training_pairs", {
  id: id(),
  worksheetUrl: varchar("worksheet_url", { length: 500 }).notNull(),
  reportUrl: varchar("report_url", { length: 500 }).notNull(),
  worksheetFileId: integer("worksheet_file_id"),
  reportFileId: integer("report_file_id"),
  category: varchar("category", { length: 100 }).notNull(),
  complexityLevel: varchar("complexity_level", { length: 50 }).notNull(),
  reportText: text("report_text"),
  uploadedBy: varchar("uploaded_by", { length: 64 }),
  uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row per day: the admin panel's growth trend comes from these. */
export const storageSnapshots = pgTable("storage_snapshots", {
  day: date("day", { mode: "string" }).primaryKey(),
  databaseBytes: bigint("database_bytes", { mode: "number" }).notNull(),
  fileBytes: bigint("file_bytes", { mode: "number" }).notNull(),
  takenAt: timestamp("taken_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rate-limit windows and failed sign-in counts, shared by every web process on the database (issue 27): a key's
 * count is live until expires_at, then starts again at one. Expired rows are purged with the sessions.
 */
export const rateCounters = pgTable(
  "rate_counters",
  {
    key: varchar("key", { length: 200 }).primaryKey(),
    count: integer("count").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("rate_counters_expires_idx").on(t.expiresAt)],
);
