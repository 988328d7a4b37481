import { and, eq, isNotNull } from "drizzle-orm";
import type { WorksheetZone, WorksheetZonesResponse } from "../../../domain/contracts/worksheet-zones";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { worksheetTemplates } from "../../db/schema";
import { analyzeWorksheetForm, loadWorksheetPages, OcrFailure, OcrInputError } from "../../ocr/ocr-service";
import { type ReadingTemplate, usableForReading } from "../../ocr/templates/match-form";
import type { FormLayout } from "../../ocr/templates/propose-zones";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { zoneCorrectionNotices } from "../worksheets/reading-corrections.service";
import { findWorksheetTemplate } from "./worksheet-templates.repository";

/**
 * Reads a blank form just uploaded (`image`: the uploaded image, or page 1 of a PDF already rendered) and proposes
 * its reading zones. An image is first set upright and bounded as worksheets are (the loading child), so the zones
 * are in the frame a filled sheet is read in. A form the reader cannot analyse (the OCR machinery failed) is
 * still kept as a picture, without zones: it is then never used for reading.
 */
export async function analyzeBlankForm(image: { data: Buffer; rendered: boolean }): Promise<FormLayout | null> {
  try {
    const [page] = image.rendered ? [image.data] : await loadWorksheetPages(image.data, { maxPages: 1 });
    if (!page) return null;
    return await analyzeWorksheetForm(page);
  } catch (error) {
    if (error instanceof OcrInputError) throw new AppError("BAD_REQUEST", error.message, "worksheetFile");
    if (error instanceof OcrFailure) return null;
    throw error;
  }
}

const zonesOut = (
  id: number,
  layout: FormLayout | null,
  corrections: WorksheetZonesResponse["corrections"],
): WorksheetZonesResponse => ({
  templateId: id,
  width: layout?.width ?? 0,
  height: layout?.height ?? 0,
  readable: layout ? usableForReading(layout) : false,
  zones: layout?.zones ?? [],
  corrections,
});

export async function worksheetTemplateZones(db: Queryable, ctx: Ctx, id: number): Promise<WorksheetZonesResponse> {
  assertCan(ctx, "template:read");
  const row = await findWorksheetTemplate(db, ctx.clinicId, id);
  if (!row) throw notFound("Worksheet template");
  return zonesOut(row.id, row.readingLayout, await zoneCorrectionNotices(db, ctx.clinicId, row.id, row.readingLayout));
}

/** Saves an admin's zones (moved, resized, assigned, removed or added) for the form's next readings. */
export async function saveWorksheetTemplateZones(db: Db, ctx: Ctx, id: number, zones: WorksheetZone[]) {
  assertCan(ctx, "template:write");
  return db.transaction(async (tx) => {
    const row = await findWorksheetTemplate(tx, ctx.clinicId, id);
    if (!row) throw notFound("Worksheet template");
    const layout = row.readingLayout;
    if (!layout) {
      throw new AppError("CONFLICT", "This form could not be analysed, so it has no zones to adjust. Upload it again.");
    }
    const ids = new Set<string>();
    for (const z of zones) {
      if (ids.has(z.id)) throw new AppError("VALIDATION_FAILED", "Two zones have the same id", "zones");
      ids.add(z.id);
      if (z.x + z.width > layout.width + 1 || z.y + z.height > layout.height + 1) {
        throw new AppError("VALIDATION_FAILED", "A zone lies outside the form", "zones");
      }
    }
    const fields = zones.flatMap((z) => (z.kind === "field" ? [z.field] : []));
    const repeated = fields.find((f, i) => fields.indexOf(f) !== i);
    if (repeated) throw new AppError("VALIDATION_FAILED", `Two zones read the same field (${repeated})`, "zones");
    const next: FormLayout = {
      ...layout,
      zones,
      editedZoneIds: editedZoneIds(layout, zones),
      zonesSavedAt: new Date().toISOString(),
    };
    await tx
      .update(worksheetTemplates)
      .set({ readingLayout: next, updatedAt: new Date() })
      .where(and(eq(worksheetTemplates.clinicId, ctx.clinicId), eq(worksheetTemplates.id, id)));
    await recordAudit(tx, {
      action: "worksheet_template.zones_updated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "worksheet_template",
      entityId: id,
      details: { zones: zones.length },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return zonesOut(id, next, []);
  });
}

/**
 * The zones an admin has touched: added, moved, resized or reassigned now, or before and still there. Their
 * reading keeps priority over the general reader's (read-by-template.ts).
 */
export function editedZoneIds(before: FormLayout, zones: WorksheetZone[]): string[] {
  const was = new Map(before.zones.map((z) => [z.id, JSON.stringify(z)]));
  const already = new Set(before.editedZoneIds ?? []);
  return zones.filter((z) => already.has(z.id) || was.get(z.id) !== JSON.stringify(z)).map((z) => z.id);
}

/** The clinic's forms a filled sheet may be read by. */
export async function readingTemplatesOf(db: Queryable, clinicId: number): Promise<ReadingTemplate[]> {
  const rows = await db
    .select({ id: worksheetTemplates.id, layout: worksheetTemplates.readingLayout })
    .from(worksheetTemplates)
    .where(and(eq(worksheetTemplates.clinicId, clinicId), isNotNull(worksheetTemplates.readingLayout)));
  return rows.flatMap((r) => (r.layout && usableForReading(r.layout) ? [{ id: r.id, ...r.layout }] : []));
}
