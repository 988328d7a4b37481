import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { type OcrFieldName, type OcrResult, ocrResultSchema } from "../../../domain/contracts/ocr";
import type { PatientInput } from "../../../domain/contracts/reports";
import type { ZoneCorrectionNotice } from "../../../domain/contracts/worksheet-zones";
import type { Db, Queryable } from "../../db/client";
import { ocrCorrections, ocrLabelAliases, ocrReviews, worksheets, worksheetTemplates } from "../../db/schema";
import type { LabelAlias, LabelField } from "../../ocr/field-labels";
import {
  aliasActive,
  type CheckedValues,
  type Correction,
  correctedWordings,
  correctionsOf,
  nextAliasCount,
} from "../../ocr/reading-corrections";
import type { FormLayout } from "../../ocr/templates/propose-zones";
import { recordAudit } from "../../platform/audit";
import type { Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { loadSharp } from "../../platform/sharp";
import { readClinicFile } from "../files/files.service";

export type CorrectionDeps = { db: Db; store: FileStore };

/** A zone corrected on at least `corrected` of a form's last `last` checked sheets is offered for adjustment. */
export const ZONE_NOTICE = { last: 5, corrected: 3 } as const;
/** Margin around a field's box in its crop, in its own heights. */
const CROP_MARGIN = 0.5;

/** The checked patient and header values of a generate request, by the reading's field names. */
export function checkedValuesOf(patient: PatientInput | undefined): CheckedValues {
  if (!patient) return {};
  const out: CheckedValues = {
    patientName: patient.patientName,
    patientDob: patient.patientDob || null,
    examDate: patient.examDate || null,
  };
  const header: [keyof PatientInput, OcrFieldName][] = [
    ["mrn", "mrn"],
    ["patientSex", "sex"],
    ["referringPhysician", "referringPhysician"],
    ["sonographerName", "sonographer"],
    ["indication", "indication"],
    ["sonographerComments", "comments"],
  ];
  for (const [from, to] of header) {
    const value = patient[from];
    if (value !== undefined) out[to] = typeof value === "string" ? value : null;
  }
  return out;
}

/** The page around a read field, as the clinician saw it: a PNG, or null when there is no box or image. */
async function cropOf(image: Buffer | null, correction: Correction): Promise<Buffer | null> {
  const box = correction.box;
  if (!image || !box || box.page !== 0) return null;
  const { width = 0, height = 0 } = await (await loadSharp())(image).metadata();
  const margin = CROP_MARGIN * box.height;
  const left = Math.max(0, Math.floor(box.x - margin));
  const top = Math.max(0, Math.floor(box.y - margin));
  const right = Math.min(width, Math.ceil(box.x + box.width + margin));
  const bottom = Math.min(height, Math.ceil(box.y + box.height + margin));
  if (right - left < 2 || bottom - top < 2) return null;
  return (await loadSharp())(image)
    .extract({ left, top, width: right - left, height: bottom - top })
    .png()
    .toBuffer();
}

/**
 * Keeps what the clinician corrected in a worksheet's reading before its first report (issue 23 item 4): one
 * review per worksheet, each corrected field with its crop sealed, and each label wording that stood before a
 * corrected value and does not already name that field counted towards an alias for the clinic. A worksheet
 * reviewed before (a second report from it) adds nothing.
 */
export async function recordReadingReview(
  deps: CorrectionDeps,
  ctx: Ctx,
  worksheetId: number,
  patient: PatientInput | undefined,
  now: Date,
): Promise<{ corrected: OcrFieldName[]; aliases: string[] } | null> {
  const [row] = await deps.db
    .select({ ocrResult: worksheets.ocrResult, imageFileId: worksheets.imageFileId })
    .from(worksheets)
    .where(and(eq(worksheets.clinicId, ctx.clinicId), eq(worksheets.id, worksheetId)));
  const parsed = row?.ocrResult ? ocrResultSchema.safeParse(row.ocrResult) : null;
  if (!row || !parsed?.success || !patient) return null;
  const result: OcrResult = parsed.data;
  // A DICOM SR's header was not read by OCR: changing it teaches the reader nothing.
  if (result.source === "dicom-sr") return null;
  const [seen] = await deps.db
    .select({ id: ocrReviews.id })
    .from(ocrReviews)
    .where(and(eq(ocrReviews.clinicId, ctx.clinicId), eq(ocrReviews.worksheetId, worksheetId)));
  if (seen) return null;

  const checked = checkedValuesOf(patient);
  const corrections = correctionsOf(result, checked);
  const zones = await zonesOf(deps.db, ctx.clinicId, result.worksheetTemplateId ?? null);
  const image =
    corrections.length && row.imageFileId
      ? ((await readClinicFile(deps.db, deps.store, ctx.clinicId, row.imageFileId))?.data ?? null)
      : null;
  const wordings = correctedWordings(result, checked, corrections, now);
  const prepared = await Promise.all(
    corrections.map(async (c, i) => ({ correction: c, crop: await cropOf(image, c), wording: wordings[i] ?? null })),
  );
  const learnt: string[] = [];
  await deps.db.transaction(async (tx) => {
    const [review] = await tx
      .insert(ocrReviews)
      .values({
        clinicId: ctx.clinicId,
        worksheetId,
        worksheetTemplateId: result.layout === "template" ? (result.worksheetTemplateId ?? null) : null,
        correctedFields: corrections.map((c) => c.field),
        createdBy: ctx.user.id,
      })
      .onConflictDoNothing()
      .returning({ id: ocrReviews.id });
    if (!review) return;
    for (const { correction: c, crop, wording } of prepared) {
      const sealed = deps.store.encrypt(
        Buffer.from(
          JSON.stringify({ read: c.read, corrected: c.corrected, box: c.box, crop: crop?.toString("base64") ?? null }),
        ),
      );
      await tx.insert(ocrCorrections).values({
        clinicId: ctx.clinicId,
        reviewId: review.id,
        field: c.field,
        zoneId: zones.get(c.field) ?? null,
        labelWording: wording,
        sealed: sealed.toString("base64"),
      });
      if (wording && (await countWording(tx, ctx.clinicId, wording, c.field))) learnt.push(wording);
    }
    await recordAudit(tx, {
      action: "worksheet.reading_checked",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "worksheet",
      entityId: worksheetId,
      // Field names and printed label words only: the values stay sealed.
      details: { corrected: corrections.map((c) => c.field), labelWordings: learnt.length },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
  return { corrected: corrections.map((c) => c.field), aliases: learnt };
}

/**
 * Counts one more correction showing `wording` before a value of `field`. A wording that already names the field
 * teaches nothing; a wording last seen naming another field starts its count again. True when it is an alias now.
 */
async function countWording(tx: Queryable, clinicId: number, wording: string, field: OcrFieldName) {
  if (!aliasActive(wording, field, Number.POSITIVE_INFINITY)) return false;
  const [existing] = await tx
    .select()
    .from(ocrLabelAliases)
    .where(and(eq(ocrLabelAliases.clinicId, clinicId), eq(ocrLabelAliases.wording, wording)));
  const seen = nextAliasCount(existing, field);
  if (existing) {
    await tx
      .update(ocrLabelAliases)
      .set({ field, seen, updatedAt: new Date() })
      .where(eq(ocrLabelAliases.id, existing.id));
  } else {
    await tx.insert(ocrLabelAliases).values({ clinicId, wording, field, seen });
  }
  return aliasActive(wording, field, seen);
}

/** The clinic's label aliases the reader uses (those with enough corrections behind them). */
export async function activeAliasesOf(db: Queryable, clinicId: number): Promise<LabelAlias[]> {
  const rows = await db
    .select({ wording: ocrLabelAliases.wording, field: ocrLabelAliases.field, seen: ocrLabelAliases.seen })
    .from(ocrLabelAliases)
    .where(eq(ocrLabelAliases.clinicId, clinicId));
  return rows
    .filter((r) => aliasActive(r.wording, r.field as OcrFieldName, r.seen))
    .map((r) => ({ wording: r.wording, field: r.field as LabelField }));
}

/** The field zones of one of the clinic's forms, by field. */
async function zonesOf(db: Queryable, clinicId: number, templateId: number | null): Promise<Map<OcrFieldName, string>> {
  if (!templateId) return new Map();
  const [row] = await db
    .select({ layout: worksheetTemplates.readingLayout })
    .from(worksheetTemplates)
    .where(and(eq(worksheetTemplates.clinicId, clinicId), eq(worksheetTemplates.id, templateId)));
  return new Map((row?.layout?.zones ?? []).flatMap((z) => (z.kind === "field" ? [[z.field, z.id] as const] : [])));
}

/**
 * The field zones of a form corrected on at least ZONE_NOTICE.corrected of its last ZONE_NOTICE.last checked
 * sheets since its zones were last saved: the admin is offered to adjust them.
 */
export async function zoneCorrectionNotices(
  db: Queryable,
  clinicId: number,
  templateId: number,
  layout: FormLayout | null,
): Promise<ZoneCorrectionNotice[]> {
  if (!layout) return [];
  const since = layout.zonesSavedAt ? new Date(layout.zonesSavedAt) : new Date(0);
  const reviews = await db
    .select({ corrected: ocrReviews.correctedFields })
    .from(ocrReviews)
    .where(
      and(
        eq(ocrReviews.clinicId, clinicId),
        eq(ocrReviews.worksheetTemplateId, templateId),
        gt(ocrReviews.createdAt, since),
      ),
    )
    .orderBy(desc(ocrReviews.createdAt), desc(ocrReviews.id))
    .limit(ZONE_NOTICE.last);
  const notices: ZoneCorrectionNotice[] = [];
  for (const zone of layout.zones) {
    if (zone.kind !== "field") continue;
    const corrected = reviews.filter((r) => r.corrected.includes(zone.field)).length;
    if (corrected >= ZONE_NOTICE.corrected) {
      notices.push({ zoneId: zone.id, field: zone.field, corrected, of: reviews.length });
    }
  }
  return notices;
}

/** How many zones of each of the clinic's forms are offered for adjustment (for the Templates list). */
export async function zonesToCheckOf(db: Queryable, clinicId: number, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: worksheetTemplates.id, layout: worksheetTemplates.readingLayout })
    .from(worksheetTemplates)
    .where(and(eq(worksheetTemplates.clinicId, clinicId), inArray(worksheetTemplates.id, ids)));
  for (const r of rows) out.set(r.id, (await zoneCorrectionNotices(db, clinicId, r.id, r.layout)).length);
  return out;
}
