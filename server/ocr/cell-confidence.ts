/**
 * A table cell's confidence from everything that speaks for or against its value (issue 24). Where the digit
 * classifier read the cell's strokes, one logistic model over the reading's signals, fitted on real-handwriting
 * sheets of several seeds (bench/handwriting/calibrate.ts), instead of factors tuned one by one on one seed; its
 * probability that the value is right is put on the checking screen's scale, whose two marks stay what they were:
 * under 0.4 a value is not emitted, from 0.8 on it is shown as sure. Where the strokes were not read (they did not
 * segment into a number, or the cell lies in several regions) the recogniser's own votes stay the confidence.
 */

/** What a cell's reading says about its value (cell-reading.ts; the last three from measurement-extraction.ts). */
export type CellSignals = {
  /** The winner's share of the recognisers' weighed votes (0..1, more when the crops agree). */
  votes: number;
  /** The next possible value's share. */
  runnerUp: number;
  /** Of the crops read, the part whose own likeliest value is the winner. */
  cropsAgree: number;
  /** Whether the digit classifier read the strokes, and whether its likeliest possible value is the winner. */
  strokes: "none" | "agree" | "disagree";
  /** The strokes' reading's probability of the winner (0 when not read). */
  strokesShare: number;
  /** The classifier's probability of its own reading at its least sure glyph (1 when not read). */
  weakestGlyph: number;
  /** Outside the parameter's usual range. */
  unusual: boolean;
  /** A decimal column's value read without its point. */
  noPoint: boolean;
  /** How many digits the value has. */
  digits: number;
  /** More ink in the cell than the characters read (measurement-extraction.ts). */
  wide?: boolean;
  /** An end-diastolic velocity above the peak systolic one of its vessel and side. */
  conflict?: boolean;
  /** The cell was read from several regions joined. */
  split?: boolean;
};

const log = (x: number) => Math.log(Math.max(x, 1e-4));

/** The model's inputs, in the order of WEIGHTS. */
export function cellFeatures(s: CellSignals): number[] {
  return [
    1,
    log(Math.min(1, s.votes)),
    log(s.runnerUp / Math.max(s.votes, 1e-4) + 0.01),
    s.cropsAgree,
    Number(s.strokes === "agree"),
    log(s.strokesShare + 0.01),
    log(s.weakestGlyph),
    Number(s.unusual),
    Number(s.noPoint),
    Number(s.digits <= 1),
    Number(s.wide ?? false),
    Number(s.conflict ?? false),
  ];
}

export const FEATURE_NAMES = [
  "bias",
  "log votes",
  "log runner-up ratio",
  "crops agree",
  "strokes agree",
  "log strokes' share",
  "log weakest glyph",
  "unusual",
  "no point",
  "one digit",
  "wide",
  "EDV above PSV",
];

/**
 * The fitted model: bench/handwriting/calibrate.ts on real-handwriting seeds 101, 131 and 151 (30 photo sheets
 * each; the cells whose strokes were read), L2 1. Fitted without each seed, on that seed: recall 88.7 / 87.4 /
 * 88.8 %, precision 97.8 / 98.5 / 98.2 %, wrong at >= 0.8 0.2 / 0.3 / 0.1 % of emitted (main's factors, on 101 and
 * 131: 86.9 / 87.2 %, 97.9 / 98.2 %, 0.7 / 0.5 %).
 */
export const WEIGHTS: number[] = [0.105, 0.496, -1.003, -0.764, 1.08, 0.166, 0.341, -1.192, 0.0, -0.758, 1.236, -2.355];

/** Probability that the value is right, by the fitted model. */
export function rightProbability(s: CellSignals, weights: number[] = WEIGHTS): number {
  const x = cellFeatures(s);
  const z = x.reduce((sum, xi, i) => sum + xi * weights[i]!, 0);
  return 1 / (1 + Math.exp(-z));
}

/**
 * Where the probability meets the screen's marks: at EMIT_AT a value is emitted (confidence 0.4), at SURE_AT it is
 * shown as sure (0.8); linear between and on either side, so the order of values is the model's. Chosen on the
 * three seeds pooled: emitting at 0.5 / 0.7 / 0.85 / 0.9 gave recall 91.6 / 90.4 / 88.3 / 87.0 % at precision
 * 97.0 / 97.8 / 98.4 / 98.6 %; sure at 0.95 / 0.98 / 0.99, 23 / 12 / 6 wrong of 2,775 emitted (issue 24's bound
 * is 0.3 %, 8).
 */
export const EMIT_AT = 0.85;
export const SURE_AT = 0.99;

export function onScreenScale(p: number, emitAt = EMIT_AT, sureAt = SURE_AT): number {
  if (p < emitAt) return (0.4 * p) / emitAt;
  if (p < sureAt) return 0.4 + (0.4 * (p - emitAt)) / (sureAt - emitAt);
  return 0.8 + (0.2 * (p - sureAt)) / (1 - sureAt);
}

/**
 * Without the strokes: a cell much wider than what was read in it has lost a digit the recogniser did not see at
 * all ("24" read as a sure "4"); an EDV above its PSV is a misread of one of them.
 */
const WIDE_FACTOR = 0.25;
const CONFLICT_FACTOR = 0.5;

/** A cell's confidence on the checking screen's scale, from its signals. */
export function cellConfidence(s: CellSignals): number {
  if (s.strokes !== "none") return onScreenScale(rightProbability(s));
  return Math.min(1, s.votes) * (s.wide ? WIDE_FACTOR : 1) * (s.conflict ? CONFLICT_FACTOR : 1);
}
