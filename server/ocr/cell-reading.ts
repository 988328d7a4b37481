import { type CellSignals, cellConfidence } from "./cell-confidence";
import { leadingOneLost } from "./cell-rescue";
import { constrainedDecode, grammarFit, joinMatrices, shares } from "./ctc-constrained";
import { DECIMAL_GRAMMAR, INTEGER_GRAMMAR } from "./ctc-grammar";
import type { ReadRegion } from "./read-region";
import type { CharMatrix } from "./text-recognizer";

export type CellSpec = {
  /** Whether the column holds decimals (reflux in seconds, diameters). */
  decimals: boolean;
  /** Possible values in the sheet's unit; a reading outside is a misread. */
  min: number;
  max: number;
  /** Usual values (domain/measurement-ranges.ts); a reading outside is doubtful. Absent: as the possible ones. */
  usual?: { min: number; max: number; noun: string; unit: string };
};

export type CellReading = {
  value: number;
  text: string;
  confidence: number;
  /** Why the value is doubtful, in words for the checking table; null when nothing speaks against it. */
  doubt: string | null;
  /**
   * The digit classifier's own likeliest reading of the cell's strokes, when it read them: the same value as the
   * winner (agreement), or another (the two readers disagree).
   */
  byStrokes?: number;
  /** What the confidence was judged from (cell-confidence.ts). */
  signals: CellSignals;
  /** The value is the strokes' reading: the recogniser's with the leading 1 it lost (cell-rescue.ts). */
  leadingOne?: boolean;
};

/**
 * A reading outside the parameter's usual range counts this much of its votes: between "9.1" and "91" mm the
 * usual one wins unless the other is far clearer, and a lone unusual reading is offered at a confidence that
 * asks for a check (under the screen's 0.8) instead of as a sure value.
 */
const UNUSUAL_WEIGHT = 0.3;

/** A decimal column's value written without its point is more often a lost point than a real whole number. */
const NO_POINT_WEIGHT = 0.5;
/**
 * A lone "1" in a whole-number column (a velocity of 1 cm/s) is far more often what is left of "11" or "17" whose
 * other stroke the recogniser lost, the thin stroke dates lose too (measured on five corpora: precision up 0.4 to
 * 1.3 points, no value lost).
 */
const LONE_STROKE_WEIGHT = 0.3;

/**
 * Reads one table cell with the number grammar, from its main crop, the taller one and the stretched ones. Every
 * grammatical reading of every crop votes for its value with its probability share times its fit (how far the
 * grammar had to force it); implausible values cannot win but keep their votes, so a cell whose likeliest reading
 * is impossible gets a low confidence. The confidence is the winner's share of all votes: two close readings, crops
 * that disagree, or a reading the recogniser did not see all lower it.
 */
export function readNumberCell(parts: ReadRegion[], spec: CellSpec): CellReading | null {
  const grammar = spec.decimals ? DECIMAL_GRAMMAR : INTEGER_GRAMMAR;
  const single = parts.length === 1 ? parts[0]! : null;
  const matrices: CharMatrix[] = single
    ? [single.matrix, ...(single.alternates ?? []), ...(single.stretched ? [single.stretched] : [])]
    : [joinMatrices(parts.map((p) => ({ matrix: p.matrix, from: 0, to: p.matrix.steps })))];
  // Per value: its votes, and its likeliest spelling ("0.0" rather than "0"), which the width check compares with
  // the ink.
  const votes = new Map<number, { score: number; text: string; best: number }>();
  // Each crop's own likeliest value, to count the crops that agree with the winner.
  const tops: number[] = [];
  matrices.forEach((matrix) => {
    const { candidates, freeLogProb } = constrainedDecode(matrix, grammar, { beam: 16, nbest: 8 });
    const share = shares(candidates);
    if (candidates[0]) tops.push(Number(candidates[0].text));
    candidates.forEach((c, i) => {
      let weight = (share[i]! * grammarFit(c, freeLogProb)) / matrices.length;
      if (spec.decimals && !c.text.includes(".")) weight *= NO_POINT_WEIGHT;
      if (!spec.decimals && c.text === "1") weight *= LONE_STROKE_WEIGHT;
      const value = Number(c.text);
      const vote = votes.get(value);
      if (!vote) votes.set(value, { score: weight, text: c.text, best: weight });
      else {
        vote.score += weight;
        if (weight > vote.best) Object.assign(vote, { text: c.text, best: weight });
      }
    });
  });
  const possible = (value: number) => value >= spec.min && value <= spec.max;
  const usual = (value: number) => !spec.usual || (value >= spec.usual.min && value <= spec.usual.max);
  const strokesMatrix = single?.strokes ? touchingSplit(single, votes, grammar, possible, usual) : undefined;
  const strokes = strokesMatrix ? weighByStrokes(votes, strokesMatrix, grammar, possible) : undefined;
  const byStrokes = strokes?.best;
  const plausible = [...votes.entries()]
    .filter(([value]) => value >= spec.min && value <= spec.max)
    .map(([value, vote]) => ({ value, vote, weighed: vote.score * (usual(value) ? 1 : UNUSUAL_WEIGHT) }))
    .sort((a, b) => b.weighed - a.weighed);
  const winner = plausible[0];
  if (!winner) return null;
  let doubt = cellDoubt(winner.value, winner.vote.text, spec);
  if (byStrokes !== undefined && byStrokes !== winner.value)
    doubt ??= `the digits' strokes read ${formatValue(byStrokes, spec)}: check the sheet`;
  const signals: CellSignals = {
    votes: winner.weighed,
    runnerUp: plausible[1]?.weighed ?? 0,
    cropsAgree: tops.filter((v) => v === winner.value).length / Math.max(1, tops.length),
    strokes: strokes === undefined ? "none" : byStrokes === winner.value ? "agree" : "disagree",
    strokesShare: strokes?.expert.get(winner.value) ?? 0,
    weakestGlyph: single?.strokes ? weakestGlyph(single.strokes) : 1,
    unusual: !usual(winner.value),
    noPoint: spec.decimals && !winner.vote.text.includes("."),
    digits: winner.vote.text.replace(".", "").length,
    split: parts.length > 1,
  };
  const confidence = cellConfidence(signals);
  const reading = { value: winner.value, text: winner.vote.text, confidence, doubt, byStrokes, signals };
  return strokes ? withLostLeadingOne(reading, strokes.expert, spec) : reading;
}

/**
 * How sure the classifier must be of the value with the leading 1 (its share of the strokes' reading) to put it in
 * place of the recogniser's: the likelier reading, not one of several. On the tuning seeds 101/131/151 the rule
 * changed 13 values, all to the written one, at shares of 0.65 to 1.00.
 */
const LEADING_ONE_SHARE = 0.5;

/**
 * Where the strokes read the recogniser's value with a 1 before it ("114" for "14"), the strokes' value is taken, as
 * a doubtful value that names what the recogniser read (its confidence is set in cell-rescue.ts). Only for a value
 * that is usual for its column: a lost 1 is not guessed into a value that cannot be.
 */
function withLostLeadingOne(reading: CellReading, expert: Map<number, number>, spec: CellSpec): CellReading {
  const { byStrokes, text } = reading;
  if (byStrokes === undefined) return reading;
  const strokesText = formatValue(byStrokes, spec);
  const share = expert.get(byStrokes) ?? 0;
  const usual = !spec.usual || (byStrokes >= spec.usual.min && byStrokes <= spec.usual.max);
  if (!leadingOneLost(text, strokesText) || share < LEADING_ONE_SHARE || !usual) return reading;
  return {
    ...reading,
    value: byStrokes,
    text: strokesText,
    doubt: `the recogniser read ${text}, the digits' strokes ${strokesText} (a leading 1): check the sheet`,
    signals: {
      ...reading.signals,
      strokes: "agree",
      strokesShare: share,
      unusual: false,
      digits: reading.signals.digits + 1,
    },
    leadingOne: true,
  };
}

const formatValue = (value: number, spec: CellSpec) =>
  spec.decimals && Number.isInteger(value) ? value.toFixed(1) : String(value);

/**
 * The strokes' reading to weigh the votes with: the segmentation with its widest glyph cut in two (two digits written
 * touching, "66" as one wide glyph read 8: digit-reading.ts) where the cut reads the recogniser's likeliest value, one
 * digit more than the plain segmentation, and that value is usual for its column; the plain segmentation otherwise.
 * The cut then only confirms what the recogniser read, never moves a value: weighed whenever it gave the recogniser's
 * digit count, it also read wrong digits ("160" for a written 100, "6.18" where the recogniser read a stray
 * character, "6.81"), and lost as many values as it won on seed 131 (issue 24, touching digits).
 */
function touchingSplit(
  region: ReadRegion,
  votes: Map<number, { score: number; text: string }>,
  grammar: typeof DECIMAL_GRAMMAR,
  possible: (value: number) => boolean,
  usual: (value: number) => boolean,
): CharMatrix {
  const plain = region.strokes!;
  const split = region.splitStrokes;
  if (!split) return plain;
  const leader = [...votes.entries()]
    .filter(([value]) => possible(value))
    .sort(
      (a, b) => b[1].score * (usual(b[0]) ? 1 : UNUSUAL_WEIGHT) - a[1].score * (usual(a[0]) ? 1 : UNUSUAL_WEIGHT),
    )[0];
  if (!leader) return plain;
  const digits = (text: string) => text.replace(".", "").length;
  const likeliest = (m: CharMatrix) =>
    constrainedDecode(m, grammar, { beam: 16, nbest: 8 }).candidates.find((c) => possible(Number(c.text)));
  const cut = likeliest(split);
  const whole = likeliest(plain);
  if (!cut || !usual(Number(cut.text))) return plain;
  const wanted = digits(leader[1].text);
  if (Number(cut.text) !== leader[0] || digits(cut.text) !== wanted) return plain;
  return !whole || digits(whole.text) === wanted - 1 ? split : plain;
}

/**
 * The digit classifier's reading of the cell's segmented strokes (digit-reading.ts), trained on real people's
 * digits, weighs the recogniser's votes as a second expert: each value's votes are multiplied by the classifier's
 * probability of it (plus a floor, so that a segmentation gone wrong cannot veto a clear reading), keeping their
 * total. Agreement keeps a value's confidence, disagreement moves it to the reading both find likely, or lowers it.
 * Measured on real handwriting (held-out MNIST digits, 10 sheets, seed 101): values read right 77.4 -> 85.7 %,
 * wrong ones emitted 26 -> 12; as one more equal vote instead, 72.2 % (it split the votes under the floor).
 */
const STROKE_FLOOR = 0.03;

/**
 * Weighs the votes by the strokes' reading; returns that reading's probability of each value and its likeliest
 * possible value (undefined: none).
 */
function weighByStrokes(
  votes: Map<number, { score: number }>,
  strokes: CharMatrix,
  grammar: typeof DECIMAL_GRAMMAR,
  possible: (value: number) => boolean,
): { expert: Map<number, number>; best: number | undefined } {
  const { candidates, freeLogProb } = constrainedDecode(strokes, grammar, { beam: 16, nbest: 8 });
  const share = shares(candidates);
  const expert = new Map<number, number>();
  candidates.forEach((c, i) => {
    const value = Number(c.text);
    expert.set(value, (expert.get(value) ?? 0) + share[i]! * grammarFit(c, freeLogProb));
  });
  let before = 0;
  let after = 0;
  for (const [value, vote] of votes) {
    before += vote.score;
    vote.score *= STROKE_FLOOR + (expert.get(value) ?? 0);
    after += vote.score;
  }
  if (after > 0) for (const vote of votes.values()) vote.score *= before / after;
  let best: number | undefined;
  for (const [value, p] of expert) if (possible(value) && (best === undefined || p > expert.get(best)!)) best = value;
  return { expert, best };
}

/** The classifier's probability of its likeliest character at its least sure glyph (a digit it hesitated over). */
function weakestGlyph(m: CharMatrix): number {
  let weakest = 1;
  for (let t = 1; t < m.steps; t += 2) {
    let top = 0;
    for (let k = 1; k < 96; k++) top = Math.max(top, m.probs[t * 96 + k]!);
    weakest = Math.min(weakest, top);
  }
  return weakest;
}

function cellDoubt(value: number, text: string, spec: CellSpec): string | null {
  const u = spec.usual;
  if (u && (value < u.min || value > u.max))
    return `${text} ${u.unit} is outside the usual range of a ${u.noun} (${u.min}-${u.max} ${u.unit}): check the sheet`;
  if (spec.decimals && !text.includes(".")) return "read without a decimal point: check the sheet";
  return null;
}
