import { type OcrResult, ocrResultSchema } from "../../../domain/contracts/ocr";
import { DICOM_SR_FIELD, SAME_PATIENT_FIELD } from "../../../domain/contracts/worksheets";
import { AppError, notFound } from "../../../domain/errors";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { Upload } from "../../platform/uploads";
import { readClinicFile, saveFile } from "../files/files.service";
import { DicomSrError, readVascularSr } from "./dicom-sr";
import { describeMismatches, mergeSrReading, patientMismatches } from "./sr-merge";
import { addSrToReadWorksheet, findClinicWorksheet, type WorksheetRow } from "./worksheets.repository";
import { isDicomSr, type WorksheetDeps } from "./worksheets.service";

// The machine's DICOM SR beside an uploaded worksheet (issue 28 item 5): POST /api/worksheets/{id}/dicom-sr. The
// worksheet is read first; the SR is then merged into its reading (sr-merge.ts) and kept, so that reading the
// worksheet again merges it again.

export const NOT_DICOM_MESSAGE =
  "This file is not a DICOM file. Export the study's measurements from the ultrasound machine as a DICOM SR (.dcm).";

function readSr(deps: WorksheetDeps, data: Buffer) {
  try {
    return readVascularSr(data, { parameterCodes: deps.srCodes });
  } catch (error) {
    if (error instanceof DicomSrError) throw new AppError("BAD_REQUEST", error.message, DICOM_SR_FIELD);
    throw error;
  }
}

function sheetReading(row: WorksheetRow): OcrResult {
  if (isDicomSr(row)) {
    throw new AppError(
      "BAD_REQUEST",
      "This upload is itself a structured report. Add a structured report beside a worksheet image or PDF.",
    );
  }
  if (row.srFileId !== null) {
    throw new AppError(
      "CONFLICT",
      "A structured report is already added to this worksheet. To use another, upload the worksheet again.",
    );
  }
  const parsed = row.ocrStatus === "completed" && row.ocrResult ? ocrResultSchema.safeParse(row.ocrResult) : null;
  if (!parsed?.success) {
    throw new AppError(
      "CONFLICT",
      row.ocrStatus === "processing"
        ? "The worksheet is still being read. Add the structured report when its values are in the table."
        : "The worksheet has not been read. Read it first, then add the structured report.",
    );
  }
  return parsed.data;
}

/** 404 for a worksheet of another clinic before its upload is read (nor its type judged). */
export async function assertOwnWorksheet(deps: WorksheetDeps, ctx: Ctx, id: number): Promise<void> {
  if (!(await findClinicWorksheet(deps.db, ctx.clinicId, id))) throw notFound("Worksheet");
}

/**
 * Reads the SR, refuses one whose patient differs from the worksheet's unless `samePatient` (the clinician has
 * compared them), stores it beside the worksheet and returns the merged reading, which becomes the worksheet's.
 */
export async function addDicomSr(
  deps: WorksheetDeps,
  ctx: Ctx,
  id: number,
  upload: Upload,
  options: { samePatient: boolean },
): Promise<OcrResult> {
  assertCan(ctx, "worksheet:upload");
  const row = await findClinicWorksheet(deps.db, ctx.clinicId, id);
  if (!row) throw notFound("Worksheet");
  const sheet = sheetReading(row);
  const sr = readSr(deps, upload.data);
  const mismatches = patientMismatches(sheet, sr);
  if (mismatches.length > 0 && !options.samePatient) {
    throw new AppError(
      "CONFLICT",
      `The structured report may be of another patient: ${describeMismatches(mismatches)}. Check that both are from the same study. Nothing was added.`,
      SAME_PATIENT_FIELD,
    );
  }
  const merged = mergeSrReading(sheet, sr);
  const written: string[] = [];
  try {
    await deps.db.transaction(async (tx) => {
      const file = await saveFile(tx, deps.store, {
        clinicId: ctx.clinicId,
        kind: "worksheet",
        data: upload.data,
        mimeType: upload.mimeType,
        originalName: upload.filename,
        createdBy: ctx.user.id,
      });
      written.push(file.storageKey);
      const stored = await addSrToReadWorksheet(tx, ctx.clinicId, id, {
        srFileId: file.id,
        ocrResult: merged,
        patientName: merged.patientName,
        patientDob: merged.patientDob,
        examDate: merged.examDate,
        scanType: merged.scanType,
      });
      // Read again, or given an SR, since it was looked at: the clinician tries again on what stands now.
      if (!stored)
        throw new AppError("CONFLICT", "The worksheet changed meanwhile. Please add the structured report again.");
      await recordAudit(tx, {
        action: "worksheet.dicom_sr_added",
        clinicId: ctx.clinicId,
        actorUserId: ctx.user.id,
        entityType: "worksheet",
        entityId: id,
        // Which fields differed (names only, no patient data) when the clinician confirmed the same patient.
        details: {
          byteSize: upload.data.length,
          measurements: sr.measurements.length,
          patientMismatchConfirmed: mismatches.map((m) => m.field),
        },
        ip: ctx.ip,
        requestId: ctx.requestId,
      });
    });
  } catch (error) {
    await Promise.all(written.map((key) => deps.store.remove(key).catch(() => undefined)));
    throw error;
  }
  return merged;
}

/** A worksheet's reading with its SR merged in again (after OCR reads the sheet anew); the reading as it is without one. */
export async function withAddedSr(deps: WorksheetDeps, clinicId: number, row: WorksheetRow, reading: OcrResult) {
  if (row.srFileId === null) return reading;
  const file = await readClinicFile(deps.db, deps.store, clinicId, row.srFileId);
  if (!file) throw new Error("the worksheet's structured report is missing from the store");
  return mergeSrReading(reading, readVascularSr(file.data, { parameterCodes: deps.srCodes }));
}
