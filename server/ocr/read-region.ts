import type { ChoiceRing } from "./choice-rings";
import { ctcDecode, type Decoded } from "./ctc-decode";
import type { LabelMark } from "./plaque-observations";
import type { DigitRunStrokes } from "./record-number-reading";
import type { CharMatrix } from "./text-recognizer";
import type { TextRegion } from "./text-regions";

/**
 * A detected region with what the recogniser read there, unrestricted (`read`) and as raw probabilities.
 * Doubtful short regions (table cells) also carry readings of other crops of the same place (`alternates`: a
 * taller one and one stretched far), and doubtful values with digits readings of the crop stretched wider
 * (`stretched`) and further (`wide`), which separate narrow handwritten characters: the readings' agreement
 * tells a sure number from a guess.
 */
export type ReadRegion = TextRegion & {
  matrix: CharMatrix;
  read: Decoded;
  alternates?: CharMatrix[];
  stretched?: CharMatrix;
  wide?: CharMatrix;
  /** A doubtful cell read by the handwritten digit classifier over its segmented strokes (digit-reading.ts). */
  strokes?: CharMatrix | null;
  /** The same with its widest glyph cut in two, where one is wide enough to be two touching digits (digit-reading.ts). */
  splitStrokes?: CharMatrix | null;
  /** A doubtful date read by the digit classifier and the separators' shapes (digit-reading.ts). */
  dateStrokes?: CharMatrix | null;
  /** Runs of digits of a region that may hold a record number, read by the digit classifier too. */
  recordStrokes?: DigitRunStrokes[];
  /** A date label's region that also holds the date: the date read from its own crop. */
  value?: ReadRegion;
  /** The plaque labels in the region and whether the check box beside each is marked (plaque-observations.ts). */
  checkMarks?: LabelMark[];
  /** A short region's rings of pen ink along its line, round a printed choice (choice-rings.ts). */
  choiceRings?: ChoiceRing[];
};

export const centerU = (r: TextRegion) => (r.u0 + r.u1) / 2;
export const centerV = (r: TextRegion) => (r.v0 + r.v1) / 2;
export const heightOf = (r: TextRegion) => r.v1 - r.v0;

export function toReadRegion(region: TextRegion, matrix: CharMatrix): ReadRegion {
  return { ...region, matrix, read: ctcDecode(matrix) };
}

/** Groups regions into text lines (top to bottom, each left to right) by the overlap of their vertical extent. */
export function groupLines<T extends TextRegion>(regions: T[]): T[][] {
  const lines: { v: number; h: number; members: T[] }[] = [];
  for (const r of [...regions].sort((a, b) => centerV(a) - centerV(b))) {
    const line = lines.find((l) => Math.abs(l.v - centerV(r)) < 0.5 * Math.min(l.h, heightOf(r)));
    if (line) {
      line.members.push(r);
      line.v = line.members.reduce((s, m) => s + centerV(m), 0) / line.members.length;
    } else lines.push({ v: centerV(r), h: heightOf(r), members: [r] });
  }
  return lines.sort((a, b) => a.v - b.v).map((l) => l.members.sort((a, b) => a.u0 - b.u0));
}

/** All recognised text in reading order, one line per text line. */
export function pageText(regions: ReadRegion[]): string {
  return groupLines(regions)
    .map((line) => line.map((r) => r.read.text.trim()).join(" "))
    .filter((line) => line.length > 0)
    .join("\n");
}
