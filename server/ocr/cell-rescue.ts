import type { CellSignals } from "./cell-confidence";
import { POINT_PROBABILITY } from "./digit-reading";

/**
 * Values the cells' confidence model (cell-confidence.ts) would leave unemitted although both readers support them
 * (issue 24). On the real-handwriting tuning seeds the largest loss after digit confusions was values read right
 * and not emitted: mostly cells whose PP-OCR crops read letters ("JO" for 70) or nothing while the digit classifier
 * read every digit surely, and cells where the recogniser lost a thin leading 1 that the strokes show. Such values
 * are emitted as doubtful, never as sure: the checking table shows them with their crop.
 */

/** Where a rescued value sits on the checking screen's scale: emitted (0.4), far under sure (0.8). */
export const RESCUED_CONFIDENCE = 0.45;

/**
 * The classifier's share of the value at or above which its reading of the strokes carries a value the recogniser
 * read only weakly; of a value with a point, as a part of what the strokes can give it (a point found by its shape
 * counts POINT_PROBABILITY). Tuning seeds 101/131/151: of the unemitted cells with two or more digits that both
 * readers read alike at this share, none was wrong; the wrong ones nearest were at 0.945 (115 for a written 125) and
 * 0.94 of a point's (3.8 for 2.8).
 */
export const SURE_STROKES = 0.95;

/**
 * Both readers chose the value, the classifier surely, and nothing else speaks against it: a usual value of two or
 * more digits (a lone digit is often what is left of two), its ink as wide as its digits, no EDV above its PSV, read
 * from one region. `pointed`: the value was read with a decimal point.
 */
export function bothReadersSure(s: CellSignals, pointed: boolean): boolean {
  return (
    s.strokes === "agree" &&
    s.strokesShare >= SURE_STROKES * (pointed ? POINT_PROBABILITY : 1) &&
    s.digits >= 2 &&
    !s.unusual &&
    !s.wide &&
    !s.conflict &&
    !s.split
  );
}

/**
 * The recogniser lost a leading 1 the strokes show: the classifier's likeliest value is the recogniser's with a 1
 * before it ("114" against "14", "11.7" against "1.7"). A thin, often leaning 1 is the stroke the recogniser drops
 * most (issue 24: a digit dropped, 30 of 218 misses); a ruling's remnant left of the digits is erased before the
 * strokes are read, and no value read right on the tuning seeds had strokes reading a 1 before it.
 */
export const leadingOneLost = (recognised: string, byStrokes: string) => byStrokes === `1${recognised}`;

/**
 * A cell's confidence for emission: the model's, raised to RESCUED_CONFIDENCE where both readers are sure of a
 * value the model leaves under the emission mark, and RESCUED_CONFIDENCE for a leading 1 restored (never more: the
 * recogniser did not read it; no more than the model's if its EDV and PSV still conflict or its ink is wider than its
 * digits).
 */
export function emissionConfidence(
  model: number,
  cell: { signals: CellSignals; text: string; leadingOne: boolean },
  emitAt: number,
): number {
  const s = cell.signals;
  if (cell.leadingOne) return s.conflict || s.wide ? Math.min(model, RESCUED_CONFIDENCE) : RESCUED_CONFIDENCE;
  if (model < emitAt && bothReadersSure(s, cell.text.includes("."))) return RESCUED_CONFIDENCE;
  return model;
}
