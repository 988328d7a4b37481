import {
  LEGEND_TITLE_REQUIRED,
  type LegendFormFields,
  legendFormFields,
  MEDICAL_MEANING_REQUIRED,
} from "../../../domain/contracts/templates";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import type { MultipartForm, Upload } from "../../platform/uploads";
import { saveFile } from "../files/files.service";
import { decodedImageSize } from "./image-check";
import {
  deleteLegendEntry,
  findLegendEntry,
  insertLegendEntry,
  type LegendEntryRow,
  listActiveKeywordEntries,
  listLegendEntries,
  updateLegendEntry,
} from "./legend.repository";
import { checkedDrawingDataUrl } from "./legend-drawing";

export type { LegendEntryRow };
export type LegendMatch = { id: number; title: string; medicalMeaning: string };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Splits "reflux, DVT ,, occlusion" into its non-empty keywords. */
export function splitKeywords(keywords: string | null | undefined): string[] {
  return (keywords ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
}

/** Whole-word, case-insensitive; letters and digits of any script count as word characters. */
export function keywordOccurs(keyword: string, text: string): boolean {
  const words = keyword.split(/\s+/).map(escapeRegExp).join("\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${words}(?![\\p{L}\\p{N}_])`, "iu").test(text);
}

/**
 * The clinic's active legend entries whose keywords occur in the text (worksheet text or drawing
 * notes). Report generation adds their medical meaning. Called by the reports feature without a
 * request context: the clinic id comes from the report being generated.
 */
export async function activeLegendMatches(db: Queryable, clinicId: number, text: string): Promise<LegendMatch[]> {
  if (!text.trim()) return [];
  const entries = await listActiveKeywordEntries(db, clinicId);
  return entries
    .filter((e) => splitKeywords(e.keywords).some((k) => keywordOccurs(k, text)))
    .map(({ id, title, medicalMeaning }) => ({ id, title, medicalMeaning }));
}

export async function listLegend(db: Db, ctx: Ctx) {
  assertCan(ctx, "template:read");
  return listLegendEntries(db, ctx.clinicId);
}

function parseFields(raw: Record<string, string>): LegendFormFields {
  const parsed = legendFormFields.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "request");
    throw new AppError("VALIDATION_FAILED", issue.message, field);
  }
  return parsed.data;
}

function required(value: string | undefined, field: string, message: string): string {
  const v = value?.trim() ?? "";
  if (!v) throw new AppError("VALIDATION_FAILED", message, field);
  return v;
}

async function saveExample(db: Queryable, store: FileStore, ctx: Ctx, file: Upload): Promise<string> {
  await decodedImageSize(file.data, "exampleImage");
  const saved = await saveFile(db, store, {
    clinicId: ctx.clinicId,
    kind: "legend_example",
    data: file.data,
    mimeType: file.mimeType,
    originalName: file.filename,
    createdBy: ctx.user.id,
  });
  return saved.url;
}

const audit = (ctx: Ctx, action: "legend.created" | "legend.updated" | "legend.deleted", id: number) => ({
  action,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  entityType: "legend_entry",
  entityId: id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

export async function createLegendEntry(db: Db, store: FileStore, ctx: Ctx, form: MultipartForm) {
  assertCan(ctx, "legend:write");
  const f = parseFields(form.fields);
  const title = required(f.title, "title", LEGEND_TITLE_REQUIRED);
  const medicalMeaning = required(f.medicalMeaning, "medicalMeaning", MEDICAL_MEANING_REQUIRED);
  const imageType = f.imageType ?? "upload";
  const drawingData = imageType === "drawing" ? await checkedDrawingDataUrl(f.drawingData) : null;
  const upload = imageType === "upload" ? form.files.get("exampleImage") : undefined;
  return db.transaction(async (tx) => {
    const exampleImage = upload ? await saveExample(tx, store, ctx, upload) : null;
    const row = await insertLegendEntry(tx, {
      clinicId: ctx.clinicId,
      title,
      description: f.description,
      medicalMeaning,
      drawingPattern: f.drawingPattern,
      category: f.category ?? "vascular",
      keywords: f.keywords,
      exampleImage,
      drawingData,
      imageType,
      isActive: f.isActive !== "false",
      createdBy: ctx.user.id,
    });
    await recordAudit(tx, { ...audit(ctx, "legend.created", row.id), details: { imageType, isActive: row.isActive } });
    return row;
  });
}

/** Same multipart as create; fields left out keep their value. The unused picture kind is cleared. */
export async function updateLegendEntryFor(db: Db, store: FileStore, ctx: Ctx, id: number, form: MultipartForm) {
  assertCan(ctx, "legend:write");
  const existing = await findLegendEntry(db, ctx.clinicId, id);
  if (!existing) throw notFound("Legend entry");
  const f = parseFields(form.fields);
  const imageType = f.imageType ?? (existing.imageType as "upload" | "drawing");
  const changes: Partial<LegendEntryRow> = { imageType };
  if (f.title !== undefined) changes.title = required(f.title, "title", LEGEND_TITLE_REQUIRED);
  if (f.medicalMeaning !== undefined) {
    changes.medicalMeaning = required(f.medicalMeaning, "medicalMeaning", MEDICAL_MEANING_REQUIRED);
  }
  if ("description" in form.fields) changes.description = f.description;
  if ("keywords" in form.fields) changes.keywords = f.keywords;
  if ("drawingPattern" in form.fields) changes.drawingPattern = f.drawingPattern;
  if (f.category) changes.category = f.category;
  if (f.isActive) changes.isActive = f.isActive === "true";
  if (imageType === "drawing") {
    changes.exampleImage = null;
    changes.drawingData =
      f.drawingData || !existing.drawingData ? await checkedDrawingDataUrl(f.drawingData) : existing.drawingData;
  } else {
    changes.drawingData = null;
  }
  const upload = imageType === "upload" ? form.files.get("exampleImage") : undefined;
  return db.transaction(async (tx) => {
    if (upload) changes.exampleImage = await saveExample(tx, store, ctx, upload);
    const row = await updateLegendEntry(tx, ctx.clinicId, id, changes);
    if (!row) throw notFound("Legend entry");
    await recordAudit(tx, { ...audit(ctx, "legend.updated", id), details: { fields: Object.keys(changes) } });
    return row;
  });
}

export async function deleteLegendEntryFor(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "legend:write");
  await db.transaction(async (tx) => {
    const row = await deleteLegendEntry(tx, ctx.clinicId, id);
    if (!row) throw notFound("Legend entry");
    await recordAudit(tx, audit(ctx, "legend.deleted", id));
  });
}
