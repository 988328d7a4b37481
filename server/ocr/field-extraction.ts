import type { Box, OcrField } from "../../domain/contracts/ocr";
import { parseWorksheetDate } from "../../domain/dates";
import { joinMatrices } from "./ctc-constrained";
import { ctcDecode, type Decoded, type DecodedChar } from "./ctc-decode";
import { choosePatientDates, type DateOption, poolDateOptions, readDateOptions } from "./date-reading";
import { editDistance, nameLexicon } from "./name-lexicon";
import { type NameWord, rescoreNameWord } from "./name-rescoring";
import { centerU, centerV, heightOf, type ReadRegion } from "./read-region";
import type { CharMatrix } from "./text-recognizer";
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
    // Printed labels sometimes read with a zero for an O ("D.0.B."); labels have no digits, so undo that.
    squashed += squash(chars[i]!.char).replace("0", "o");
    prefixes.push({ length: squashed.length, step: chars[i]!.step });
  }
  // Exact labels first; then a long label with one letter misread ("Patent Name:"), when its colon follows.
  for (const fuzzy of [false, true]) {
    for (const [label, field] of candidates) {
      const length = fuzzy ? fuzzyPrefixLength(squashed, label) : squashed.startsWith(label) ? label.length : 0;
      if (!length) continue;
      const endIndex = prefixes.findIndex((p) => p.length === length);
      if (endIndex < 0) continue;
      let next = endIndex + 1;
      while (next < chars.length && /[.\s]/.test(chars[next]!.char)) next++;
      // A short label like "name" or "id" must be followed by a colon, otherwise it is a word of some value; or by
      // digits, which no name has ("DOB 1/3/1975" whose faint colon was not read).
      const colon = chars[next]?.char === ":";
      const digitsFollow = chars.slice(next).some((c) => /\d/.test(c.char));
      if (label.length <= 4 && !colon && !digitsFollow && next < chars.length) continue;
      if (fuzzy && !colon) continue;
      while (next < chars.length && /[:\s.]/.test(chars[next]!.char)) next++;
      const endStep = next < chars.length ? chars[next]!.step - 1 : region.matrix.steps;
      return { field, endStep: Math.max(0, endStep) };
    }
  }
  // Any other "Something:" region is a label too: it bounds the value of the label before it.
  const colonAt = region.read.text.indexOf(":");
  if (colonAt > 1 && colonAt >= region.read.text.length - 2) return { field: null, endStep: region.matrix.steps };
  return null;
}

/** Labels this long may have one letter misread, added or lost. */
const FUZZY_LABEL_LENGTH = 6;

/** The length of the prefix of `text` one edit from a long `label`, or 0. */
function fuzzyPrefixLength(text: string, label: string): number {
  if (label.length < FUZZY_LABEL_LENGTH) return 0;
  for (const length of [label.length, label.length - 1, label.length + 1]) {
    if (length <= text.length && editDistance(text.slice(0, length), label, 1) <= 1) return length;
  }
  return 0;
}

type Piece = { region: ReadRegion; from: number };
/** The recogniser steps [from, to) of a matrix that hold (part of) a value. */
type Span = { matrix: CharMatrix; from: number; to: number };

/**
 * The recogniser step at page position u of a region: steps cover the strip evenly. Used to cut off the characters
 * a region shares with its right neighbour, which both regions would otherwise read.
 */
function stepAt(region: ReadRegion, u: number): number {
  const fraction = (u - region.u0) / Math.max(1, region.u1 - region.u0);
  return Math.max(0, Math.min(region.matrix.steps, Math.round(fraction * region.matrix.steps)));
}

/** The regions (or the part of the label's own region) holding the value written after a label on its line. */
function valuePieces(label: ReadRegion, hit: LabelHit, regions: ReadRegion[]): Piece[] {
  const pieces: Piece[] = [];
  if (hit.endStep < label.matrix.steps - 1) {
    // A value written in the label's own region: its own reading when there is one (dates), else its steps.
    pieces.push(label.value ? { region: label.value, from: 0 } : { region: label, from: hit.endStep });
  }
  const h = heightOf(label);
  const sameLine = regions
    // Unclipped regions overlap their neighbours by up to about half a text height.
    .filter(
      (r) =>
        r !== label && Math.abs(centerV(r) - centerV(label)) < 0.7 * h && r.u0 > label.u1 - h && centerU(r) > label.u1,
    )
    .sort((a, b) => a.u0 - b.u0);
  let right = label.u1;
  for (const r of sameLine) {
    // Handwriting starts near its label; a long gap means the next field of the line.
    if (r.u0 - right > 6 * h) break;
    if (matchLabel(r)) break;
    if (isSliver(r, [label, ...sameLine])) continue;
    pieces.push({ region: r, from: 0 });
    right = Math.max(right, r.u1);
  }
  return pieces;
}

/**
 * The detector sometimes adds a small region between a label and its value, over the colon's edge or the end of
 * the underline, which reads as a stray "1" or "S". Such a sliver lies mostly under its neighbours.
 */
function isSliver(region: ReadRegion, line: ReadRegion[]): boolean {
  const width = region.u1 - region.u0;
  if (width > 2 * heightOf(region)) return false;
  const overlaps = line
    .filter((r) => r !== region)
    .map((r) => [Math.max(r.u0, region.u0), Math.min(r.u1, region.u1)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = region.u0;
  for (const [a, b] of overlaps) {
    covered += Math.max(0, b - Math.max(a, end));
    end = Math.max(end, b);
  }
  return covered >= 0.6 * width;
}

function unionBox(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { page: boxes[0]!.page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Probability of a space the recogniser saw but did not emit, between two decoded characters. */
const SPACE_EVIDENCE = 0.15;

/**
 * Joins decoded pieces. Handwritten words often run together in the recogniser's best path ("ThomasJackson");
 * where the space still had real probability between two characters, or the gap is much wider than the
 * others, a space is put back.
 */
function joinPieces(pieces: { decoded: Decoded; matrix: CharMatrix }[], separator: string) {
  const texts = pieces.map(({ decoded: d, matrix }) => {
    let out = "";
    const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
    const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
    d.chars.forEach((c, i) => {
      if (i > 0 && separator === " " && c.char !== " " && out.at(-1) !== " ") {
        let space = 0;
        for (let t = d.chars[i - 1]!.step + 1; t < c.step; t++) space = Math.max(space, matrix.probs[t * 96 + 1]!);
        if (space > SPACE_EVIDENCE || gaps[i - 1]! > Math.max(4, 2.2 * typical)) out += " ";
      }
      out += c.char;
    });
    return out.trim();
  });
  const scored = pieces.filter((p) => p.decoded.chars.length).map((p) => p.decoded.confidence);
  const confidence = scored.length ? Math.min(...scored) : 0;
  return { text: texts.filter(Boolean).join(separator).replace(/\s+/g, " ").trim(), confidence };
}

/**
 * The words of a name, split where joinPieces would put a space, each with the recogniser steps it came from
 * (up to its neighbours' characters), so each word can be checked against the name lexicon.
 */
function nameWords(d: Decoded, span: Span): NameWord[] {
  const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
  const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
  const words: DecodedChar[][] = [[]];
  d.chars.forEach((c, i) => {
    if (c.char === " ") {
      words.push([]);
      return;
    }
    // A comma or an initial's point ends a word even when no space was read ("SMITH,John", "F.Thomas").
    if (i > 0 && /[.,]/.test(d.chars[i - 1]!.char) && /[A-Za-z]/.test(c.char)) words.push([]);
    else if (i > 0 && d.chars[i - 1]!.char !== " ") {
      let space = 0;
      for (let t = d.chars[i - 1]!.step + 1; t < c.step; t++) space = Math.max(space, span.matrix.probs[t * 96 + 1]!);
      if (space > SPACE_EVIDENCE || gaps[i - 1]! > Math.max(4, 2.2 * typical)) words.push([]);
    }
    words.at(-1)!.push(c);
  });
  const nonEmpty = words.filter((w) => w.length > 0).flatMap(splitInitial);
  return nonEmpty.map((w, k) => ({
    text: w.map((c) => c.char).join(""),
    matrix: span.matrix,
    from: k > 0 ? nonEmpty[k - 1]!.at(-1)!.step + 1 : span.from,
    to: k + 1 < nonEmpty.length ? nonEmpty[k + 1]![0]!.step : span.to,
  }));
}

/**
 * A middle initial written against the name before it ("MICHAELB." for "MICHAEL B.") is a word of its own when the
 * letters before it are a name and the whole is not.
 */
function splitInitial(word: DecodedChar[]): DecodedChar[][] {
  const text = word.map((c) => c.char).join("");
  if (!/^[A-Za-z]{3,}[A-Z]\.$/.test(text)) return [word];
  const lexicon = nameLexicon();
  const letters = text.slice(0, -1);
  if (lexicon.has(letters) || !lexicon.has(letters.slice(0, -1))) return [word];
  return [word.slice(0, -2), word.slice(-2)];
}

/** Checks every word of a name against the lexicon (punctuation around a word is kept as written). */
function checkNameWords(decoded: Decoded[], spans: Span[]) {
  let factor = 1;
  const words = decoded.flatMap((d, i) => nameWords(d, spans[i]!));
  const text = words
    .map((word) => {
      const [, before, core, after] = /^([^A-Za-z]*)(.*?)([^A-Za-z]*)$/.exec(word.text)!;
      const checked = rescoreNameWord({ ...word, text: core! }, nameLexicon());
      factor = Math.min(factor, checked.factor);
      return before + checked.text + after;
    })
    .join(" ");
  return { text, factor };
}

/** A word written in capitals often comes back with a few lower-case letters ("EDWaRD"); show it in capitals. */
const mostlyCapitals = (word: string) => {
  const letters = word.replace(/[^A-Za-z]/g, "");
  return letters.length >= 3 && letters.replace(/[^A-Z]/g, "").length / letters.length >= 0.6;
};

function cleanName(text: string): string {
  return text
    .split(" ")
    .map((word) => (mostlyCapitals(word) ? word.toUpperCase() : word))
    .join(" ")
    .replace(/\s*,\s*/g, ", ")
    .replace(/^[\s,.'-]+|[\s,'-]+$/g, "")
    .replace(/\s+/g, " ");
}

/**
 * Splits of a date's digits into day, month and year that respect the separators that were read: the recogniser
 * loses thin handwritten points and slashes ("29.051999"), but keeps most digits.
 */
function dateCandidates(text: string): string[] {
  const digits = text.replace(/\D/g, "");
  const boundaries = new Set<number>();
  let count = 0;
  for (const ch of text) {
    if (/\d/.test(ch)) count++;
    else if (count > 0) boundaries.add(count);
  }
  const out: string[] = [];
  const isoFirst = /^(19|20)\d\d/.test(digits);
  const layouts: [number, number, number, boolean][] = [];
  for (const d of [1, 2]) for (const m of [1, 2]) for (const y of [2, 4]) layouts.push([d, m, y, false]);
  if (isoFirst) layouts.push([4, 2, 2, true]);
  for (const [a, b, c, iso] of layouts) {
    if (a + b + c !== digits.length) continue;
    // Every separator that was read must fall between two groups.
    if ([...boundaries].some((k) => k !== a && k !== a + b)) continue;
    const g = [digits.slice(0, a), digits.slice(a, a + b), digits.slice(a + b)];
    out.push(iso ? g.join("-") : g.join("."));
  }
  return out;
}

/** Strict parse first; then the repairs a recogniser needs (a lost or mixed-up separator), at a lower confidence. */
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
  const readings = new Set(
    dateCandidates(trimmed)
      .map((c) => parseWorksheetDate(c, now))
      .filter((d): d is string => d !== null),
  );
  // Only an unambiguous split counts: "1152020" could be 1.15.2020 (invalid) or 11.5.2020, but 1.1.52020 never.
  if (readings.size === 1) return { value: [...readings][0]!, factor: 0.5 };
  return { value: null, factor: 0 };
}

const EMPTY: OcrField = { value: null, confidence: 0, box: null };

type DateField = "patientDob" | "examDate";

/** Reads the three patient fields by anchoring values to their printed labels. */
export function extractPatientFields(
  regions: ReadRegion[],
  now: Date,
): Record<PatientFieldName, OcrField> & { labelTop: number | null } {
  const best: Record<PatientFieldName, OcrField> = { patientName: EMPTY, patientDob: EMPTY, examDate: EMPTY };
  const dates: Record<DateField, { options: DateOption[]; box: Box | null } | null> = {
    patientDob: null,
    examDate: null,
  };
  let labelTop: number | null = null;
  for (const region of regions) {
    const hit = matchLabel(region);
    if (!hit?.field) continue;
    labelTop = labelTop === null ? region.v0 : Math.min(labelTop, region.v0);
    const pieces = valuePieces(region, hit, regions);
    if (pieces.length === 0) continue;
    const isName = hit.field === "patientName";
    const spans = pieces.map((p, i) => {
      const next = pieces[i + 1]?.region;
      return {
        matrix: p.region.matrix,
        from: p.from,
        to: next ? stepAt(p.region, next.u0 + 0.3 * heightOf(next)) : p.region.matrix.steps,
      };
    });
    const box = unionBox(pieces.map((p) => p.region.box));
    if (isName) {
      const decoded = spans.map((s) => ctcDecode(s.matrix, NAME_CHARS, s.from, s.to));
      const joined = joinPieces(
        decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
        " ",
      );
      const checked = checkNameWords(decoded, spans);
      const value = cleanName(checked.text);
      const field = /[A-Za-z]{2}/.test(value) ? { value, confidence: joined.confidence * checked.factor, box } : EMPTY;
      const current = best.patientName;
      if (field.value && (!current.value || field.confidence > current.confidence)) best.patientName = field;
      else if (!current.value && !current.box && field.box) best.patientName = field;
      continue;
    }
    const field = hit.field as DateField;
    const stretched = [cropSpans(pieces, spans, (r) => r.stretched), cropSpans(pieces, spans, (r) => r.wide)];
    const options = dateOptions(
      spans,
      stretched.filter((s) => s !== null),
      now,
    );
    const current = dates[field];
    if (!current || (options[0]?.confidence ?? 0) > (current.options[0]?.confidence ?? 0)) {
      dates[field] = { options, box };
    }
  }
  const chosen = choosePatientDates(dates.patientDob?.options ?? [], dates.examDate?.options ?? [], now);
  for (const key of ["patientDob", "examDate"] as const) {
    const pick = key === "patientDob" ? chosen.dob : chosen.exam;
    const box = dates[key]?.box ?? null;
    best[key] = pick ? { value: pick.value, confidence: pick.confidence, box } : { value: null, confidence: 0, box };
  }
  return { ...best, labelTop };
}

/**
 * The same spans in another reading of each piece (a stretched crop), when every piece is a value region of its
 * own: a stretched label and value ("DOB:12/11/1996" in one region) read worse than the two unstretched (measured).
 */
function cropSpans(pieces: Piece[], spans: Span[], crop: (r: ReadRegion) => CharMatrix | undefined): Span[] | null {
  if (!pieces.every((p) => crop(p.region) && p.from === 0)) return null;
  return spans.map((s, i) => {
    const matrix = crop(pieces[i]!.region)!;
    const scale = matrix.steps / s.matrix.steps;
    return { matrix, from: Math.round(s.from * scale), to: Math.round(s.to * scale) };
  });
}

/**
 * The dates the value pieces may hold: the date grammar's readings of the pieces joined, pooled with those of
 * their stretched readings; when the grammar finds no real date, the repairs of the greedy reading (lost or
 * mixed-up separators).
 */
function dateOptions(spans: Span[], stretched: Span[][], now: Date): DateOption[] {
  const readings = [spans, ...stretched].map((s) => readDateOptions(joinMatrices(s), now));
  const options = readings.length > 1 ? poolDateOptions(readings) : readings[0]!;
  if (options.length) return options;
  const decoded = spans.map((s) => ctcDecode(s.matrix, DATE_CHARS, s.from, s.to));
  const joined = joinPieces(
    decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    "",
  );
  const { value, factor } = readDate(joined.text, now);
  return value ? [{ value, confidence: joined.confidence * factor }] : [];
}
