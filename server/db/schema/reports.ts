import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import type { Measurement } from "../../../domain/contracts/study";
import type { CriticalResult } from "../../../domain/report-engine/critical-results";
import { clinics } from "./clinics";
import { id } from "./columns";

export const reports = pgTable(
  "reports",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    worksheetId: integer("worksheet_id"),
    digitalWorksheetId: integer("digital_worksheet_id"),
    patientName: varchar("patient_name", { length: 255 }).notNull(),
    patientDob: date("patient_dob", { mode: "string" }),
    examDate: date("exam_date", { mode: "string" }),
    /** Header fields of the worksheet (issue 22): read by OCR, checked and edited by the clinician. */
    mrn: varchar("mrn", { length: 64 }),
    patientSex: varchar("patient_sex", { length: 10 }),
    referringPhysician: varchar("referring_physician", { length: 255 }),
    /** The sonographer as written on the sheet; sonographerId is set when it names one of the clinic's. */
    sonographerName: varchar("sonographer_name", { length: 255 }),
    /** The sonographer's own comments on the sheet (their preliminary impression), kept apart from the Impression. */
    sonographerComments: text("sonographer_comments"),
    studyType: varchar("study_type", { length: 100 }).notNull(),
    indication: text("indication").notNull(),
    findings: text("findings").notNull(),
    impression: text("impression").notNull(),
    /** The engine's machine-readable grades and the warnings shown to the clinician. */
    conclusions: jsonb("conclusions").notNull().default([]),
    warnings: jsonb("warnings").$type<string[]>().notNull().default([]),
    /**
     * The measurements the draft was made from, as the clinician checked them (site, side, parameter, value, unit):
     * what FHIR Observations and HL7 OBX lines carry. Null on reports drafted before they were kept (issue 28).
     */
    measurements: jsonb("measurements").$type<Measurement[]>(),
    /**
     * What the engine flagged under every critical-result rule when it drafted the report (issue 26); the
     * clinic's rules that are off are left out when it is read (docs/critical-results.md).
     */
    criticalResults: jsonb("critical_results").$type<CriticalResult[]>().notNull().default([]),
    /**
     * The prior study the draft was compared with when it was generated (issue 31 item 11); null when there was
     * none, or for reports drafted before this was kept. The editor shows this one, not whatever is earliest now.
     */
    comparedPriorId: integer("compared_prior_id"),
    physicianId: integer("physician_id"),
    sonographerId: integer("sonographer_id"),
    templateId: integer("template_id"),
    logoUrl: varchar("logo_url", { length: 500 }),
    isDraft: boolean("is_draft").notNull().default(true),
    isFinalized: boolean("is_finalized").notNull().default(false),
    finalizedAt: timestamp("finalized_at", { withTimezone: true }),
    finalizedBy: varchar("finalized_by", { length: 64 }),
    /** The signer was staff signing for the report's physician (the clinic allows it); exports say so. */
    finalizedOnBehalf: boolean("finalized_on_behalf").notNull().default(false),
    /** The first signature's time: turnaround counts to it; an amendment and its new signature leave it. */
    firstFinalizedAt: timestamp("first_finalized_at", { withTimezone: true }),
    isAmended: boolean("is_amended").notNull().default(false),
    amendedAt: timestamp("amended_at", { withTimezone: true }),
    amendedBy: varchar("amended_by", { length: 64 }),
    amendmentReason: text("amendment_reason"),
    amendmentCount: integer("amendment_count").notNull().default(0),
    createdBy: varchar("created_by", { length: 64 }),
    generatedAt: timestamp("generated_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    index("reports_clinic_generated_idx").on(t.clinicId, t.generatedAt),
    // The reports list: one clinic's live reports, newest first (the partial index skips deleted rows).
    index("reports_clinic_live_idx")
      .on(t.clinicId, t.generatedAt.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    index("reports_clinic_exam_date_idx").on(t.clinicId, t.examDate),
    // The reports list by exam date, either way: dated reports by a scan of this index, then the undated ones by
    // id (report-list-pages.ts), so that a page starts from a bookmark instead of sorting the clinic's reports.
    index("reports_clinic_live_exam_idx").on(t.clinicId, t.examDate, t.id).where(sql`${t.deletedAt} is null`),
    index("reports_clinic_patient_dob_idx").on(t.clinicId, t.patientDob),
    // The prior-study lookup by MRN (prior-report.service.ts compares lower(trim(mrn))); by name it uses the DOB index.
    index("reports_clinic_finalized_mrn_idx")
      .on(t.clinicId, sql`lower(trim(${t.mrn}))`)
      .where(sql`${t.deletedAt} is null and ${t.isFinalized} = true`),
    // The sign-off worklist: a clinic's unsigned drafts by physician (small: signed reports are not in it).
    index("reports_clinic_awaiting_signature_idx")
      .on(t.clinicId, t.physicianId, t.examDate)
      .where(sql`${t.deletedAt} is null and ${t.isFinalized} = false`),
    // The turnaround dashboard: signed reports by the day of their first signature.
    index("reports_clinic_first_finalized_idx")
      .on(t.clinicId, t.firstFinalizedAt)
      .where(sql`${t.deletedAt} is null and ${t.firstFinalizedAt} is not null`),
    // Substring search on patient name, study type and MRN (pg_trgm; the extension is created by an earlier migration).
    // fastupdate off: new rows go into the index at once instead of a pending list that every search scans
    // until the next vacuum (100,000 pending rows made each search word cost 2 ms instead of 0.1 ms).
    index("reports_search_trgm_idx")
      .using("gin", sql`lower(${t.patientName} || ' ' || ${t.studyType} || ' ' || coalesce(${t.mrn}, '')) gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);

/**
 * Live (not deleted) reports per clinic, kept by triggers on reports: the list's total stays exact
 * without counting 100,000 rows on every page. `version` rises with every change to what the clinic's
 * report lists show (reports, their physicians, their signers' names), also by triggers: a list answer
 * remembered under one version is still exact while the database says that version.
 */
export const reportCounters = pgTable("report_counters", {
  clinicId: integer("clinic_id")
    .primaryKey()
    .references(() => clinics.id, { onDelete: "cascade" }),
  liveCount: integer("live_count").notNull().default(0),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/**
 * What each raise of report_counters.version changed (issue 30, decision 024): the list positions, old and new,
 * of the reports it wrote, as [generated_at in microseconds since 1970, exam_date in days since 1970 or null, id];
 * an empty list when no report moved (a name shown in the list changed); null when unknown (a critical-result
 * change, a statement over 1,000 reports). Deep-page bookmarks of an older version are recounted only around
 * these positions instead of read again. Kept by the triggers of migration 0026, the last 200 per clinic.
 */
export const reportListChanges = pgTable(
  "report_list_changes",
  {
    // No foreign key: the triggers write here while a clinic's reports are deleted by its cascade.
    clinicId: integer("clinic_id").notNull(),
    version: bigint("version", { mode: "number" }).notNull(),
    positions: jsonb("positions"),
  },
  (t) => [primaryKey({ columns: [t.clinicId, t.version] })],
);

/** Every saved state of a report; signed versions are never changed. */
export const reportVersions = pgTable(
  "report_versions",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    versionNumber: integer("version_number").notNull(),
    /** generated | edited | finalized | amended */
    kind: varchar("kind", { length: 20 }).notNull(),
    snapshot: jsonb("snapshot").notNull(),
    reason: text("reason"),
    createdBy: varchar("created_by", { length: 64 }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("report_versions_report_number_idx").on(t.reportId, t.versionNumber)],
);

/**
 * A critical result's communication to the referring clinician (issue 26): who was told, how, when, and
 * whether they read it back; recorded by the session user. `resultKeys` are the results it covers: a
 * report is signed only when every critical result it has is covered.
 */
export const criticalCommunications = pgTable(
  "critical_communications",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    reportId: integer("report_id")
      .notNull()
      .references(() => reports.id, { onDelete: "cascade" }),
    resultKeys: jsonb("result_keys").$type<string[]>().notNull(),
    /** The results as they read when communicated (rule, finding), for exports and audit. */
    results: jsonb("results").$type<CriticalResult[]>().notNull(),
    recipient: varchar("recipient", { length: 255 }).notNull(),
    /** phone | in_person | secure_message */
    method: varchar("method", { length: 20 }).notNull(),
    communicatedAt: timestamp("communicated_at", { withTimezone: true }).notNull(),
    readBack: boolean("read_back").notNull(),
    notes: text("notes"),
    recordedBy: varchar("recorded_by", { length: 64 }).notNull(),
    /** The report's amendment count when recorded: 0 for the original signing. */
    amendmentNumber: integer("amendment_number").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("critical_communications_report_idx").on(t.clinicId, t.reportId)],
);
