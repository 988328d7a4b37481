import { fileTypeFromBuffer } from "file-type";
import type { z } from "zod";
import type {
  CreateDigitalWorksheetRequest,
  DigitalWorksheet,
  saveDigitalWorksheetRequest,
} from "../../../domain/contracts/drawings";
import { restoreDrawing } from "../../../domain/drawing/drawing-document";
import { AppError, notFound } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import {
  clinicHasSonographer,
  clinicHasTemplate,
  type DigitalWorksheetRow,
  findDigitalWorksheet,
  insertDigitalWorksheet,
  listDigitalWorksheets,
  reportOfDrawing,
  updateDraftDigitalWorksheet,
} from "./drawings.repository";

/** Decodes an image data URL and checks that its bytes really are the PNG or JPEG it claims. */
export async function decodeImageDataUrl(dataUrl: string): Promise<{ data: Buffer; mimeType: string }> {
  const data = Buffer.from(dataUrl.slice(dataUrl.indexOf(",") + 1), "base64");
  const detected = await fileTypeFromBuffer(data);
  if (!detected || (detected.mime !== "image/png" && detected.mime !== "image/jpeg")) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "The drawing is not a PNG or JPEG image", "drawingData");
  }
  return { data, mimeType: detected.mime };
}

export async function toDigitalWorksheet(db: Db, row: DigitalWorksheetRow): Promise<DigitalWorksheet> {
  const report = await reportOfDrawing(db, row.clinicId, row.id);
  return {
    id: row.id,
    templateId: row.templateId,
    patientName: row.patientName,
    patientDob: row.patientDob,
    examDate: row.examDate,
    studyType: row.studyType,
    sonographerId: row.sonographerId,
    isDraft: row.isDraft,
    completedAt: row.completedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    imageUrl: `/api/digital-worksheets/${row.id}/image`,
    vectorData: restoreDrawing(row.vectorData),
    reportId: report?.id ?? null,
  };
}

export async function startDrawingSession(db: Db, ctx: Ctx, body: CreateDigitalWorksheetRequest) {
  assertCan(ctx, "drawing:write");
  if (!(await clinicHasTemplate(db, ctx.clinicId, body.templateId))) throw notFound("Worksheet template");
  if (!(await clinicHasSonographer(db, ctx.clinicId, body.sonographerId))) throw notFound("Sonographer");
  if (body.drawingData) await decodeImageDataUrl(body.drawingData);
  const row = await db.transaction(async (tx) => {
    const created = await insertDigitalWorksheet(tx, {
      clinicId: ctx.clinicId,
      templateId: body.templateId,
      patientName: body.patientName,
      patientDob: body.patientDob ?? null,
      examDate: body.examDate,
      studyType: body.studyType || null,
      sonographerId: body.sonographerId,
      drawingData: body.drawingData,
      vectorData: restoreDrawing(null),
      userId: ctx.user.id,
    });
    await recordAudit(tx, {
      action: "drawing.created",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "digital_worksheet",
      entityId: created.id,
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return created;
  });
  return toDigitalWorksheet(db, row);
}

export async function getDrawingSession(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "report:read");
  const row = await findDigitalWorksheet(db, ctx.clinicId, id);
  if (!row) throw notFound("Drawing session");
  return row;
}

export async function listDrawingSessions(db: Db, ctx: Ctx) {
  assertCan(ctx, "report:read");
  const rows = await listDigitalWorksheets(db, ctx.clinicId);
  return Promise.all(rows.map((row) => toDigitalWorksheet(db, row)));
}

/** Autosave: the flattened image, the snapshot history and the vectors. Completed sessions are read-only. */
export async function saveDrawingSession(
  db: Db,
  ctx: Ctx,
  id: number,
  body: z.infer<typeof saveDigitalWorksheetRequest>,
) {
  assertCan(ctx, "drawing:write");
  const existing = await getDrawingSession(db, ctx, id);
  if (existing.completedAt)
    throw new AppError("CONFLICT", "This drawing is part of a report and can no longer be changed");
  if (body.drawingData) await decodeImageDataUrl(body.drawingData);
  const row = await updateDraftDigitalWorksheet(db, ctx.clinicId, id, {
    ...(body.drawingData ? { drawingData: body.drawingData } : {}),
    ...(body.drawingHistory !== undefined ? { drawingHistory: body.drawingHistory } : {}),
    ...(body.vectorData !== undefined ? { vectorData: restoreDrawing(body.vectorData) } : {}),
  });
  if (!row) throw new AppError("CONFLICT", "This drawing is part of a report and can no longer be changed");
  return toDigitalWorksheet(db, row);
}

export async function drawingImage(db: Db, ctx: Ctx, id: number) {
  const row = await getDrawingSession(db, ctx, id);
  if (!row.drawingData) throw notFound("Drawing image");
  return decodeImageDataUrl(row.drawingData);
}
