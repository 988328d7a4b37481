import type { OcrResult } from "../../../domain/contracts/ocr";
import type { ReadRegion } from "../read-region";
import { matchForm, type ReadingTemplate } from "./match-form";
import { readZones } from "./read-zones";

export type PageRegions = { regions: ReadRegion[]; width: number; height: number };

/**
 * Reads a result again by the clinic's form when a page matches one: the matched page's zones replace what the
 * general reader found for the same fields and cells (a zone left empty keeps the general reading), and the result
 * says which form it was read by. No match: the general result as it was.
 */
export function applyTemplates(
  general: OcrResult,
  pages: PageRegions[],
  templates: ReadingTemplate[],
  now: Date,
): OcrResult {
  if (templates.length === 0) return general;
  for (const page of pages) {
    const match = matchForm(
      page.regions.map((r) => ({ text: r.read.text, box: r.box })),
      page,
      templates,
    );
    if (!match) continue;
    const read = readZones(page.regions, match, now);
    const fields = { ...general.fields };
    for (const [name, field] of Object.entries(read.fields)) {
      const key = name as keyof typeof fields;
      if (field.value || !fields[key].value) fields[key] = field;
    }
    const cellKey = (m: { site: string; side: string | null; parameter: string }) =>
      `${m.site}|${m.side}|${m.parameter}`;
    const zoned = new Set(match.template.zones.flatMap((z) => (z.kind === "cell" ? [cellKey(z)] : [])));
    const measurements = [...read.measurements, ...general.measurements.filter((m) => !zoned.has(cellKey(m)))];
    const patient = [fields.patientName, fields.patientDob, fields.examDate];
    const confidence = patient.reduce((s, f) => s + (f.value ? f.confidence : 0), 0) / patient.length;
    return {
      ...general,
      patientName: fields.patientName.value,
      patientDob: fields.patientDob.value,
      examDate: fields.examDate.value,
      confidence: Math.round(confidence * 1000) / 1000,
      fields,
      measurements,
      worksheetTemplateId: match.template.id,
      layout: "template",
    };
  }
  return general;
}
