import { cropGrey } from "./cell-strokes";
import { constrainedDecode, grammarFit, joinMatrices, shares } from "./ctc-constrained";
import type { DecodedChar } from "./ctc-decode";
import { Grammar } from "./ctc-grammar";
import type { InkMap } from "./digit-glyph";
import { classifyCells, strokeMatrix } from "./digit-reading";
import type { Raster } from "./raster";
import type { ReadRegion } from "./read-region";
import type { CharMatrix } from "./text-recognizer";
import type { PageFrame } from "./text-regions";

/**
 * Record numbers (MRN, UR, hospital no.) on photos: the recogniser misreads handwritten digits it was never trained
 * on ("9874763" for 9824763), and nothing in a record number (no range, no calendar) tells a misread digit. The digit
 * classifier, trained on real people's digits, reads each run of digits again from its strokes, and the two readers
 * choose together, as table cells do (cell-reading.ts): the recogniser's n-best readings of the run, each weighed by
 * the classifier's probability of it.
 */

/** A run of digits in a region's reading: its recogniser steps [from, to) and the classifier's reading of it. */
export type DigitRunStrokes = { from: number; to: number; matrix: CharMatrix };

/** Shapes the recogniser gives a handwritten digit inside a number (as field-grammars.ts reads them). */
const DIGIT_LIKE = /[0-9OoIl|iSsBZzg]/;
/** A run shorter than this is no record number's (a day, a velocity); a region with fewer digits is not read. */
const MIN_RUN = 3;
const MIN_DIGITS = 5;
/** The segmentation reads at most six characters a crop (cell-strokes.ts); a run is cut into pieces of this many. */
const PIECE = 4;

/** A reading this sure (print) is not read again, as recognize-page.ts does not re-read sure regions. */
const SURE = 0.98;

/**
 * A region that may hold a record number: digits (at least five), no date, no table cell (read as a cell already),
 * read without certainty.
 */
function candidate(r: ReadRegion): boolean {
  if (r.alternates || r.strokes !== undefined || r.read.confidence >= SURE) return false;
  const text = r.read.text;
  if ((text.match(/\d/g) ?? []).length < MIN_DIGITS) return false;
  // A date ("12/03/1987", "1987-03-12"): three groups of digits with separators between.
  return !/\d{1,4}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{2,4}/.test(text);
}

/** The runs of digit-like characters with at least MIN_RUN characters and a real digit at each end. */
export function digitRuns(chars: DecodedChar[]): DecodedChar[][] {
  const runs: DecodedChar[][] = [];
  let run: DecodedChar[] = [];
  const close = () => {
    while (run.length && !/\d/.test(run[0]!.char)) run.shift();
    while (run.length && !/\d/.test(run.at(-1)!.char)) run.pop();
    if (run.length >= MIN_RUN) runs.push(run);
    run = [];
  };
  for (const c of chars) {
    if (DIGIT_LIKE.test(c.char)) run.push(c);
    else close();
  }
  close();
  return runs;
}

/** The step halfway between two characters' steps (the recogniser emits a character at about its middle). */
const between = (a: number, b: number) => Math.round((a + b) / 2);

/** Column darkness of a grey crop: how much darker than the paper each column is, summed down the column. */
function columnInk(grey: InkMap): Float64Array {
  const sorted = Float32Array.from(grey.ink).sort();
  const paper = sorted[Math.floor(sorted.length * 0.9)]!;
  const dark = sorted[Math.floor(sorted.length * 0.02)]!;
  // Only clearly dark pixels count: the photo's shading is no stroke.
  const level = paper - 0.4 * (paper - dark);
  const ink = new Float64Array(grey.width);
  for (let y = 0; y < grey.height; y++)
    for (let x = 0; x < grey.width; x++) ink[x]! += Math.max(0, level - grey.ink[y * grey.width + x]!);
  return ink;
}

/** The column of least ink within `reach` of `at` (the nearest one of the least): where two characters part. */
function cutNear(ink: Float64Array, at: number, reach: number): number {
  let best = Math.max(0, Math.min(ink.length - 1, Math.round(at)));
  for (let x = Math.max(0, Math.round(at - reach)); x <= Math.min(ink.length - 1, Math.round(at + reach)); x++) {
    if (ink[x]! < ink[best]! || (ink[x] === ink[best] && Math.abs(x - at) < Math.abs(best - at))) best = x;
  }
  return best;
}

/** Columns [x0, x1) of a grey crop. */
function columns(grey: InkMap, x0: number, x1: number): InkMap {
  const width = Math.max(1, x1 - x0);
  const ink = new Float32Array(width * grey.height);
  for (let y = 0; y < grey.height; y++)
    ink.set(grey.ink.subarray(y * grey.width + x0, y * grey.width + x0 + width), y * width);
  return { width, height: grey.height, ink };
}

/**
 * Reads every digit run of the regions that may hold a record number with the digit classifier, in pieces of at most
 * PIECE digits cut at the emptiest column near halfway between the recogniser's characters, and keeps the runs'
 * readings on the regions.
 */
export async function readRecordNumbersByStrokes(raster: Raster, frame: PageFrame, read: ReadRegion[]) {
  type Job = { region: ReadRegion; from: number; to: number; pieces: { grey: InkMap; digits: number }[] };
  const jobs: Job[] = [];
  // Read afresh (a bench reads cached pages' strokes again).
  for (const region of read) delete region.recordStrokes;
  for (const region of read.filter(candidate)) {
    const { chars } = region.read;
    const steps = region.matrix.steps;
    const runs = digitRuns(chars);
    if (runs.length === 0) continue;
    const grey = cropGrey(raster, frame, region);
    const ink = columnInk(grey);
    const xOf = (step: number) => ((step + 0.5) / steps) * grey.width;
    for (const run of runs) {
      const first = chars.indexOf(run[0]!);
      const last = chars.indexOf(run.at(-1)!);
      const pitch = (run.at(-1)!.step - run[0]!.step) / Math.max(1, run.length - 1);
      const reach = 0.4 * pitch * (grey.width / steps);
      const from = first > 0 ? between(chars[first - 1]!.step, run[0]!.step) : 0;
      const to = last < chars.length - 1 ? between(run.at(-1)!.step, chars[last + 1]!.step) + 1 : steps;
      const start = first > 0 ? cutNear(ink, xOf(run[0]!.step - 0.6 * pitch), reach) : 0;
      const end = last < chars.length - 1 ? cutNear(ink, xOf(run.at(-1)!.step + 0.6 * pitch), reach) : grey.width;
      const count = Math.ceil(run.length / PIECE);
      const size = Math.ceil(run.length / count);
      const pieces: Job["pieces"] = [];
      let x0 = start;
      for (let k = 0; k < run.length; k += size) {
        const x1 =
          k + size >= run.length ? end : cutNear(ink, xOf((run[k + size - 1]!.step + run[k + size]!.step) / 2), reach);
        pieces.push({ grey: columns(grey, x0, Math.max(x0 + 1, x1)), digits: Math.min(size, run.length - k) });
        x0 = x1;
      }
      jobs.push({ region, from, to, pieces });
    }
  }
  if (jobs.length === 0) return;
  const cells = await classifyCells(jobs.flatMap((j) => j.pieces.map((p) => p.grey)));
  let next = 0;
  for (const job of jobs) {
    // A piece whose strokes did not segment into as many digits as the recogniser read there is not aligned with
    // it: it says nothing (every digit equally likely), the other pieces still speak.
    const read = job.pieces.map((piece) => {
      const c = cells[next++];
      const aligned = c && c.chars.length === piece.digits && c.chars.every((ch) => ch.kind === "glyph");
      return aligned ? c : null;
    });
    if (read.every((c) => c === null)) continue;
    const matrix = joinMatrices(
      read.map((c, k) => {
        const m = c ? strokeMatrix(c.chars, c.probs) : uniformDigits(job.pieces[k]!.digits);
        return { matrix: m, from: 0, to: m.steps };
      }),
    );
    job.region.recordStrokes = [...(job.region.recordStrokes ?? []), { from: job.from, to: job.to, matrix }];
  }
}

/** A piece of `count` digits no reader of strokes could tell: every digit equally likely at each place. */
function uniformDigits(count: number): CharMatrix {
  const probs = Array.from({ length: count }, () => new Float32Array(10).fill(0.1));
  return strokeMatrix(
    probs.map(() => ({ kind: "glyph", map: { width: 1, height: 1, ink: new Float32Array(1) } })),
    probs,
  );
}

const DIGITS_ONLY = new Grammar([[{ chars: "0123456789", min: MIN_RUN, max: 14 }]]);
/**
 * A reading the classifier gives no probability still keeps this share of its votes, so that a segmentation gone
 * wrong (two digits touching read as one) cannot veto a clear reading (as STROKE_FLOOR of cell-reading.ts).
 */
const STROKE_FLOOR = 0.03;

/**
 * The digits of one run, chosen by both readers: each of the recogniser's grammatical readings of the run votes with
 * its share, times the classifier's share of the same digits plus a floor. Null when the recogniser has no reading.
 */
export function chooseRunDigits(matrix: CharMatrix, run: DigitRunStrokes, asRead?: string): string | null {
  const own = constrainedDecode(matrix, DIGITS_ONLY, { from: run.from, to: run.to, beam: 16, nbest: 12 });
  if (own.candidates.length === 0) return null;
  const expert = new Map<string, number>();
  const strokes = constrainedDecode(run.matrix, DIGITS_ONLY, { beam: 16, nbest: 12 });
  const strokeShares = shares(strokes.candidates);
  strokes.candidates.forEach((c, i) => {
    expert.set(c.text, (expert.get(c.text) ?? 0) + strokeShares[i]! * grammarFit(c, strokes.freeLogProb));
  });
  const ownShares = shares(own.candidates);
  let best: { text: string; score: number } | null = null;
  own.candidates.forEach((c, i) => {
    const score = ownShares[i]! * (STROKE_FLOOR + (expert.get(c.text) ?? 0));
    if (!best || score > best.score) best = { text: c.text, score };
  });
  const chosen = (best as { text: string } | null)!.text;
  // The digits as read stay unless the strokes themselves prefer the other reading: the recogniser's n-best alone
  // (summed over alignments) may drop a digit its plain reading kept ("65916" for 659916).
  if (asRead !== undefined && chosen !== asRead && (expert.get(chosen) ?? 0) <= (expert.get(asRead) ?? 0))
    return asRead;
  return chosen;
}

/**
 * A record number read from its regions' steps [from, to), its digit groups chosen again with the classifier
 * (chooseRunDigits) where every group has a run read by strokes: the prefix and separators stay as read. The value
 * as read when the groups and runs do not match one to one.
 */
export function rereadRecordNumber(value: string, spans: { region: ReadRegion; from: number; to: number }[]): string {
  const runs = spans.flatMap((s) =>
    (s.region.recordStrokes ?? [])
      .filter((r) => r.from >= s.from - 1 && r.to <= s.to + 1)
      .map((r) => ({ run: r, matrix: s.region.matrix })),
  );
  const groups = value.match(/\d+/g) ?? [];
  if (runs.length === 0 || runs.length !== groups.length) return value;
  const digits = runs.map(({ run, matrix }, k) => chooseRunDigits(matrix, run, groups[k]));
  if (digits.some((d) => d === null)) return value;
  let k = 0;
  return value.replace(/\d+/g, () => digits[k++]!);
}

/** Words record numbers are written with (medical record, unit record, hospital number). */
const RECORD_WORDS = new Set(["MRN", "URN", "UR", "MR", "ID", "HN", "NHS", "HRN", "PID"]);

/**
 * A record number's letter prefix one letter off the label's own short word ("MRN: MKN8289049"): the writer copied
 * the label's word, so its spelling is the label's. Only a word of two to four capitals leading the label, against
 * a prefix as long, one letter apart.
 */
export function prefixFromLabel(value: string, labelText: string): string {
  const word = /^([A-Z]{2,4})(?![A-Za-z])/.exec(labelText.trim())?.[1];
  const prefix = /^[A-Za-z]+/.exec(value)?.[0];
  if (!word || !prefix || prefix.length !== word.length || prefix.toUpperCase() === word) return value;
  // A prefix that is itself a record number's word is what the writer wrote ("MRN803736" under "URN").
  if (RECORD_WORDS.has(prefix.toUpperCase())) return value;
  const apart = [...word].filter((ch, i) => prefix[i]!.toUpperCase() !== ch).length;
  return apart === 1 ? word + value.slice(prefix.length) : value;
}

/** Capitals a handwritten digit is read as, and the digit (the prefix is in capitals by then: parseMrn). */
const BOUNDARY_DIGITS: Record<string, string> = { Z: "2", O: "0", S: "5", I: "1", B: "8" };
/** Confidence factor of a prefix's last letter read as a digit: under the screen's 0.8, so the field is checked. */
export const BOUNDARY_FACTOR = 0.75;

/**
 * A record number's first digit read as a letter at the end of its prefix ("HZ680208" for H2680208, "MRNI74143"):
 * the letter is a digit's look-alike and what is left before it is a record word or a single capital, the prefixes
 * record numbers are written with; a prefix that is itself a record word ("NHS") stays. Null when nothing changes.
 */
export function digitAtPrefixEnd(value: string): string | null {
  const m = /^([A-Z]{2,5})(\d.*)$/.exec(value);
  if (!m || (m[2]!.match(/\d/g) ?? []).length < MIN_DIGITS) return null;
  const prefix = m[1]!;
  const digit = BOUNDARY_DIGITS[prefix.at(-1)!];
  const rest = prefix.slice(0, -1);
  if (!digit || RECORD_WORDS.has(prefix) || !(rest.length === 1 || RECORD_WORDS.has(rest))) return null;
  return rest + digit + m[2]!;
}
