import type { OcrField, OcrFields, OcrResult } from "../../../domain/contracts/ocr";
import type { ReadRegion } from "../read-region";
import { matchForm, type ReadingTemplate } from "./match-form";
import { readZones } from "./read-zones";

export type PageRegions = { regions: ReadRegion[]; width: number; height: number };

/**
 * One field read both by its zone and by the general reader: the more confident reading, except that a zone an
 * admin drew or adjusted is the clinic's own word on where the value is and keeps priority. Measured on the tuning
 * forms: the zone's reading alone lost a clean name or indication in one sheet of ten where the general reader had
 * it right (docs/benchmarks.md).
 */
export function mergeField(general: OcrField, zone: OcrField, adminEdited: boolean): OcrField {
  if (!zone.value) return general.value ? general : zone;
  if (!general.value || adminEdited) return zone;
  return general.confidence > zone.confidence ? general : zone;
}

/**
 * Reads a result again by the clinic's form when a page matches one: for each field both readers read, the one
 * mergeField picks (a zone left empty keeps the general reading); the zones' cells replace the general reader's
 * for the same site, side and parameter; and the result says which form it was read by. No match: the general
 * result as it was.
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
    const edited = new Set(match.template.editedZoneIds ?? []);
    const editedFields = new Set(
      match.template.zones.flatMap((z) => (z.kind === "field" && edited.has(z.id) ? [z.field] : [])),
    );
    const fields: OcrFields = { ...general.fields };
    for (const [name, field] of Object.entries(read.fields)) {
      const key = name as keyof OcrFields;
      fields[key] = mergeField(general.fields[key], field, editedFields.has(key));
    }
    // Both dates were chosen as a pair (an exam after the birth) by each reader: a mix that breaks the pair takes
    // the zones' pair.
    const dob = fields.patientDob.value;
    const exam = fields.examDate.value;
    if (dob && exam && dob >= exam && read.fields.patientDob?.value && read.fields.examDate?.value) {
      fields.patientDob = read.fields.patientDob;
      fields.examDate = read.fields.examDate;
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
