import { type CellChar, cropGrey, segmentCell, type WideGlyph } from "./cell-strokes";
import { type DateChar, segmentDate } from "./date-strokes";
import { classifyDigits } from "./digit-classifier";
import { glyphVariants, type InkMap, normalizeGlyph } from "./digit-glyph";
import type { Raster } from "./raster";
import { ASCII_CHARS, type CharMatrix } from "./text-recognizer";
import type { PageFrame, TextRegion } from "./text-regions";

const COLUMN = (ch: string) => ASCII_CHARS.indexOf(ch) + 1;
const POINT = COLUMN(".");
const ZERO = COLUMN("0");
/** How sure a segmented blot is a decimal point; the rest of its step is left to the blank (a speck of dirt). */
export const POINT_PROBABILITY = 0.85;
/**
 * Between two digits with no point found, a point joined to a digit's foot ("11.4" with the point touching the
 * second 1) is still possible at this probability: the strokes' reading then does not veto the point the
 * recogniser saw, and a whole number that cannot be (114 mm) leaves the one with the point as its likeliest
 * possible reading.
 */
const LOST_POINT = 0.25;

/** A character the strokes' segmentation found: a glyph the classifier reads, or something it does not. */
type Segmented = { kind: string; map?: InkMap };

/**
 * Segments each region's crop, classifies every glyph of every crop in one batch, and turns each segmentation into
 * a character matrix. Null where the crop did not segment.
 */
async function readByStrokes<C extends Segmented>(
  image: Raster,
  frame: PageFrame,
  regions: TextRegion[],
  segment: (grey: InkMap) => C[] | null,
  toMatrix: (chars: C[], digitProbs: (Float32Array | null)[]) => CharMatrix,
  classify: (glyphs: Float32Array[]) => Promise<Float32Array[]>,
): Promise<(CharMatrix | null)[]> {
  const segmented = regions.map((r) => segment(cropGrey(image, frame, r)));
  const glyphs = segmented.flatMap((chars) =>
    (chars ?? []).flatMap((c) => (c.kind === "glyph" && c.map ? [normalizeGlyph(c.map)] : [])),
  );
  const probs = await classify(glyphs);
  let next = 0;
  return segmented.map((chars) => {
    if (!chars) return null;
    const own = chars.map((c) => (c.kind === "glyph" && c.map ? probs[next++]! : null));
    return toMatrix(chars, own);
  });
}

/**
 * The classifier's probabilities of each glyph, averaged over its variants (digit-glyph.ts). For cells only: on
 * the tuning seeds' dates it lost an exam date (seed 101) and gained none.
 */
async function classifyAveraged(glyphs: Float32Array[]): Promise<Float32Array[]> {
  const variants = glyphs.map(glyphVariants);
  const flat = await classifyDigits(variants.flat());
  let next = 0;
  return variants.map((v) => {
    const mean = new Float32Array(10);
    for (let k = 0; k < v.length; k++) {
      const p = flat[next++]!;
      for (let d = 0; d < 10; d++) mean[d]! += p[d]! / v.length;
    }
    return mean;
  });
}

/**
 * How much likelier (natural log of the product of each glyph's top probability) the classifier must find a cell's
 * segmentation with a thin "1" cut from the digit it touches than the one without: a ring's side or a bar cut off
 * reads as a doubtful digit and loses.
 */
const TOUCH_MARGIN = 0;

/**
 * The other width rule offered to the classifier: font-like digits are narrow (two touching ones are about 1.2 digit
 * heights wide), real people's often wider than tall; each cell's blob is cut both ways and the reading the
 * classifier finds surer is kept.
 */
const NARROW_SPLIT_WIDTH = 0.9;

/** A cell's characters as segmented, with the classifier's probabilities of each glyph (null for a point). */
export type Classified = { chars: CellChar[]; probs: (Float32Array | null)[] };
/**
 * A cell as classified; `split`: the same with its widest glyph (WIDE_GLYPH, cell-strokes.ts) cut in two where the
 * classifier reads both halves surest, the reading to weigh when the recogniser read a digit more (cell-reading.ts).
 */
export type ClassifiedCell = Classified & { split?: Classified };

/**
 * Segments each cell's grey crop and classifies its glyphs; where a thin stroke may be a "1" touching the next digit
 * (cell-strokes.ts, splitCell), both segmentations are classified and the one whose glyphs the classifier reads
 * more surely is kept. Null where the crop did not segment into a number.
 */
export async function classifyCells(greys: InkMap[]): Promise<(ClassifiedCell | null)[]> {
  const options = greys.map((grey) => {
    const plain = segmentCell(grey);
    if (!plain) return [];
    const others = [segmentCell(grey, true), segmentCell(grey, false, NARROW_SPLIT_WIDTH)];
    const shape = (chars: CellChar[]) => chars.map((c) => c.kind).join();
    const seen = new Set([shape(plain)]);
    return [
      plain,
      ...others.filter((o): o is CellChar[] => {
        if (!o || seen.has(shape(o))) return false;
        seen.add(shape(o));
        return true;
      }),
    ];
  });
  const glyphs = options.flatMap((o) =>
    o.flatMap((chars) => chars.flatMap((c) => (c.kind === "glyph" ? [normalizeGlyph(c.map)] : []))),
  );
  const probs = await classifyAveraged(glyphs);
  let next = 0;
  const chosen = options.map((o) => {
    const read = o.map((chars) => {
      const own = chars.map((c) => (c.kind === "glyph" ? probs[next++]! : null));
      const sure = own.reduce((sum, p) => sum + (p ? Math.log(Math.max(1e-6, Math.max(...p))) : 0), 0);
      return { chars, probs: own, sure };
    });
    if (read.length === 0) return null;
    const best = read.slice(1).reduce((a, b) => (b.sure > a.sure + TOUCH_MARGIN ? b : a), read[0]!);
    return { chars: best.chars, probs: best.probs };
  });
  return splitWidest(chosen);
}

/** Cells' characters past which a split is not offered (a number of a cell holds at most six, as segmentCell). */
const MAX_CHARS = 6;

/**
 * Each cell's widest glyph, where one is wide, cut at the cut whose two halves the classifier reads surest (product
 * of their top probabilities): the cell's split reading.
 */
async function splitWidest(cells: (Classified | null)[]): Promise<(ClassifiedCell | null)[]> {
  const widest = cells.map((c) => {
    if (!c || c.chars.length >= MAX_CHARS) return -1;
    let at = -1;
    c.chars.forEach((ch, k) => {
      const w = ch.kind === "glyph" ? ch.wide : undefined;
      if (w && w.halves.length > 0 && (at < 0 || w.width > (c.chars[at] as { wide: WideGlyph }).wide.width)) at = k;
    });
    return at;
  });
  const halves = cells.flatMap((c, i) => {
    const ch = widest[i]! >= 0 ? c!.chars[widest[i]!]! : undefined;
    return ch?.kind === "glyph" && ch.wide ? ch.wide.halves.flat().map((m) => normalizeGlyph(m)) : [];
  });
  const probs = halves.length > 0 ? await classifyAveraged(halves) : [];
  let next = 0;
  return cells.map((c, i) => {
    const k = widest[i]!;
    const ch = k >= 0 ? c!.chars[k]! : undefined;
    if (!c || ch?.kind !== "glyph" || !ch.wide) return c;
    let best: { left: InkMap; right: InkMap; pl: Float32Array; pr: Float32Array; sure: number } | undefined;
    for (const [left, right] of ch.wide.halves) {
      const pl = probs[next++]!;
      const pr = probs[next++]!;
      const sure = Math.max(...pl) * Math.max(...pr);
      if (!best || sure > best.sure) best = { left, right, pl, pr, sure };
    }
    if (!best) return c;
    const chars: CellChar[] = [
      ...c.chars.slice(0, k),
      { kind: "glyph", map: best.left },
      { kind: "glyph", map: best.right },
      ...c.chars.slice(k + 1),
    ];
    return { ...c, split: { chars, probs: [...c.probs.slice(0, k), best.pl, best.pr, ...c.probs.slice(k + 1)] } };
  });
}

/**
 * A second reading of handwritten numbers by the digit classifier over segmented strokes, as a character matrix
 * like the recogniser's (one step per character, blank steps between), so that it votes through the same
 * grammar-constrained decoding as the PP-OCR crops; `split`: the same with the widest glyph cut in two (touching
 * digits), where one is wide. Null where the crop did not segment into a number.
 */
export async function readDigitsByStrokes(
  image: Raster,
  frame: PageFrame,
  regions: TextRegion[],
): Promise<{ strokes: CharMatrix | null; split: CharMatrix | null }[]> {
  const cells = await classifyCells(regions.map((r) => cropGrey(image, frame, r)));
  return cells.map((c) => ({
    strokes: c ? strokeMatrix(c.chars, c.probs) : null,
    split: c?.split ? strokeMatrix(c.split.chars, c.split.probs) : null,
  }));
}

/** The matrix of a segmented number: blank, char, blank, char, ..., blank. */
export function strokeMatrix(chars: CellChar[], digitProbs: (Float32Array | null)[]): CharMatrix {
  const steps = chars.length * 2 + 1;
  const probs = new Float32Array(steps * 96);
  for (let t = 0; t < steps; t += 2) {
    const between = t > 0 && t < steps - 1 && chars[t / 2 - 1]!.kind === "glyph" && chars[t / 2]!.kind === "glyph";
    probs[t * 96] = between ? 1 - LOST_POINT : 1;
    if (between) probs[t * 96 + POINT] = LOST_POINT;
  }
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

const SLASH = COLUMN("/");
const DASH = COLUMN("-");
/** How sure a point or dash found by shape is a separator (the rest is left to the blank: a speck, a stray mark). */
const SEPARATOR_PROBABILITY = 0.85;
/** A wide gap between digits is a separator written as a space (or one the pen left too faint) about this often. */
const GAP_PROBABILITY = 0.5;
/**
 * Between two glyphs with nothing found between them, a separator the segmentation lost (too faint, or joined to
 * a digit) is still possible, at this probability for each of . / and -: the grammar can put one there at a cost.
 */
const LOST_SEPARATOR = 0.03;
/** A stroke shaped like a slash stays a possible "1" (a slanted 1 is a straight leaning stroke too). */
const SLASH_CAP = 0.8;

/**
 * A second reading of handwritten dates: digits by the classifier, separators by their shape (date-strokes.ts), as a
 * character matrix over the date's characters, decoded by the date grammar like the recogniser's readings
 * (date-reading.ts). Null where the crop did not segment into a date.
 */
export const readDatesByStrokes = (image: Raster, frame: PageFrame, regions: TextRegion[]) =>
  readByStrokes<DateChar>(image, frame, regions, segmentDate, dateStrokeMatrix, classifyDigits);

/**
 * The matrix of a segmented date: blank, char, blank, ... A glyph is a slash by its shape's likeness and a digit by
 * the classifier for the rest; a point or a dash is that separator; a wide gap may be any separator (a space).
 */
export function dateStrokeMatrix(chars: DateChar[], digitProbs: (Float32Array | null)[]): CharMatrix {
  const steps = chars.length * 2 + 1;
  const probs = new Float32Array(steps * 96);
  for (let t = 0; t < steps; t += 2) {
    const between = t > 0 && t < steps - 1 && chars[t / 2 - 1]!.kind === "glyph" && chars[t / 2]!.kind === "glyph";
    probs[t * 96] = between ? 1 - 3 * LOST_SEPARATOR : 1;
    if (between) for (const column of [POINT, SLASH, DASH]) probs[t * 96 + column] = LOST_SEPARATOR;
  }
  chars.forEach((c, k) => {
    const row = (2 * k + 1) * 96;
    if (c.kind === "glyph") {
      const p = digitProbs[k];
      const slash = Math.min(SLASH_CAP, c.slash);
      probs[row + SLASH] = slash;
      for (let d = 0; d < 10; d++) probs[row + ZERO + d] = (1 - slash) * (p?.[d] ?? 0.1);
      return;
    }
    if (c.kind === "gap") {
      probs[row] = 1 - GAP_PROBABILITY;
      for (const column of [POINT, SLASH, DASH]) probs[row + column] = GAP_PROBABILITY / 3;
      return;
    }
    probs[row + (c.kind === "point" ? POINT : DASH)] = SEPARATOR_PROBABILITY;
    probs[row] = 1 - SEPARATOR_PROBABILITY;
  });
  return { steps, probs };
}
