import { z } from "zod";
import { ocrResultSchema } from "./ocr";

/** Where a worksheet is in its processing; "processing" while its OCR job is queued or running. */
export const ocrStatuses = ["pending", "processing", "completed", "failed"] as const;
export type OcrStatus = (typeof ocrStatuses)[number];

/** Where an OCR job is: waiting for a worker, turning the file into pages, reading them, and how it ended. */
export const ocrStages = ["queued", "loading", "reading", "done", "failed"] as const;
export type OcrStage = (typeof ocrStages)[number];

/** The spec's Worksheet entity, plus what the Upload view needs to show where OCR stands. */
export const worksheetRecord = z.object({
  id: z.number().int(),
  filename: z.string(),
  originalName: z.string(),
  /** Always `/api/worksheets/{id}/image`: the first page as an image, served to the same clinic only. */
  fileUrl: z.string(),
  uploadedAt: z.iso.datetime({ offset: true }),
  patientName: z.string().nullable(),
  patientDob: z.iso.date().nullable(),
  examDate: z.iso.date().nullable(),
  scanType: z.string().nullable(),
  pageCount: z.number().int(),
  ocrProcessed: z.boolean(),
  ocrStatus: z.enum(ocrStatuses),
  ocrError: z.string().nullable(),
  /** "dicom-sr" for an ultrasound machine's DICOM Structured Report uploaded instead of the sheet (no page image). */
  kind: z.enum(["worksheet", "dicom-sr"]),
});
export type WorksheetRecord = z.infer<typeof worksheetRecord>;

/** GET /api/worksheets/{id}: the record with what OCR read, for re-opening a worksheet. */
export const worksheetDetail = worksheetRecord.extend({ ocrResult: ocrResultSchema.nullable() });
export type WorksheetDetail = z.infer<typeof worksheetDetail>;

/** POST /api/worksheets/{id}/ocr, as issue 5 item 3 says. */
export const ocrResponse = z.object({ ocrResult: ocrResultSchema });
export type OcrResponse = z.infer<typeof ocrResponse>;

/**
 * GET /api/worksheets/{id}/ocr, and POST's 202 when the job did not end within the request: the job's state (the
 * worksheet's OCR status), its stage, the fraction of the stage done (pages loaded, then pages read), the reason
 * when it failed and what was read when it completed.
 */
export const ocrView = z.object({
  worksheetId: z.number().int(),
  state: z.enum(ocrStatuses),
  stage: z.enum(ocrStages).nullable(),
  progress: z.number().min(0).max(1),
  error: z.string().nullable(),
  ocrResult: ocrResultSchema.nullable(),
});
export type OcrView = z.infer<typeof ocrView>;

/** POST /api/worksheets/{id}/ocr?wait=N: wait at most N seconds (never more than the server's setting). */
export const ocrWaitQuery = z.object({
  wait: z.coerce
    .number({ error: "wait must be a number of seconds" })
    .min(0, "wait must be 0 or more seconds")
    .max(600, "wait must be at most 600 seconds")
    .optional(),
});

/** A failed OCR run: 422 with the spec's toast title as `error` and the reason as `details`. */
export const ocrFailureBody = z.object({
  error: z.literal("OCR Processing Failed"),
  details: z.string(),
  code: z.literal("OCR_FAILED"),
  requestId: z.string(),
});
export type OcrFailureBody = z.infer<typeof ocrFailureBody>;

/** The multipart field of the upload (spec section 3). */
export const WORKSHEET_FIELD = "worksheet";
/** The spec's accept filter of the Upload view (section 5), and a DICOM SR from the ultrasound machine (issue 28). */
export const WORKSHEET_ACCEPT = ".jpg,.jpeg,.png,.gif,.webp,.pdf,.dcm,application/dicom";
/**
 * POST /api/worksheets/{id}/dicom-sr (issue 28): the machine's DICOM SR beside the read worksheet, its multipart
 * field, and the form field by which the clinician confirms a differing patient is the same ("yes"). A refusal for a
 * differing patient is a 409 whose `field` is SAME_PATIENT_FIELD.
 */
export const DICOM_SR_FIELD = "dicomSr";
export const SAME_PATIENT_FIELD = "samePatient";
export const worksheetImageUrl = (id: number) => `/api/worksheets/${id}/image`;
