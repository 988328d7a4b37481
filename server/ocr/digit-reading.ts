import { type CellChar, cropGrey, segmentCell } from "./cell-strokes";
import { classifyDigits } from "./digit-classifier";
import { normalizeGlyph } from "./digit-glyph";
import type { Raster } from "./raster";
import { ASCII_CHARS, type CharMatrix } from "./text-recognizer";
import type { PageFrame, TextRegion } from "./text-regions";

const COLUMN = (ch: string) => ASCII_CHARS.indexOf(ch) + 1;
const POINT = COLUMN(".");
const ZERO = COLUMN("0");
/** How sure a segmented blot is a decimal point; the rest of its step is left to the blank (a speck of dirt). */
const POINT_PROBABILITY = 0.85;

/**
 * A second reading of handwritten numbers by the digit classifier over segmented strokes, as a character matrix
 * like the recogniser's (one step per character, blank steps between), so that it votes through the same
 * grammar-constrained decoding as the PP-OCR crops. Null where the crop did not segment into a number.
 */
export async function readDigitsByStrokes(
  image: Raster,
  frame: PageFrame,
  regions: TextRegion[],
): Promise<(CharMatrix | null)[]> {
  const segmented = regions.map((r) => segmentCell(cropGrey(image, frame, r)));
  const glyphs = segmented.flatMap((chars) =>
    (chars ?? []).flatMap((c) => (c.kind === "glyph" ? [normalizeGlyph(c.map)] : [])),
  );
  const probs = await classifyDigits(glyphs);
  let next = 0;
  return segmented.map((chars) => {
    if (!chars) return null;
    const own = chars.map((c) => (c.kind === "glyph" ? probs[next++]! : null));
    return strokeMatrix(chars, own);
  });
}

/** The matrix of a segmented number: blank, char, blank, char, ..., blank. */
export function strokeMatrix(chars: CellChar[], digitProbs: (Float32Array | null)[]): CharMatrix {
  const steps = chars.length * 2 + 1;
  const probs = new Float32Array(steps * 96);
  for (let t = 0; t < steps; t += 2) probs[t * 96] = 1;
  chars.forEach((c, k) => {
    const row = (2 * k + 1) * 96;
    const p = digitProbs[k];
    if (c.kind === "point" || !p) {
      probs[row + POINT] = POINT_PROBABILITY;
      probs[row] = 1 - POINT_PROBABILITY;
      return;
    }
    for (let d = 0; d < 10; d++) probs[row + ZERO + d] = p[d]!;
  });
  return { steps, probs };
}
