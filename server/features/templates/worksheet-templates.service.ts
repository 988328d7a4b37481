import { WORKSHEET_TEMPLATE_REQUIRED, worksheetCategories } from "../../../domain/contracts/templates";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { loadWorksheetPages, OcrFailure, OcrInputError } from "../../ocr/ocr-service";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import type { MultipartForm } from "../../platform/uploads";
import { readClinicFile, saveFile } from "../files/files.service";
import { zonesToCheckOf } from "../worksheets/reading-corrections.service";
import { analyzeBlankForm } from "./form-zones.service";
import { decodedImageSize } from "./image-check";
import {
  deleteWorksheetTemplate,
  findWorksheetTemplate,
  insertWorksheetTemplate,
  listWorksheetTemplates,
  setWorksheetTemplateImageUrl,
} from "./worksheet-templates.repository";

export const worksheetTemplateImageUrl = (id: number) => `/api/worksheet-templates/${id}/image`;

export async function listWorksheetTemplatesFor(db: Db, ctx: Ctx) {
  assertCan(ctx, "template:read");
  const rows = await listWorksheetTemplates(db, ctx.clinicId);
  const toCheck = await zonesToCheckOf(
    db,
    ctx.clinicId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, zonesToCheck: toCheck.get(r.id) ?? 0 }));
}

type Category = (typeof worksheetCategories)[number];

function category(value: string | undefined): Category {
  const v = value?.trim() || "vascular";
  if (!(worksheetCategories as readonly string[]).includes(v)) {
    throw new AppError("VALIDATION_FAILED", `Category must be one of: ${worksheetCategories.join(", ")}`, "category");
  }
  return v as Category;
}

/**
 * The picture drawn on: an image as uploaded (its header checked against the pixel budget), or page 1 of a PDF
 * rendered to PNG in the loading child process, never in the server, within the decoding budget.
 */
async function templateImage(file: { data: Buffer; mimeType: string }): Promise<{ data: Buffer; mimeType: string }> {
  if (file.mimeType !== "application/pdf") {
    await decodedImageSize(file.data, "worksheetFile");
    return file;
  }
  try {
    const [first] = await loadWorksheetPages(file.data, { maxPages: 1 });
    return { data: first!, mimeType: "image/png" };
  } catch (error) {
    if (error instanceof OcrInputError) {
      throw new AppError(
        error.reason === "too_large" ? "PAYLOAD_TOO_LARGE" : "BAD_REQUEST",
        error.message,
        "worksheetFile",
      );
    }
    if (error instanceof OcrFailure) {
      throw new AppError("UNAVAILABLE", "The PDF could not be processed right now. Please try again.", "worksheetFile");
    }
    throw error;
  }
}

export async function createWorksheetTemplate(db: Db, store: FileStore, ctx: Ctx, form: MultipartForm) {
  assertCan(ctx, "template:write");
  const name = form.fields.name?.trim() ?? "";
  const file = form.files.get("worksheetFile");
  if (!name || !file)
    throw new AppError("VALIDATION_FAILED", WORKSHEET_TEMPLATE_REQUIRED, name ? "worksheetFile" : "name");
  if (name.length > 255) throw new AppError("VALIDATION_FAILED", "Name must be at most 255 characters", "name");
  const description = form.fields.description?.trim() || null;
  const chosenCategory = category(form.fields.category);
  const image = await templateImage(file);
  const readingLayout = await analyzeBlankForm({ data: image.data, rendered: file.mimeType === "application/pdf" });
  return db.transaction(async (tx) => {
    const stored = await saveFile(tx, store, {
      clinicId: ctx.clinicId,
      kind: "worksheet_template",
      data: image.data,
      mimeType: image.mimeType,
      originalName: file.filename,
      createdBy: ctx.user.id,
    });
    const row = await insertWorksheetTemplate(tx, {
      clinicId: ctx.clinicId,
      name,
      description,
      category: chosenCategory,
      imageFileId: stored.id,
      originalFilename: file.filename,
      userId: ctx.user.id,
      readingLayout,
    });
    const withUrl = await setWorksheetTemplateImageUrl(tx, ctx.clinicId, row.id, worksheetTemplateImageUrl(row.id));
    await recordAudit(tx, {
      action: "worksheet_template.created",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "worksheet_template",
      entityId: row.id,
      details: { sourceType: file.mimeType, fileId: stored.id, zones: readingLayout?.zones.length ?? 0 },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return withUrl;
  });
}

export async function deleteWorksheetTemplateFor(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "template:write");
  await db.transaction(async (tx) => {
    const row = await deleteWorksheetTemplate(tx, ctx.clinicId, id);
    if (!row) throw notFound("Worksheet template");
    await recordAudit(tx, {
      action: "worksheet_template.deleted",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "worksheet_template",
      entityId: id,
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
}

/** The template's picture, for its own clinic only; the drawing feature reads it through here too. */
export async function worksheetTemplateImage(db: Queryable, store: FileStore, ctx: Ctx, id: number) {
  assertCan(ctx, "template:read");
  const row = await findWorksheetTemplate(db, ctx.clinicId, id);
  const file = row?.imageFileId ? await readClinicFile(db, store, ctx.clinicId, row.imageFileId) : undefined;
  if (!row || !file) throw notFound("Worksheet template");
  return { template: row, data: file.data, mimeType: file.row.mimeType };
}
