import sharp from "sharp";
import {
  type OcrFieldName,
  type OcrFields,
  type OcrMeasurement,
  type OcrObservation,
  type OcrResult,
  ocrHeaderFieldNames,
  unreadField,
} from "../../domain/contracts/ocr";
import { extractSheetFields } from "./field-extraction";
import type { LabelAlias } from "./field-labels";
import { extractMeasurements } from "./measurement-extraction";
import { plaqueObservations } from "./plaque-observations";
import { groupLines, pageText, type ReadRegion } from "./read-region";
import { recognizePage } from "./recognize-page";
import { detectScanType } from "./scan-type";
import type { ReadingTemplate } from "./templates/match-form";
import { applyTemplates } from "./templates/read-by-template";

/** Turns the read regions of each page into the OcrResult (pure: no models involved, so it is unit-testable). */
export function assembleResult(pages: ReadRegion[][], now: Date, aliases: readonly LabelAlias[] = []): OcrResult {
  const names: OcrFieldName[] = ["patientName", "patientDob", "examDate", ...ocrHeaderFieldNames];
  const fields = Object.fromEntries(names.map((name) => [name, unreadField()])) as OcrFields;
  const measurements: OcrMeasurement[] = [];
  const observations: OcrObservation[] = [];
  let scanType: string | null = null;
  for (const regions of pages) {
    const found = extractSheetFields(regions, now, aliases);
    for (const key of names) {
      if (!fields[key].value && (found[key].value || !fields[key].box)) fields[key] = found[key];
    }
    const seen = new Set(measurements.map((m) => `${m.site}|${m.side}|${m.parameter}`));
    measurements.push(...extractMeasurements(regions).filter((m) => !seen.has(`${m.site}|${m.side}|${m.parameter}`)));
    const noted = new Set(observations.map((o) => `${o.site}|${o.side}|${o.finding}`));
    observations.push(...plaqueObservations(regions).filter((o) => !noted.has(`${o.site}|${o.side}|${o.finding}`)));
    if (!scanType) {
      // The title sits above the patient block; without labels, fall back to the top fifth of the page.
      const bottom = found.labelTop ?? Math.max(0, ...regions.map((r) => r.v1)) / 5;
      const titleLines = groupLines(regions.filter((r) => r.v1 <= bottom + 1)).map((line) =>
        line.map((r) => r.read.text).join(" "),
      );
      scanType = detectScanType(titleLines);
    }
  }
  // The overall confidence stays that of the three patient fields, as the contract says.
  const patient = [fields.patientName, fields.patientDob, fields.examDate];
  const confidence = patient.reduce((s, f) => s + (f.value ? f.confidence : 0), 0) / patient.length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const rounded = Object.fromEntries(
    names.map((name) => [name, { ...fields[name], confidence: round(fields[name].confidence) }]),
  ) as OcrFields;
  return {
    patientName: fields.patientName.value,
    patientDob: fields.patientDob.value,
    examDate: fields.examDate.value,
    confidence: round(confidence),
    scanType,
    fields: rounded,
    measurements,
    observations,
    pageCount: pages.length,
    text: pages.map(pageText).join("\n\f\n"),
    worksheetTemplateId: null,
    layout: "general",
  };
}

/**
 * Full recognition of a worksheet's pages; runs inside the OCR worker. With the clinic's forms (reading
 * templates), a page that matches one is read by its zones.
 */
export async function readWorksheet(
  pages: Buffer[],
  now: Date,
  templates: ReadingTemplate[] = [],
  aliases: readonly LabelAlias[] = [],
  /** Called after each page is read (the OCR job's progress). */
  onPage?: () => void,
): Promise<OcrResult> {
  const read: ReadRegion[][] = [];
  for (let i = 0; i < pages.length; i++) {
    read.push(await recognizePage(pages[i]!, i));
    onPage?.();
  }
  const general = assembleResult(read, now, aliases);
  if (templates.length === 0) return general;
  const sized = await Promise.all(
    read.map(async (regions, i) => {
      const { width = 0, height = 0 } = await sharp(pages[i]!).metadata();
      return { regions, width, height };
    }),
  );
  return applyTemplates(general, sized, templates, now);
}
