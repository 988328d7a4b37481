import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgTable, real, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { storedFiles } from "./clinic-resources";
import { clinics } from "./clinics";
import { id, timestamps } from "./columns";

export const worksheets = pgTable(
  "worksheets",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    filename: varchar("filename", { length: 255 }).notNull(),
    originalName: varchar("original_name", { length: 255 }).notNull(),
    fileUrl: varchar("file_url", { length: 500 }).notNull(),
    fileId: integer("file_id")
      .notNull()
      .references(() => storedFiles.id),
    /** First page as an image (what the clinician sees); PDFs are rasterised at upload. */
    imageFileId: integer("image_file_id").references(() => storedFiles.id),
    /**
     * Every page as OCR reads it, in order (stored_files ids, the PNGs rendered and checked at upload): page 1 is
     * imageFileId when that was stored as rendered. OCR reads these instead of rendering the original again (issue
     * 30). They belong to the worksheet like fileId and imageFileId: whatever erases it erases them. Null for
     * worksheets uploaded before, and for DICOM SRs (no page).
     */
    pageFileIds: integer("page_file_ids").array(),
    /** The ultrasound machine's DICOM SR of the same study, added beside the sheet: its values merge into the reading. */
    srFileId: integer("sr_file_id").references(() => storedFiles.id),
    pageCount: integer("page_count").notNull().default(1),
    uploadedBy: varchar("uploaded_by", { length: 64 }),
    uploadedAt: timestamp("uploaded_at", { withTimezone: true }).notNull().defaultNow(),
    patientName: varchar("patient_name", { length: 255 }),
    patientDob: date("patient_dob", { mode: "string" }),
    examDate: date("exam_date", { mode: "string" }),
    scanType: varchar("scan_type", { length: 100 }),
    ocrProcessed: boolean("ocr_processed").notNull().default(false),
    /**
     * pending | processing | completed | failed. "processing" belongs to the OCR job `ocrJobId` on the queue: the
     * run holds a lease (`ocrLease`) its worker renews; a worker that dies lets it lapse, and any working process
     * then hands the job back to the queue to retry (features/worksheets/ocr-lease.ts).
     */
    ocrStatus: varchar("ocr_status", { length: 20 }).notNull().default("pending"),
    ocrError: text("ocr_error"),
    ocrResult: jsonb("ocr_result"),
    /** Where the OCR job is: queued | loading | reading | done | failed (null before the first run). */
    ocrStage: varchar("ocr_stage", { length: 20 }),
    /** Fraction of the current run done, 0-1: pages loaded, then pages read. */
    ocrProgress: real("ocr_progress").notNull().default(0),
    /** The queue's job for the current run: only that job may write its outcome (a retried or stale one may not). */
    ocrJobId: varchar("ocr_job_id", { length: 64 }),
    /** The running attempt of that job (a token of its own): only the lease's holder writes progress or outcome. */
    ocrLease: varchar("ocr_lease", { length: 64 }),
    /**
     * The lease lapses here (database clock) unless its worker renews it: then the attempt is taken as dead. With no
     * lease: when the sweep last handed the run's job back to the queue (an attempt started before is not swept twice).
     */
    ocrLeaseUntil: timestamp("ocr_lease_until", { withTimezone: true }),
  },
  (t) => [
    index("worksheets_clinic_idx").on(t.clinicId, t.uploadedAt),
    // The lapsed-lease sweep looks only at runs in progress.
    index("worksheets_ocr_lease_idx").on(t.ocrLeaseUntil).where(sql`${t.ocrStatus} = 'processing'`),
  ],
);

export const digitalWorksheets = pgTable(
  "digital_worksheets",
  {
    id: id(),
    clinicId: integer("clinic_id")
      .notNull()
      .references(() => clinics.id, { onDelete: "cascade" }),
    templateId: integer("template_id"),
    patientName: varchar("patient_name", { length: 255 }).notNull(),
    patientDob: date("patient_dob", { mode: "string" }),
    examDate: date("exam_date", { mode: "string" }).notNull(),
    studyType: varchar("study_type", { length: 100 }),
    /** Flattened drawing as an image data URL (the spec's field). */
    drawingData: text("drawing_data").notNull().default(""),
    annotations: text("annotations"),
    drawingHistory: text("drawing_history"),
    /** Versioned vector document (strokes and typed text); see domain/drawing. */
    vectorData: jsonb("vector_data"),
    userId: varchar("user_id", { length: 64 }).notNull(),
    sonographerId: integer("sonographer_id"),
    isDraft: boolean("is_draft").notNull().default(true),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index("digital_worksheets_clinic_idx").on(t.clinicId)],
);
