import sharp from "sharp";
import { type OcrField, type OcrMeasurement, type OcrResult, unreadHeaderFields } from "../../domain/contracts/ocr";
import { extractPatientFields, type PatientFieldName } from "./field-extraction";
import { extractMeasurements } from "./measurement-extraction";
import { groupLines, pageText, type ReadRegion } from "./read-region";
import { recognizePage } from "./recognize-page";
import { detectScanType } from "./scan-type";
import type { ReadingTemplate } from "./templates/match-form";
import { applyTemplates } from "./templates/read-by-template";

/** Turns the read regions of each page into the OcrResult (pure: no models involved, so it is unit-testable). */
export function assembleResult(pages: ReadRegion[][], now: Date): OcrResult {
  const fields: Record<PatientFieldName, OcrField> = {
    patientName: { value: null, confidence: 0, box: null },
    patientDob: { value: null, confidence: 0, box: null },
    examDate: { value: null, confidence: 0, box: null },
  };
  const measurements: OcrMeasurement[] = [];
  let scanType: string | null = null;
  for (const regions of pages) {
    const found = extractPatientFields(regions, now);
    for (const key of Object.keys(fields) as PatientFieldName[]) {
      if (!fields[key].value && (found[key].value || !fields[key].box)) fields[key] = found[key];
    }
    const seen = new Set(measurements.map((m) => `${m.site}|${m.side}|${m.parameter}`));
    measurements.push(...extractMeasurements(regions).filter((m) => !seen.has(`${m.site}|${m.side}|${m.parameter}`)));
    if (!scanType) {
      // The title sits above the patient block; without labels, fall back to the top fifth of the page.
      const bottom = found.labelTop ?? Math.max(0, ...regions.map((r) => r.v1)) / 5;
      const titleLines = groupLines(regions.filter((r) => r.v1 <= bottom + 1)).map((line) =>
        line.map((r) => r.read.text).join(" "),
      );
      scanType = detectScanType(titleLines);
    }
  }
  const filled = Object.values(fields);
  const confidence = filled.reduce((s, f) => s + (f.value ? f.confidence : 0), 0) / filled.length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  for (const f of filled) f.confidence = round(f.confidence);
  return {
    patientName: fields.patientName.value,
    patientDob: fields.patientDob.value,
    examDate: fields.examDate.value,
    confidence: round(confidence),
    scanType,
    fields: { ...fields, ...unreadHeaderFields() },
    measurements,
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
export async function readWorksheet(pages: Buffer[], now: Date, templates: ReadingTemplate[] = []): Promise<OcrResult> {
  const read: ReadRegion[][] = [];
  for (let i = 0; i < pages.length; i++) read.push(await recognizePage(pages[i]!, i));
  const general = assembleResult(read, now);
  if (templates.length === 0) return general;
  const sized = await Promise.all(
    read.map(async (regions, i) => {
      const { width = 0, height = 0 } = await sharp(pages[i]!).metadata();
      return { regions, width, height };
    }),
  );
  return applyTemplates(general, sized, templates, now);
}
