import {
  type OcrField,
  type OcrFieldName,
  type OcrMeasurement,
  type OcrResult,
  ocrFieldsSchema,
} from "../../../domain/contracts/ocr";

// An ultrasound machine's DICOM SR beside the worksheet of the same study (issue 28 item 5): one reading for the
// checking table. The SR's measurements (confidence 1, source "DICOM SR") win for the same site, side and
// parameter; the worksheet's OCR fills what the SR lacks. The SR's header wins where it has a value. A patient
// who differs between the two is never merged silently: patientMismatches says how, in words.

/** The patient fields both carry and that must agree: who the study is of. */
export const PATIENT_FIELDS = ["patientName", "patientDob", "mrn"] as const;
export type PatientField = (typeof PATIENT_FIELDS)[number];

export type PatientMismatch = { field: PatientField; sr: string; worksheet: string };

const fieldWords: Record<PatientField, string> = {
  patientName: "patient name",
  patientDob: "date of birth",
  mrn: "MRN",
};

/** A name's words, lower case and sorted: "DOE, Jane Q." and "Jane Q Doe" are the same person. */
const nameWords = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Same name when every word of the shorter is in the longer (a middle name or initial left off one of them). */
function sameName(a: string, b: string): boolean {
  const [short, long] = [nameWords(a), nameWords(b)].sort((x, y) => x.length - y.length) as [string[], string[]];
  if (short.length === 0) return true;
  const words = new Set(long);
  return short.every((w) => words.has(w));
}

const mrnKey = (mrn: string) => mrn.toUpperCase().replace(/[^A-Z0-9]/g, "");

function same(field: PatientField, a: string, b: string): boolean {
  if (field === "patientName") return sameName(a, b);
  if (field === "mrn") return mrnKey(a) === mrnKey(b);
  return a.trim() === b.trim();
}

/** Where the SR and the worksheet name a different patient; a field either lacks is not a difference. */
export function patientMismatches(worksheet: OcrResult, sr: OcrResult): PatientMismatch[] {
  const out: PatientMismatch[] = [];
  for (const field of PATIENT_FIELDS) {
    const s = sr.fields[field].value?.trim();
    const w = worksheet.fields[field].value?.trim();
    if (s && w && !same(field, s, w)) out.push({ field, sr: s, worksheet: w });
  }
  return out;
}

/** "date of birth 1948-03-12 in the structured report, 1951-03-12 on the worksheet; MRN ..." */
export function describeMismatches(mismatches: PatientMismatch[]): string {
  return mismatches
    .map((m) => `${fieldWords[m.field]} "${m.sr}" in the structured report, "${m.worksheet}" on the worksheet`)
    .join("; ");
}

const measurementKey = (m: Pick<OcrMeasurement, "site" | "side" | "parameter">) =>
  `${m.site}|${m.side ?? ""}|${m.parameter}`;

const fieldNames = Object.keys(ocrFieldsSchema.shape) as OcrFieldName[];

/**
 * The worksheet's reading with the SR's merged in. A patient difference (which the upload refuses until the
 * clinician confirms it is the same patient) stays in the notes, so the checking screen still says so.
 */
export function mergeSrReading(worksheet: OcrResult, sr: OcrResult): OcrResult {
  const fromSr = new Map(sr.measurements.map((m) => [measurementKey(m), m]));
  let differed = 0;
  const measurements: OcrMeasurement[] = [];
  for (const m of worksheet.measurements) {
    const machine = fromSr.get(measurementKey(m));
    if (!machine) {
      measurements.push({ ...m, source: m.source ?? "OCR" });
      continue;
    }
    if (machine.value !== m.value) differed++;
    // The SR's value in the worksheet's place, so the table keeps the sheet's order.
    measurements.push(machine);
    fromSr.delete(measurementKey(m));
  }
  measurements.push(...fromSr.values());

  const fields = Object.fromEntries(
    fieldNames.map((name): [OcrFieldName, OcrField] => {
      const machine = sr.fields[name];
      return [name, machine.value ? machine : worksheet.fields[name]];
    }),
  ) as OcrResult["fields"];
  const patientName = sr.patientName ?? worksheet.patientName;
  const patientDob = sr.patientDob ?? worksheet.patientDob;
  const examDate = sr.examDate ?? worksheet.examDate;
  const sure = [fields.patientName, fields.patientDob, fields.examDate].map((f) => (f.value ? f.confidence : 0));

  const mismatches = patientMismatches(worksheet, sr);
  const notes = [
    ...(worksheet.notes ?? []),
    ...(mismatches.length > 0
      ? [
          `The structured report and the worksheet differ in the patient: ${describeMismatches(mismatches)}. They were confirmed as the same patient; check before signing.`,
        ]
      : []),
    ...(differed > 0
      ? [
          `For ${differed === 1 ? "1 measurement" : `${differed} measurements`} the worksheet was read with another value than the structured report; the structured report's ${differed === 1 ? "value is" : "values are"} shown.`,
        ]
      : []),
    ...(sr.notes ?? []),
  ];
  return {
    ...worksheet,
    patientName,
    patientDob,
    examDate,
    confidence: sure.reduce((a, b) => a + b, 0) / sure.length,
    scanType: sr.scanType ?? worksheet.scanType,
    fields,
    measurements,
    source: "worksheet",
    notes,
    machineSr: sr.machineSr,
  };
}
