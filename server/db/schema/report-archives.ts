import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { storedFiles } from "./clinic-resources";
import { clinics } from "./clinics";
import { id, timestamps } from "./columns";
import { reports } from "./reports";

/**
 * The PDF/A archive copy of each signed version (issue 27, decision 026): a row written in the signing transaction
 * with the document as signed (`view`, images by file id and SHA-256), rendered and stored later by the
 * "report-archives" job. The row, not the job, holds the state and the retries: pending (with the last error
 * and the next attempt when an attempt failed) until archived, when `file_id` names the stored PDF and the view
 * is dropped (the PDF is the record).
 */
export const reportArchives = pgTable(
  "report_archives",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    /** The signed version (report_versions.version_number) this copy is of. */
    versionNumber: integer("version_number").notNull(),
    /** pending | archived */
    status: varchar("status", { length: 20 }).notNull().default("pending"),
    /** The DocumentView as signed, image bytes left out (file id and SHA-256 instead); null once archived. */
    view: jsonb("view"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    /** While an attempt runs: after this moment another worker may take the row again (the first one died). */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    fileId: integer("file_id").references(() => storedFiles.id),
    sha256: varchar("sha256", { length: 64 }),
    byteSize: bigint("byte_size", { mode: "number" }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /** The signer: the archive's audit event is theirs. */
    signedBy: varchar("signed_by", { length: 64 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("report_archives_report_version_idx").on(t.reportId, t.versionNumber),
    index("report_archives_clinic_report_idx").on(t.clinicId, t.reportId),
    // The job's look for due work: only the (few) pending rows are in it.
    index("report_archives_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);
