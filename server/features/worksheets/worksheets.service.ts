import { ocrResultSchema } from "../../../domain/contracts/ocr";
import {
  type OcrStatus,
  type WorksheetDetail,
  type WorksheetRecord,
  worksheetImageUrl,
} from "../../../domain/contracts/worksheets";
import { AppError, notFound } from "../../../domain/errors";
import type { ParameterCodes } from "../../../domain/interop/dicom-sr-codes";
import type { Db } from "../../db/client";
import { loadWorksheetPages, OcrFailure, OcrInputError } from "../../ocr/ocr-service";
import { recordAudit, recordAuditAlone } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { loadSharp } from "../../platform/sharp";
import { DICOM_TYPE, type Upload } from "../../platform/uploads";
import { readClinicFile, saveFile } from "../files/files.service";
import { DicomSrError, readVascularSr } from "./dicom-sr";
import {
  findClinicWorksheet,
  insertWorksheet,
  updateClinicWorksheet,
  type WorksheetRow,
} from "./worksheets.repository";

/** `srCodes`: the vendor measurement codes configured for DICOM SRs (DICOM_SR_PARAMETER_CODES). */
export type WorksheetDeps = { db: Db; store: FileStore; srCodes?: ParameterCodes };

/** Lossless PNG keeps the page exactly as OCR saw it; past this size a photo is sent to browsers as JPEG instead. */
const MAX_PNG_PAGE_BYTES = 2.5 * 1024 * 1024;
const extensions: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "application/pdf": "pdf",
  [DICOM_TYPE]: "dcm",
};

/** A DICOM Structured Report uploaded in place of the sheet: its "OCR" reads the report's codes. */
export const isDicomSr = (row: Pick<WorksheetRow, "filename">) => row.filename.endsWith(".dcm");

function toRecord(row: WorksheetRow): WorksheetRecord {
  return {
    id: row.id,
    filename: row.filename,
    originalName: row.originalName,
    fileUrl: row.fileUrl,
    uploadedAt: row.uploadedAt.toISOString(),
    patientName: row.patientName,
    patientDob: row.patientDob,
    examDate: row.examDate,
    scanType: row.scanType,
    pageCount: row.pageCount,
    ocrProcessed: row.ocrProcessed,
    ocrStatus: row.ocrStatus as OcrStatus,
    ocrError: row.ocrError,
    kind: isDicomSr(row) ? "dicom-sr" : "worksheet",
  };
}

/** A DICOM that gives no measurements is the uploader's problem, said in words (not an image, no vascular values). */
function readSrOrClientError(data: Buffer, srCodes?: ParameterCodes) {
  try {
    return readVascularSr(data, { parameterCodes: srCodes });
  } catch (error) {
    if (error instanceof DicomSrError) throw new AppError("BAD_REQUEST", error.message, "worksheet");
    throw error;
  }
}

/** A file that cannot be read as a worksheet is the uploader's problem (4xx); a broken OCR machine is ours. */
function pagesOrClientError(error: unknown): never {
  if (error instanceof OcrInputError) {
    throw new AppError(error.reason === "too_large" ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST", error.message, "worksheet");
  }
  if (error instanceof OcrFailure) {
    throw new AppError("UNAVAILABLE", "The worksheet could not be processed right now. Please try again.");
  }
  throw error;
}

/** The first page as the clinician will see it: pixel for pixel what OCR read, so its boxes line up. */
async function pageImage(page: Buffer): Promise<{ data: Buffer; mimeType: string }> {
  if (page.length <= MAX_PNG_PAGE_BYTES) return { data: page, mimeType: "image/png" };
  return { data: await (await loadSharp())(page).jpeg({ quality: 88 }).toBuffer(), mimeType: "image/jpeg" };
}

/**
 * Validates the file by opening it (every page of a PDF is rasterised, an image is set upright) before anything
 * is stored, then stores encrypted the original, the first page as the clinician sees it and every page as OCR
 * will read it (pagesForOcr), and records the worksheet.
 */
export async function uploadWorksheet(deps: WorksheetDeps, ctx: Ctx, upload: Upload): Promise<WorksheetRecord> {
  assertCan(ctx, "worksheet:upload");
  // A DICOM SR has no page: it is checked by reading its measurements, and only the original is stored.
  const dicom = upload.mimeType === DICOM_TYPE;
  if (dicom) readSrOrClientError(upload.data, deps.srCodes);
  const pages = dicom ? [] : await loadWorksheetPages(upload.data).catch(pagesOrClientError);
  if (!dicom && pages.length === 0) throw new AppError("BAD_REQUEST", "The file has no pages.", "worksheet");
  const first = pages[0] ? await pageImage(pages[0]) : null;
  const written: string[] = [];
  try {
    const row = await deps.db.transaction(async (tx) => {
      const original = await saveFile(tx, deps.store, {
        clinicId: ctx.clinicId,
        kind: "worksheet",
        data: upload.data,
        mimeType: upload.mimeType,
        originalName: upload.filename,
        createdBy: ctx.user.id,
      });
      written.push(original.storageKey);
      const image = first
        ? await saveFile(tx, deps.store, {
            clinicId: ctx.clinicId,
            kind: "worksheet-page",
            data: first.data,
            mimeType: first.mimeType,
            createdBy: ctx.user.id,
          })
        : null;
      if (image) written.push(image.storageKey);
      // Every page as OCR will read it, stored now so that OCR never renders the original again: page 1 is the
      // image above when it was kept as rendered; the other pages (and page 1 when the image was re-encoded as
      // JPEG) are stored beside it, encrypted like every file.
      const pageFileIds: number[] = [];
      for (const [n, page] of pages.entries()) {
        if (n === 0 && image && first?.data === page) {
          pageFileIds.push(image.id);
          continue;
        }
        const stored = await saveFile(tx, deps.store, {
          clinicId: ctx.clinicId,
          kind: "worksheet-page",
          data: page,
          mimeType: "image/png",
          createdBy: ctx.user.id,
        });
        written.push(stored.storageKey);
        pageFileIds.push(stored.id);
      }
      const inserted = await insertWorksheet(tx, {
        clinicId: ctx.clinicId,
        filename: `worksheet-${original.id}.${extensions[upload.mimeType] ?? "bin"}`,
        originalName: upload.filename,
        // The id is only known after the insert; the URL is set in the same transaction.
        fileUrl: "",
        fileId: original.id,
        imageFileId: image?.id ?? null,
        pageFileIds: dicom ? null : pageFileIds,
        pageCount: pages.length,
        uploadedBy: ctx.user.id,
      });
      const withUrl = await updateClinicWorksheet(tx, ctx.clinicId, inserted.id, {
        fileUrl: worksheetImageUrl(inserted.id),
      });
      await recordAudit(tx, {
        action: "worksheet.uploaded",
        clinicId: ctx.clinicId,
        actorUserId: ctx.user.id,
        entityType: "worksheet",
        entityId: inserted.id,
        // No file name: people name scans after the patient.
        details: { mimeType: upload.mimeType, byteSize: upload.data.length, pageCount: pages.length },
        ip: ctx.ip,
        requestId: ctx.requestId,
      });
      return withUrl!;
    });
    return toRecord(row);
  } catch (error) {
    // The rows were rolled back: remove the encrypted bytes too, so a failed upload leaves nothing behind.
    await Promise.all(written.map((key) => deps.store.remove(key).catch(() => undefined)));
    throw error;
  }
}

async function requireWorksheet(deps: WorksheetDeps, ctx: Ctx, id: number): Promise<WorksheetRow> {
  const row = await findClinicWorksheet(deps.db, ctx.clinicId, id);
  if (!row) throw notFound("Worksheet");
  return row;
}

/** Reading what OCR read of a worksheet (patient data) is audited, by every route that shows it. */
export function auditWorksheetViewed(db: Db, ctx: Ctx, id: number): Promise<void> {
  return recordAuditAlone(db, {
    action: "worksheet.viewed",
    clinicId: ctx.clinicId,
    actorUserId: ctx.user.id,
    entityType: "worksheet",
    entityId: id,
    ip: ctx.ip,
    requestId: ctx.requestId,
  });
}

/** The worksheet with what OCR read (patient data): reading it is audited. */
export async function getWorksheet(deps: WorksheetDeps, ctx: Ctx, id: number): Promise<WorksheetDetail> {
  assertCan(ctx, "worksheet:read");
  const row = await requireWorksheet(deps, ctx, id);
  await auditWorksheetViewed(deps.db, ctx, id);
  const parsed = row.ocrResult ? ocrResultSchema.safeParse(row.ocrResult) : null;
  return { ...toRecord(row), ocrResult: parsed?.success ? parsed.data : null };
}

/** The first page image (or, for rows without one, the original when it is an image). */
export async function readWorksheetImage(
  deps: WorksheetDeps,
  ctx: Ctx,
  id: number,
): Promise<{ data: Buffer; mimeType: string }> {
  assertCan(ctx, "worksheet:read");
  const row = await requireWorksheet(deps, ctx, id);
  const file = await readClinicFile(deps.db, deps.store, ctx.clinicId, row.imageFileId ?? row.fileId);
  if (!file?.row.mimeType.startsWith("image/")) throw notFound("Worksheet image");
  return { data: file.data, mimeType: file.row.mimeType };
}

/**
 * The page images OCR reads: the pages rendered (a PDF) or set upright and flattened (a photo) and checked at
 * upload, stored as they were (pageFileIds), so the original is rendered once (issue 30). Worksheets uploaded
 * before the pages were stored: a one-page worksheet's page image when it was kept as PNG, else the original is
 * loaded again.
 */
export async function pagesForOcr(
  deps: WorksheetDeps,
  clinicId: number,
  row: WorksheetRow,
  onPage?: () => void,
): Promise<Buffer[]> {
  const ids = row.pageFileIds;
  if (ids && ids.length > 0 && ids.length === row.pageCount) {
    return Promise.all(
      ids.map(async (id) => {
        const page = await readClinicFile(deps.db, deps.store, clinicId, id);
        if (!page) throw new Error("a page of the worksheet is missing from the store");
        onPage?.();
        return page.data;
      }),
    );
  }
  if (row.pageCount === 1 && row.imageFileId) {
    const page = await readClinicFile(deps.db, deps.store, clinicId, row.imageFileId);
    if (page?.row.mimeType === "image/png") return [page.data];
  }
  const file = await readClinicFile(deps.db, deps.store, clinicId, row.fileId);
  if (!file) throw new Error("the worksheet's file is missing from the store");
  return loadWorksheetPages(file.data, { onPage });
}
