import { z } from "zod";

/** Choices of spec part 2, section 9; the first of each list is the form's default unless stated. */
export const templateTypes = ["pdf", "docx", "both"] as const;
export const patientInfoLayouts = ["grid", "list", "compact"] as const;
export const signaturePositions = ["left", "center", "right"] as const;
export const fontFamilies = ["Arial", "Times New Roman", "Helvetica", "Calibri"] as const;
export const fontSizes = ["10px", "11px", "12px", "14px", "16px"] as const;
export const worksheetCategories = ["vascular", "cardiac", "abdominal", "obstetric", "general"] as const;
export const legendCategories = worksheetCategories;
export const shortcutCategories = ["general", "findings", "impressions", "recommendations", "indications"] as const;
export const legendImageTypes = ["upload", "drawing"] as const;

export const TEMPLATE_NAME_REQUIRED = "Template name is required";
export const WORKSHEET_TEMPLATE_REQUIRED = "Please provide a name and select a worksheet file";
export const LEGEND_CANVAS = { width: 400, height: 300 } as const;
export const LEGEND_DRAWING_MAX_BYTES = 2 * 1024 * 1024;

/** Dates leave the server as ISO strings; the server's own type keeps Date. */
const timestamp = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (s) => new Date(s),
  encode: (d) => d.toISOString(),
});

/** Optional text: trimmed, and stored as null when nothing is left (spec: "omitted when empty"). */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => v?.trim() || null);

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, "Colour must be #rrggbb");

// ---------- report templates ----------

/** Fields a client may set. Name is checked by the service so the answer carries the spec's exact text. */
const reportTemplateFields = {
  name: z.string().max(255).optional(),
  description: optionalText(5000),
  templateType: z.enum(templateTypes),
  showHeader: z.boolean(),
  clinicName: optionalText(255),
  clinicAddress: optionalText(1000),
  clinicPhone: optionalText(50),
  showLogo: z.boolean(),
  patientInfoLayout: z.enum(patientInfoLayouts),
  showPatientId: z.boolean(),
  showStudyType: z.boolean(),
  showIndication: z.boolean(),
  showFindings: z.boolean(),
  showImpression: z.boolean(),
  showFooter: z.boolean(),
  footerText: optionalText(2000),
  showReportId: z.boolean(),
  showGenerationDate: z.boolean(),
  showSignature: z.boolean(),
  signaturePosition: z.enum(signaturePositions),
  primaryColor: hexColor,
  fontFamily: z.enum(fontFamilies),
  fontSize: z.enum(fontSizes),
  isDefault: z.boolean(),
};

/** The new-template form's defaults (spec part 2, section 3). */
export const reportTemplateDefaults = {
  name: "",
  description: "",
  templateType: "both",
  showHeader: true,
  clinicName: "",
  clinicAddress: "",
  clinicPhone: "",
  showLogo: true,
  patientInfoLayout: "grid",
  showPatientId: false,
  showStudyType: true,
  showIndication: true,
  showFindings: true,
  showImpression: true,
  showFooter: true,
  footerText: "",
  showReportId: true,
  showGenerationDate: true,
  showSignature: true,
  signaturePosition: "right",
  primaryColor: "#0066cc",
  fontFamily: "Arial",
  fontSize: "12px",
  isDefault: false,
} as const satisfies ReportTemplateForm;

export const createReportTemplateRequest = z.object({
  ...reportTemplateFields,
  templateType: reportTemplateFields.templateType.default("both"),
  showHeader: z.boolean().default(true),
  showLogo: z.boolean().default(true),
  patientInfoLayout: reportTemplateFields.patientInfoLayout.default("grid"),
  showPatientId: z.boolean().default(false),
  showStudyType: z.boolean().default(true),
  showIndication: z.boolean().default(true),
  showFindings: z.boolean().default(true),
  showImpression: z.boolean().default(true),
  showFooter: z.boolean().default(true),
  showReportId: z.boolean().default(true),
  showGenerationDate: z.boolean().default(true),
  showSignature: z.boolean().default(true),
  signaturePosition: reportTemplateFields.signaturePosition.default("right"),
  primaryColor: hexColor.default("#0066cc"),
  fontFamily: reportTemplateFields.fontFamily.default("Arial"),
  fontSize: reportTemplateFields.fontSize.default("12px"),
  isDefault: z.boolean().default(false),
});
export type CreateReportTemplateRequest = z.output<typeof createReportTemplateRequest>;

export const updateReportTemplateRequest = z.object(reportTemplateFields).partial();
export type UpdateReportTemplateRequest = z.output<typeof updateReportTemplateRequest>;

export const reportTemplate = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  templateType: z.enum(templateTypes),
  showHeader: z.boolean(),
  clinicName: z.string().nullable(),
  clinicAddress: z.string().nullable(),
  clinicPhone: z.string().nullable(),
  showLogo: z.boolean(),
  patientInfoLayout: z.enum(patientInfoLayouts),
  showPatientId: z.boolean(),
  showStudyType: z.boolean(),
  showIndication: z.boolean(),
  showFindings: z.boolean(),
  showImpression: z.boolean(),
  showFooter: z.boolean(),
  footerText: z.string().nullable(),
  showReportId: z.boolean(),
  showGenerationDate: z.boolean(),
  showSignature: z.boolean(),
  signaturePosition: z.enum(signaturePositions),
  primaryColor: z.string(),
  fontFamily: z.enum(fontFamilies),
  fontSize: z.enum(fontSizes),
  isDefault: z.boolean(),
  userId: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
/** As the web receives it (dates as strings). */
export type ReportTemplate = z.input<typeof reportTemplate>;

/**
 * The report-template dialog's values: optional texts as strings ("" = none), the name required with the
 * service's own text. The client validates with this before sending; the server checks the request contracts.
 */
export const reportTemplateForm = z.object({
  ...reportTemplateFields,
  name: z.string().trim().min(1, TEMPLATE_NAME_REQUIRED).max(255),
  description: z.string().max(5000),
  clinicName: z.string().max(255),
  clinicAddress: z.string().max(1000),
  clinicPhone: z.string().max(50),
  footerText: z.string().max(2000),
});
export type ReportTemplateForm = z.input<typeof reportTemplateForm>;

// ---------- worksheet templates (multipart create) ----------

/** A chosen file (a Blob in the browser); anything else, nothing chosen included, is "no file". */
const isBlob = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;
const chosenFile = (message: string) =>
  z
    .unknown()
    .refine(isBlob, message)
    .transform((value) => value as Blob);

/** The upload dialog's values (sent as multipart); a missing name or file is refused with the spec's one sentence. */
export const worksheetTemplateForm = z.object({
  name: z.string().trim().min(1, WORKSHEET_TEMPLATE_REQUIRED).max(255),
  description: z.string().max(5000),
  category: z.enum(worksheetCategories),
  worksheetFile: chosenFile(WORKSHEET_TEMPLATE_REQUIRED),
});
export type WorksheetTemplateForm = z.input<typeof worksheetTemplateForm>;

export const worksheetTemplate = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.enum(worksheetCategories),
  imageUrl: z.string(),
  originalFilename: z.string(),
  isDefault: z.boolean(),
  userId: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Reading zones clinicians keep correcting, offered to the admin for adjustment (the list only). */
  zonesToCheck: z.number().int().min(0).optional(),
});
export type WorksheetTemplate = z.input<typeof worksheetTemplate>;

// ---------- legend entries (multipart create and update) ----------

export const legendEntry = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  medicalMeaning: z.string(),
  drawingPattern: z.string().nullable(),
  category: z.enum(legendCategories),
  keywords: z.string().nullable(),
  exampleImage: z.string().nullable(),
  /** PNG data URL of the 400x300 drawing, when imageType is drawing. */
  drawingData: z.string().nullable(),
  imageType: z.enum(legendImageTypes),
  createdBy: z.string().nullable(),
  isActive: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type LegendEntry = z.input<typeof legendEntry>;

/** The text fields of the legend multipart form, as received (all strings). */
export const legendFormFields = z.object({
  title: z.string().max(255).optional(),
  description: optionalText(5000),
  medicalMeaning: z.string().max(5000).optional(),
  category: z
    .enum(legendCategories, "Category must be one of: vascular, cardiac, abdominal, obstetric, general")
    .optional(),
  keywords: optionalText(2000),
  isActive: z.enum(["true", "false"], 'isActive must be "true" or "false"').optional(),
  imageType: z.enum(legendImageTypes, "imageType must be upload or drawing").optional(),
  drawingData: z.string().optional(),
  drawingPattern: optionalText(2000),
});
export type LegendFormFields = z.output<typeof legendFormFields>;

export const LEGEND_TITLE_REQUIRED = "Title is required";
export const MEDICAL_MEANING_REQUIRED = "Medical meaning is required";

/** The legend dialog's text values (sent as the multipart fields above); the picture travels beside them. */
export const legendEntryForm = z.object({
  title: z.string().trim().min(1, LEGEND_TITLE_REQUIRED).max(255),
  description: z.string().max(5000),
  medicalMeaning: z.string().trim().min(1, MEDICAL_MEANING_REQUIRED).max(5000),
  category: z.enum(legendCategories),
  keywords: z.string().max(2000),
  isActive: z.boolean(),
  imageType: z.enum(legendImageTypes),
});
export type LegendEntryForm = z.input<typeof legendEntryForm>;

// ---------- text shortcuts ----------

export const textShortcutRequest = z.object({
  title: z.string().trim().min(1, "Title is required").max(255),
  shortText: z.string().trim().min(1, "Text is required").max(10_000),
  category: z.enum(shortcutCategories).default("general"),
  tags: optionalText(1000),
});
export type TextShortcutRequest = z.input<typeof textShortcutRequest>;

export const textShortcut = z.object({
  id: z.number(),
  title: z.string(),
  shortText: z.string(),
  category: z.string(),
  tags: z.string().nullable(),
  isGlobal: z.boolean(),
  userId: z.string().nullable(),
  usageCount: z.number(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type TextShortcut = z.input<typeof textShortcut>;

export const shortcutUsage = z.object({ id: z.number(), usageCount: z.number() });
