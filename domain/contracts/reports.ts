import { z } from "zod";
import { scanTypes } from "../report-engine/vocabulary";
import { criticalCommunicationSchema, reportCriticalResultSchema } from "./critical-communication";

// The reports API, shared by server and web. Dates are ISO strings (date-only for patient dates).

const isoDate = z.iso.date();
const nullableIsoDate = isoDate.nullable();
const timestamp = z.string();

/** Sex as a worksheet states it; the engine uses male/female only for the AAA referral threshold. */
export const patientSexes = ["male", "female", "other"] as const;
export type PatientSex = (typeof patientSexes)[number];

export const physicianSummarySchema = z.object({
  name: z.string(),
  title: z.string(),
  specialty: z.string(),
  signatureUrl: z.string().nullable(),
});
export type PhysicianSummary = z.infer<typeof physicianSummarySchema>;

export const reportSchema = z.object({
  id: z.number(),
  worksheetId: z.number().nullable(),
  digitalWorksheetId: z.number().nullable(),
  patientName: z.string(),
  patientDob: nullableIsoDate,
  examDate: nullableIsoDate,
  /** Header fields of the worksheet (issue 22); null when neither the sheet nor the clinician gave them. */
  mrn: z.string().nullable(),
  patientSex: z.enum(patientSexes).nullable(),
  referringPhysician: z.string().nullable(),
  /** The sonographer as named on the sheet or by the clinician; sonographerId is set when it matched one of the clinic's. */
  sonographerName: z.string().nullable(),
  /** The sonographer's comments on the sheet: their preliminary impression, shown beside the draft, never in it. */
  sonographerComments: z.string().nullable(),
  studyType: z.string(),
  indication: z.string(),
  findings: z.string(),
  impression: z.string(),
  /** The engine's machine-readable grades (domain/contracts/study.ts conclusionSchema). */
  conclusions: z.array(z.unknown()),
  warnings: z.array(z.string()),
  physicianId: z.number().nullable(),
  sonographerId: z.number().nullable(),
  templateId: z.number().nullable(),
  logoUrl: z.string().nullable(),
  isDraft: z.boolean(),
  isFinalized: z.boolean(),
  finalizedAt: timestamp.nullable(),
  finalizedBy: z.string().nullable(),
  finalizedByName: z.string().nullable(),
  /** True when staff signed for the report's physician (clinic setting): "Signed by X on behalf of Dr Y". */
  finalizedOnBehalf: z.boolean(),
  isAmended: z.boolean(),
  amendedAt: timestamp.nullable(),
  amendedBy: z.string().nullable(),
  amendedByName: z.string().nullable(),
  amendmentReason: z.string().nullable(),
  amendmentCount: z.number(),
  generatedAt: timestamp,
  updatedAt: timestamp,
  physician: physicianSummarySchema.nullable(),
  /** Results that need a call (issue 26), under the clinic's rules that are on, each covered or not by a record. */
  criticalResults: z.array(reportCriticalResultSchema),
  criticalCommunications: z.array(criticalCommunicationSchema),
  /** Unsigned, with a critical result no record covers: signing is refused until one is recorded. */
  criticalUncommunicated: z.boolean(),
});
export type Report = z.infer<typeof reportSchema>;

export const reportListSchema = z.object({ items: z.array(reportSchema), total: z.number() });
export type ReportList = z.infer<typeof reportListSchema>;

export const REPORTS_PAGE_SIZE = 12;

/**
 * The list's status filter. Each is one plain rule, and a report may match more than one: a draft is a
 * report never signed; awaiting signature is any unsigned report with its physician chosen (drafts and
 * amendments not yet signed again); signed is signed now; amended has been amended at least once.
 */
export const reportStatusFilters = ["draft", "awaiting_signature", "signed", "amended"] as const;
export type ReportStatusFilter = (typeof reportStatusFilters)[number];
export const reportSorts = ["generated_desc", "generated_asc", "exam_desc", "exam_asc"] as const;
export type ReportSort = (typeof reportSorts)[number];

const isoDay = z.iso.date("Dates must be written YYYY-MM-DD");

export const reportListQuery = z
  .object({
    search: z.string().trim().max(200).optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(REPORTS_PAGE_SIZE),
    status: z.enum(reportStatusFilters, "Unknown report status").optional(),
    physicianId: z.coerce.number().int().positive().optional(),
    scanType: z.string().trim().min(1).max(100).optional(),
    /** Exam dates from and to, both included. */
    examFrom: isoDay.optional(),
    examTo: isoDay.optional(),
    sort: z.enum(reportSorts, "Unknown sort order").default("generated_desc"),
    /** "uncommunicated": only unsigned reports with a critical result whose communication is not recorded. */
    critical: z.enum(["uncommunicated"], { error: 'The critical filter is "uncommunicated"' }).optional(),
  })
  .refine((q) => !q.examFrom || !q.examTo || q.examFrom <= q.examTo, {
    message: "The exam-date range ends before it starts",
    path: ["examTo"],
  });
export type ReportListQuery = z.input<typeof reportListQuery>;
/** The list query as the server holds it after parsing (defaults applied). */
export type ReportListFilters = z.output<typeof reportListQuery>;

const text = (max: number) => z.string().max(max);
/** Optional text: blank after trimming is stored as null (no value). */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullable()
    .transform((v) => v || null);
const optionalSex = z.enum(patientSexes, { error: "Sex must be male, female or other" }).nullable();

/** The header fields a person checks and edits, on the upload screen and in the editor. */
const headerFields = {
  mrn: optionalText(64, "MRN"),
  patientSex: optionalSex,
  referringPhysician: optionalText(255, "Referring physician"),
  sonographerName: optionalText(255, "Sonographer"),
};

/** The fields a person edits: the editor, the preview and the amend dialog send any subset of them. */
export const editableReportFields = z.object({
  patientName: text(255).trim().min(1, "Patient name is required"),
  patientDob: nullableIsoDate,
  examDate: nullableIsoDate,
  ...headerFields,
  studyType: text(100).trim().min(1, "Study type is required"),
  indication: text(20_000),
  findings: text(50_000),
  impression: text(20_000),
  templateId: z.number().int().positive().nullable(),
  physicianId: z.number().int().positive().nullable(),
});
export type EditableReportFields = z.infer<typeof editableReportFields>;
export const editableFieldNames = [
  "patientName",
  "patientDob",
  "examDate",
  "mrn",
  "patientSex",
  "referringPhysician",
  "sonographerName",
  "studyType",
  "indication",
  "findings",
  "impression",
  "templateId",
  "physicianId",
] as const satisfies readonly (keyof EditableReportFields)[];

/**
 * PATCH /api/reports/:id: drafts only; finalize true signs in the same save, under the same rule as
 * POST /api/reports/:id/finalize (domain/signing.ts).
 */

/**
 * Finalizing a report whose dates cannot be right (domain/dates.ts) needs this set: the clinician confirmed
 * the dates as entered. The audit trail records the confirmation.
 */
const acknowledgeDateWarnings = z.boolean().optional();

export const updateReportRequest = editableReportFields
  .partial()
  .extend({ finalize: z.boolean().optional(), acknowledgeDateWarnings });

/** POST /api/reports/:id/finalize: the body is optional. */
export const finalizeReportRequest = z.object({ acknowledgeDateWarnings }).nullish();
export type FinalizeReportRequest = z.input<typeof finalizeReportRequest>;
export type UpdateReportRequest = z.input<typeof updateReportRequest>;

export const AMENDMENT_REASON_REQUIRED = "Amendment reason is required";

export const amendReportRequest = editableReportFields.partial().extend({
  // Blank after trimming is refused by the service with the exact text (a schema minimum would prefix it).
  reason: z.string({ error: AMENDMENT_REASON_REQUIRED }).max(2000, "Amendment reason must be at most 2000 characters"),
});
export type AmendReportRequest = z.input<typeof amendReportRequest>;

/** The amend dialog's reason: the request's, required once trimmed (the service refuses a blank one too). */
export const amendReasonField = amendReportRequest.shape.reason.trim().min(1, AMENDMENT_REASON_REQUIRED);

/**
 * The patient and header fields as the clinician checked them on the upload screen. A header field left out
 * (undefined) is taken from the worksheet's OCR result; null or blank means "none".
 */
const patientInput = z.object({
  patientName: z.string().trim().max(255),
  patientDob: z.union([isoDate, z.literal("")]).nullish(),
  examDate: z.union([isoDate, z.literal("")]).nullish(),
  mrn: headerFields.mrn.optional(),
  patientSex: headerFields.patientSex.optional(),
  referringPhysician: headerFields.referringPhysician.optional(),
  sonographerName: headerFields.sonographerName.optional(),
  indication: optionalText(2000, "Indication").optional(),
  sonographerComments: optionalText(5000, "Sonographer's comments").optional(),
});
export type PatientInput = z.input<typeof patientInput>;

/**
 * POST /api/reports/generate. worksheetId and physicianId are optional in the schema so that a missing one
 * answers the spec's own text rather than a generic validation message.
 */
export const generateReportRequest = z.object({
  worksheetId: z.number().int().positive().nullish(),
  physicianId: z.coerce.number().int().positive().nullish(),
  logoUrl: z.string().max(500).nullish(),
  scanType: z.enum(scanTypes).nullish(),
  /** The measurements the clinician checked; when absent the worksheet's OCR result is used. */
  measurements: z.array(z.unknown()).max(2000).optional(),
  observations: z.array(z.unknown()).max(2000).optional(),
  patient: patientInput.optional(),
  templateId: z.number().int().positive().nullish(),
});
export type GenerateReportRequest = z.input<typeof generateReportRequest>;

export const versionKinds = ["generated", "edited", "finalized", "amended"] as const;
export type VersionKind = (typeof versionKinds)[number];

/**
 * The PDF/A archive copy of a signed version (decision 026), made by a job after the signature: pending (with the
 * last attempt's error and the next attempt when one failed) until archived, when fileId names the stored PDF.
 */
export const versionArchiveSchema = z.object({
  status: z.enum(["pending", "archived"]),
  fileId: z.number().nullable(),
  sha256: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  nextAttemptAt: timestamp.nullable(),
  archivedAt: timestamp.nullable(),
});
export type VersionArchive = z.infer<typeof versionArchiveSchema>;

export const reportVersionSummarySchema = z.object({
  versionNumber: z.number(),
  kind: z.enum(versionKinds),
  reason: z.string().nullable(),
  amendmentNumber: z.number().nullable(),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
  /** Signed versions since the archive became a job; null for other versions and older signatures. */
  archive: versionArchiveSchema.nullable().optional(),
});
export type ReportVersionSummary = z.infer<typeof reportVersionSummarySchema>;

/** What a version stores. Persisted JSON: read it back only through restoreSnapshot. */
export const reportSnapshotSchema = z.object({
  schemaVersion: z.literal(1),
  patientName: z.string(),
  patientDob: z.string().nullable(),
  examDate: z.string().nullable(),
  // Added with issue 22; versions stored before then read them as none.
  mrn: z.string().nullable().default(null),
  patientSex: z.string().nullable().default(null),
  referringPhysician: z.string().nullable().default(null),
  sonographerName: z.string().nullable().default(null),
  studyType: z.string(),
  indication: z.string(),
  findings: z.string(),
  impression: z.string(),
  templateId: z.number().nullable(),
  physicianId: z.number().nullable(),
  conclusions: z.array(z.unknown()),
  warnings: z.array(z.string()),
  isFinalized: z.boolean(),
  finalizedAt: z.string().nullable(),
  finalizedBy: z.string().nullable(),
  /** Added with signing on behalf (issue 26); older snapshots were always signed by the signer themselves. */
  finalizedOnBehalf: z.boolean().default(false),
  amendmentNumber: z.number().nullable(),
  amendmentReason: z.string().nullable(),
});
export type ReportSnapshot = z.infer<typeof reportSnapshotSchema>;

export function restoreSnapshot(stored: unknown): ReportSnapshot {
  return reportSnapshotSchema.parse(stored);
}

export const reportVersionSchema = reportVersionSummarySchema.extend({ snapshot: reportSnapshotSchema });
export type ReportVersion = z.infer<typeof reportVersionSchema>;

export const versionParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  n: z.coerce.number().int().positive().max(1_000_000),
});

export const diffQuery = z.object({
  from: z.coerce.number().int().positive(),
  to: z.coerce.number().int().positive(),
});

/** The fields compared between two versions, in reading order. */
export const diffedFields = [
  "patientName",
  "patientDob",
  "examDate",
  "mrn",
  "referringPhysician",
  "studyType",
  "indication",
  "findings",
  "impression",
] as const;

export const diffPartSchema = z.object({ value: z.string(), added: z.boolean(), removed: z.boolean() });
export const reportDiffSchema = z.object({
  from: z.number(),
  to: z.number(),
  fields: z.array(z.object({ field: z.enum(diffedFields), changed: z.boolean(), parts: z.array(diffPartSchema) })),
});
export type ReportDiff = z.infer<typeof reportDiffSchema>;

export const deleteReportResponse = z.object({ success: z.literal(true), id: z.number() });

export const FINALIZED_EDIT_MESSAGE = "Finalized reports can only be amended";
export const FINALIZED_DELETE_MESSAGE =
  "Finalized reports are kept for the legal retention period and cannot be deleted";

/** Only a report that was never signed may be deleted (finalizedBy survives an amendment). */
export const isDeletable = (report: Pick<Report, "isFinalized" | "isAmended" | "finalizedBy">) =>
  !report.isFinalized && !report.isAmended && report.finalizedBy === null;

/**
 * GET /api/reports/{id}/prior: the patient's latest earlier finalized report of the same scan type in the clinic
 * (same MRN, or same name and date of birth), which the draft is compared with; null when there is none.
 */
export const priorReportAnswer = z.object({
  prior: z
    .object({
      id: z.number(),
      examDate: z.string(),
      studyType: z.string(),
      status: z.enum(["finalized", "amended"]),
      finalizedAt: timestamp.nullable(),
      indication: z.string(),
      findings: z.string(),
      impression: z.string(),
      /** Whether the draft was generated with this prior's comparison (false: found later, e.g. signed later). */
      comparedInDraft: z.boolean(),
    })
    .nullable(),
});
export type PriorReportAnswer = z.infer<typeof priorReportAnswer>;
