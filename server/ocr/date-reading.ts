import { parseWorksheetDate } from "../../domain/dates";
import { constrainedDecode, grammarFit, shares } from "./ctc-constrained";
import { DATE_GRAMMAR } from "./ctc-grammar";
import type { CharMatrix } from "./text-recognizer";

/** A calendar date a written date may be, best first, with how sure the recogniser is of it. */
export type DateOption = { value: string; confidence: number };

/**
 * Day and month are mostly written with two digits ("07/03"), and a thin handwritten 1 is the stroke the
 * recogniser most often loses ("11" read as "1"): a reading with two-digit groups gets this much more prior.
 */
const TWO_DIGIT_GROUP_PRIOR = Math.log(3);

function paddingPrior(text: string): number {
  const groups = text.split(/[./-]/);
  const dayMonth = groups[0]!.length === 4 ? groups.slice(1) : groups.slice(0, 2);
  return dayMonth.filter((g) => g.length === 2).length * TWO_DIGIT_GROUP_PRIOR;
}

/** Years a worksheet date can have: none before 1880 (a birth under 150 years ago) nor after this year. */
const plausibleYear = (iso: string, now: Date) => {
  const year = Number(iso.slice(0, 4));
  return year >= 1880 && year <= now.getUTCFullYear();
};

/** A reading far less likely than the best one is not a reading of this date, even when it is a valid date. */
const MAX_LOG_RATIO = Math.log(100);

/**
 * The calendar dates a handwritten date may be: the date grammar's n best readings that are real dates, each
 * scored by its share of the probability of all grammatical readings (an impossible "31.02" keeps its share,
 * so a real date found behind it stays doubtful) and by how much the grammar had to force it.
 */
export function readDateOptions(matrix: CharMatrix, now: Date): DateOption[] {
  const decoded = constrainedDecode(matrix, DATE_GRAMMAR, { beam: 32, nbest: 16 });
  const { freeLogProb } = decoded;
  const candidates = decoded.candidates
    .map((c) => ({ ...c, logProb: c.logProb + paddingPrior(c.text) }))
    .sort((a, b) => b.logProb - a.logProb);
  const share = shares(candidates);
  const best = candidates[0]?.logProb ?? 0;
  // Two spellings of one date ("1.5.22" and "01.5.22") pool their probability.
  const byValue = new Map<string, DateOption>();
  candidates.forEach((c, i) => {
    const value = parseWorksheetDate(c.text, now);
    if (!value || !plausibleYear(value, now) || c.logProb < best - MAX_LOG_RATIO) return;
    const confidence = share[i]! * grammarFit(c, freeLogProb);
    const existing = byValue.get(value);
    if (existing) existing.confidence += confidence;
    else byValue.set(value, { value, confidence });
  });
  return [...byValue.values()].sort((a, b) => b.confidence - a.confidence);
}

/**
 * Pools the options of several readings of one date (crops of the same place): each value gets the mean of its
 * confidences, so readings that disagree leave every value doubtful.
 */
export function poolDateOptions(readings: DateOption[][]): DateOption[] {
  const pooled = new Map<string, number>();
  for (const options of readings) {
    for (const o of options) pooled.set(o.value, (pooled.get(o.value) ?? 0) + o.confidence / readings.length);
  }
  return [...pooled].map(([value, confidence]) => ({ value, confidence })).sort((a, b) => b.confidence - a.confidence);
}

/**
 * The digit classifier's and the separators' reading of a date (digit-reading.ts) weighs the recogniser's readings
 * as a second expert, as for table cells (cell-reading.ts): each date's confidence is multiplied by the strokes'
 * probability of it plus a floor (a segmentation gone wrong cannot veto a clear reading), keeping the total, so
 * agreement keeps a date and disagreement moves it to the date both find likely or leaves it doubtful. Chosen on
 * the first real-handwriting corpus (seed 101, 30 sheets): floor 0.01 / 0.02 / 0.05 / 0.1 / 0.2 gave dates of
 * birth 83 / 83 / 83 / 77 / 73 % and exam dates 73 / 73 / 70 / 70 / 70 % (without the strokes: 73 and 73 %).
 */
const STROKE_FLOOR = 0.02;
/**
 * Any glyph of the strokes' reading may be a stray mark or half of a digit cut in two, at this probability (0.05
 * and 0.1 read the same dates on seed 101, 0.3 lost two dates of birth).
 */
const STRAY_GLYPH = 0.1;

function allowStrayGlyphs(m: CharMatrix, stray: number): CharMatrix {
  const probs = Float32Array.from(m.probs);
  for (let t = 0; t < m.steps; t++) {
    const row = t * 96;
    if (probs[row]! > 0) continue;
    for (let k = 1; k < 96; k++) probs[row + k] = probs[row + k]! * (1 - stray);
    probs[row] = stray;
  }
  return { steps: m.steps, probs };
}

export function weighDatesByStrokes(options: DateOption[], strokes: CharMatrix, now: Date): DateOption[] {
  const expert = new Map(
    readDateOptions(allowStrayGlyphs(strokes, STRAY_GLYPH), now).map((o) => [o.value, o.confidence]),
  );
  if (expert.size === 0) return options;
  const before = options.reduce((s, o) => s + o.confidence, 0);
  const weighed = options.map((o) => ({
    value: o.value,
    confidence: o.confidence * (STROKE_FLOOR + (expert.get(o.value) ?? 0)),
  }));
  const after = weighed.reduce((s, o) => s + o.confidence, 0);
  if (after > 0) for (const o of weighed) o.confidence *= before / after;
  return weighed.sort((a, b) => b.confidence - a.confidence);
}

const MAX_AGE_YEARS = 120;
const yearsBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / (365.25 * 86_400_000);
const today = (now: Date) => now.toISOString().slice(0, 10);

/** How far down the list a plausible date may be found before it counts as a guess. */
const IMPLAUSIBLE_FACTOR = 0.3;
/**
 * Vascular laboratories examine adults nearly always: a reading that makes the patient a child at the exam ("73"
 * read as "13") is weighed down against the other readings of the same strokes, and stays doubtful if it wins.
 */
const ADULT_AGE_YEARS = 18;
const MINOR_FACTOR = 0.3;
/**
 * A worksheet is reported soon after the exam: an exam date decades old ("23" read as "73") is weighed down the same
 * way, and stays doubtful if it wins (archives of old paper are possible, so it is never ruled out).
 */
const RECENT_EXAM_YEARS = 15;
const OLD_EXAM_FACTOR = 0.3;

/** A reading in the pair, with its confidence after the pair's weighing. */
type DatePick = { option: DateOption; confidence: number };

/**
 * A date left out of the pair: only when no reading of it fits (or there is none), so it weighs far less than any.
 */
const LEFT_OUT = 1e-6;

/**
 * Picks the exam date and the date of birth together, as the likeliest pair: an exam is not in the future, a
 * birth is before the exam (or today) and less than 120 years before it; an exam within 15 years and a patient of
 * 18 or more at the exam are the likely cases, the others count 0.3 of their confidence. A date none of whose
 * readings fits is kept at a low confidence, for the clinician to check.
 */
export function choosePatientDates(
  dob: DateOption[],
  exam: DateOption[],
  now: Date,
): { dob: DateOption | null; exam: DateOption | null } {
  const end = today(now);
  const weigh = (option: DateOption, factor: number) => ({ option, confidence: option.confidence * factor });
  const exams = exam
    .filter((e) => e.value <= end && yearsBetween(e.value, end) < MAX_AGE_YEARS)
    .map((e) => weigh(e, yearsBetween(e.value, end) > RECENT_EXAM_YEARS ? OLD_EXAM_FACTOR : 1));
  let best: { dob: DatePick | null; exam: DatePick | null; score: number } = { dob: null, exam: null, score: 0 };
  for (const e of [...exams, null]) {
    const limit = e?.option.value ?? end;
    const dobs = dob
      .filter((d) => d.value <= limit && yearsBetween(d.value, limit) < MAX_AGE_YEARS)
      .map((d) => weigh(d, yearsBetween(d.value, limit) < ADULT_AGE_YEARS ? MINOR_FACTOR : 1));
    for (const d of [...dobs, null]) {
      const score = (e?.confidence ?? LEFT_OUT) * (d?.confidence ?? LEFT_OUT);
      if (score > best.score) best = { dob: d, exam: e, score };
    }
  }
  const picked = (pick: DatePick | null, options: DateOption[]) =>
    pick
      ? { value: pick.option.value, confidence: pick.confidence }
      : options[0]
        ? { ...options[0], confidence: options[0].confidence * IMPLAUSIBLE_FACTOR }
        : null;
  return { dob: picked(best.dob, dob), exam: picked(best.exam, exam) };
}
