import type { Box, OcrField } from "../../domain/contracts/ocr";
import { parseWorksheetDate } from "../../domain/dates";
import { ctcDecode, type Decoded } from "./ctc-decode";
import { centerV, heightOf, type ReadRegion } from "./read-region";
import { squash } from "./worksheet-vocabulary";

export type PatientFieldName = "patientName" | "patientDob" | "examDate";

/** Printed labels in squashed form; longest first so "patientname" wins over "name". */
const FIELD_LABELS: [string, PatientFieldName][] = (
  [
    ["patientsname", "patientName"],
    ["patientname", "patientName"],
    ["patientfullname", "patientName"],
    ["fullname", "patientName"],
    ["name", "patientName"],
    ["dateofbirth", "patientDob"],
    ["birthdate", "patientDob"],
    ["dob", "patientDob"],
    ["examdate", "examDate"],
    ["studydate", "examDate"],
    ["dateofexam", "examDate"],
    ["dateofstudy", "examDate"],
    ["scandate", "examDate"],
  ] as [string, PatientFieldName][]
).sort((a, b) => b[0].length - a[0].length);

/** Other labels found on the same lines; a value ends where one of them starts. */
const OTHER_LABELS = [
  "sex",
  "gender",
  "mrn",
  "urn",
  "referringdr",
  "referrer",
  "indication",
  "sonographer",
  "age",
  "id",
];

const NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,.'-";
const DATE_CHARS = "0123456789./-";

type LabelHit = { field: PatientFieldName | null; endStep: number };

/**
 * Finds a label at the start of a region: returns which field it names and the recogniser step where the value
 * (if written in the same region, e.g. "DOB:02/08/69") begins.
 */
export function matchLabel(region: ReadRegion): LabelHit | null {
  const chars = region.read.chars;
  let squashed = "";
  const candidates = [...FIELD_LABELS, ...OTHER_LABELS.map((l) => [l, null] as [string, null])].sort(
    (a, b) => b[0].length - a[0].length,
  );
  const prefixes: { length: number; step: number }[] = [];
  for (let i = 0; i < chars.length; i++) {
    squashed += squash(chars[i]!.char);
    prefixes.push({ length: squashed.length, step: chars[i]!.step });
  }
  for (const [label, field] of candidates) {
    if (!squashed.startsWith(label)) continue;
    const endIndex = prefixes.findIndex((p) => p.length === label.length);
    let next = endIndex + 1;
    // A short label like "name" or "id" must be followed by a colon, otherwise it is a word of some value.
    const colon = chars[next]?.char === ":";
    if (label.length <= 4 && !colon && next < chars.length) continue;
    while (next < chars.length && /[:\s.]/.test(chars[next]!.char)) next++;
    const endStep = next < chars.length ? chars[next]!.step - 1 : region.matrix.steps;
    return { field, endStep: Math.max(0, endStep) };
  }
  // Any other "Something:" region is a label too: it bounds the value of the label before it.
  const colonAt = region.read.text.indexOf(":");
  if (colonAt > 1 && colonAt >= region.read.text.length - 2) return { field: null, endStep: region.matrix.steps };
  return null;
}

type Piece = { region: ReadRegion; from: number };

/** The regions (or the part of the label's own region) holding the value written after a label on its line. */
function valuePieces(label: ReadRegion, hit: LabelHit, regions: ReadRegion[]): Piece[] {
  const pieces: Piece[] = [];
  if (hit.endStep < label.matrix.steps - 1) pieces.push({ region: label, from: hit.endStep });
  const h = heightOf(label);
  const sameLine = regions
    .filter((r) => r !== label && Math.abs(centerV(r) - centerV(label)) < 0.7 * h && r.u0 > label.u1 - 0.3 * h)
    .sort((a, b) => a.u0 - b.u0);
  let right = label.u1;
  for (const r of sameLine) {
    // Handwriting starts near its label; a long gap means the next field of the line.
    if (r.u0 - right > 6 * h) break;
    if (matchLabel(r)) break;
    pieces.push({ region: r, from: 0 });
    right = r.u1;
  }
  return pieces;
}

function unionBox(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { page: boxes[0]!.page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Joins decoded pieces; a long run of blanks inside a piece is a space the recogniser did not emit. */
function joinPieces(decoded: Decoded[], separator: string): { text: string; confidence: number } {
  const texts = decoded.map((d) => {
    let out = "";
    const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
    const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
    d.chars.forEach((c, i) => {
      if (
        i > 0 &&
        separator === " " &&
        c.char !== " " &&
        out.at(-1) !== " " &&
        gaps[i - 1]! > Math.max(4, 2.2 * typical)
      )
        out += " ";
      out += c.char;
    });
    return out.trim();
  });
  const all = decoded.flatMap((d) => d.chars);
  const confidence = all.length ? Math.min(...decoded.filter((d) => d.chars.length).map((d) => d.confidence)) : 0;
  return { text: texts.filter(Boolean).join(separator).replace(/\s+/g, " ").trim(), confidence };
}

function cleanName(text: string): string {
  return text
    .replace(/\s*,\s*/g, ", ")
    .replace(/^[\s,.'-]+|[\s,'-]+$/g, "")
    .replace(/\s+/g, " ");
}

/** Strict parse first; then the repairs a recogniser needs (a mixed-up separator), at a lower confidence. */
function readDate(text: string, now: Date): { value: string | null; factor: number } {
  const exact = parseWorksheetDate(text, now);
  if (exact) return { value: exact, factor: 1 };
  const trimmed = text.replace(/^[./-]+|[./-]+$/g, "");
  const groups = trimmed.split(/[./-]+/).filter(Boolean);
  if (groups.length === 3) {
    // Keep the digits, use one separator: ISO when the year comes first, day-month-year otherwise.
    const repaired = parseWorksheetDate(groups.join(groups[0]!.length === 4 ? "-" : "."), now);
    if (repaired) return { value: repaired, factor: 0.6 };
  }
  return { value: null, factor: 0 };
}

const EMPTY: OcrField = { value: null, confidence: 0, box: null };

/** Reads the three patient fields by anchoring values to their printed labels. */
export function extractPatientFields(
  regions: ReadRegion[],
  now: Date,
): Record<PatientFieldName, OcrField> & { labelTop: number | null } {
  const best: Record<PatientFieldName, OcrField> = { patientName: EMPTY, patientDob: EMPTY, examDate: EMPTY };
  let labelTop: number | null = null;
  for (const region of regions) {
    const hit = matchLabel(region);
    if (!hit?.field) continue;
    labelTop = labelTop === null ? region.v0 : Math.min(labelTop, region.v0);
    const pieces = valuePieces(region, hit, regions);
    if (pieces.length === 0) continue;
    const isName = hit.field === "patientName";
    const decoded = pieces.map((p) => ctcDecode(p.region.matrix, isName ? NAME_CHARS : DATE_CHARS, p.from));
    const joined = joinPieces(decoded, isName ? " " : "");
    const box = unionBox(pieces.map((p) => p.region.box));
    let field: OcrField;
    if (isName) {
      const value = cleanName(joined.text);
      field = /[A-Za-z]{2}/.test(value) ? { value, confidence: joined.confidence, box } : EMPTY;
    } else {
      const { value, factor } = readDate(joined.text, now);
      field = value ? { value, confidence: joined.confidence * factor, box } : { value: null, confidence: 0, box };
    }
    const current = best[hit.field];
    if (field.value && (!current.value || field.confidence > current.confidence)) best[hit.field] = field;
    else if (!current.value && !current.box && field.box) best[hit.field] = field;
  }
  return { ...best, labelTop };
}
