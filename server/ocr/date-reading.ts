import { parseWorksheetDate } from "../../domain/dates";
import { constrainedDecode, grammarFit, shares } from "./ctc-constrained";
import { ctcDecode } from "./ctc-decode";
import { Grammar, type Pattern, type Token } from "./ctc-grammar";
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

const t = (chars: string, min = 1, max = min): Token => ({ chars, min, max });
const ONE_TO_NINE = "123456789";
const DIGITS = "0123456789";
/** A day as a number: 1-9, 01-09, 10-29, 30-31. */
const DAYS: Pattern[] = [[t(ONE_TO_NINE)], [t("0"), t(ONE_TO_NINE)], [t("12"), t(DIGITS)], [t("3"), t("01")]];
/** A month as a number: 1-9, 01-09, 10-12. */
const MONTHS: Pattern[] = [[t(ONE_TO_NINE)], [t("0"), t(ONE_TO_NINE)], [t("1"), t("012")]];
/** A four-digit year of a birth within 150 years or an exam (18xx-20xx); a two-digit year is any two digits. */
const LONG_YEARS: Pattern[] = [
  [t("1"), t("89"), t(DIGITS, 2)],
  [t("2"), t("0"), t(DIGITS, 2)],
];
const SHORT_YEAR: Pattern = [t(DIGITS, 2)];

/**
 * A written date as three numbers and the separators between them: a day of 1-31, a month of 1-12 and a year, in
 * the orders worksheets use (day, month, year with two or four digits; ISO year-month-day with dashes), both
 * separators the same (". / -": what domain/dates.ts parses). Unlike a grammar of digit groups, a reading that
 * cannot be a date ("2025-0/-06", "12.03-1990", month 19) is not a candidate at all, so the n best readings are
 * all dates and an ambiguous stroke (1 or /, 7 or 1) is resolved by what the numbers and the separators allow.
 */
export const DATE_PARTS_GRAMMAR = new Grammar([
  ...[".", "/", "-"].flatMap((sep) =>
    DAYS.flatMap((day) =>
      MONTHS.flatMap((month) => [SHORT_YEAR, ...LONG_YEARS].map((year) => [...day, t(sep), ...month, t(sep), ...year])),
    ),
  ),
  ...LONG_YEARS.flatMap((year) =>
    MONTHS.flatMap((month) => DAYS.map((day) => [...year, t("-"), ...month, t("-"), ...day])),
  ),
]);

/** Letters no digit is misread as: a run of two of them is words, not a date's misread digits. */
export const WORD_LETTERS = /[AC-FHJKMNPRT-Yac-fhkmnprt-wx]/;
const wordAt = (text: string, i: number) => WORD_LETTERS.test(text[i] ?? "") && WORD_LETTERS.test(text[i + 1] ?? "");

/**
 * Where the date ends when the next field's label was read in the same strip ("7.06.2005 Sex:", "21/07/41sex:F"):
 * at the first word (two letters no digit is misread as) after four digits; a letter inside the date
 * ("1977-0q-a7", "30.1a.20al") is a misread digit and stays. The whole strip otherwise.
 */
export function dateEnd(matrix: CharMatrix): number {
  const { text, chars } = ctcDecode(matrix);
  return chars[wordStart(text)]?.step ?? matrix.steps;
}

/**
 * Where the date starts when its label was read in the same strip, misread so that it was not recognised as the
 * label ("D.0.8:1995-11-16"): after the last colon with the date's digits after it, since no date holds a colon.
 * The strip's start otherwise.
 */
export function dateStart(matrix: CharMatrix): number {
  const { text, chars } = ctcDecode(matrix);
  const colon = text.lastIndexOf(":");
  if (colon < 0 || text.slice(colon + 1).replace(/\D/g, "").length < MIN_DATE_DIGITS) return 0;
  return chars[colon + 1]!.step;
}

/**
 * Where, as a share of the strip's width, a date run into the next field's label ends ("21/07./41sex:F"): halfway
 * between the date's last character and the label's first, so that the date's strokes can be read without the
 * label's letters. Null when the strip holds no such label.
 */
export function dateShareOfStrip(matrix: CharMatrix): number | null {
  const { text, chars } = ctcDecode(matrix);
  const start = wordStart(text);
  if (start <= 0 || !leadsWithDate(text)) return null;
  return (chars[start - 1]!.step + chars[start]!.step + 1) / 2 / matrix.steps;
}

/** The fewest digits a written date has ("1.5.22"). */
const MIN_DATE_DIGITS = 4;

function wordStart(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    if (digits >= 4 && wordAt(text, i)) {
      // The word's first letters may be look-alikes ("Sex").
      let start = i;
      while (start > 0 && /[A-Za-z]/.test(text[start - 1]!)) start--;
      return start;
    }
    if (/\d/.test(text[i]!)) digits++;
  }
  return -1;
}

/**
 * Whether a strip starts with a date and then holds the next field's label ("7.06.2005 Sex:"): such a strip is the
 * date's value though a label was read in it.
 */
export function leadsWithDate(text: string): boolean {
  const end = wordStart(text);
  if (end < 0) return false;
  const head = text.slice(0, end).replace(/\s/g, "");
  return /^\d/.test(head) && head.replace(/[^0-9./-]/g, "").length >= 0.75 * head.length;
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
  const decoded = constrainedDecode(matrix, DATE_PARTS_GRAMMAR, {
    beam: 32,
    nbest: 16,
    from: dateStart(matrix),
    to: dateEnd(matrix),
  });
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
 * A date the strokes read that none of the recogniser's readings is, but that has two of the three numbers of one
 * of them (its day read "03" where the strokes clearly read "23"), is offered at this fraction of that reading's
 * confidence: against a clear recogniser reading both stay doubtful, against a doubtful one it may win. Chosen on
 * the tuning seeds 101, 131 and 151 (90 dates of birth and 90 exam dates): 0 / 0.02 / 0.05 / 0.1 / 0.2 read
 * 72+79 / 73+79 / 72+78 / 69+78 / 67+74 of them right; offered whatever it shares with the recogniser's readings
 * (0.01 / 0.02 / 0.05 of the strokes' probability) it lost 4 to 6 dates on seeds 101 and 131.
 */
const RECOGNISER_FLOOR = 0.02;
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

/** The day, month and year of an ISO date. */
const partsOf = (iso: string) => [iso.slice(8, 10), iso.slice(5, 7), iso.slice(0, 4)];

/**
 * How much the recogniser supports a date it did not read whole: its likeliest reading that has two of the date's
 * three numbers ("03.08.25" for "23.08.25": only the day differs).
 */
function kin(value: string, options: DateOption[]): number {
  const parts = partsOf(value);
  let best = 0;
  for (const o of options) {
    const same = partsOf(o.value).filter((p, i) => p === parts[i]).length;
    if (same >= 2) best = Math.max(best, o.confidence);
  }
  return best;
}

/**
 * A date only the strokes read is offered at this fraction of their confidence: under the screen's 0.8, so that
 * it is checked, and above the repairs of a recogniser's reading that was no date.
 */
const STROKES_ALONE_FACTOR = 0.5;

/**
 * A strokes' date this sure, read as they are (no stray glyphs allowed), is nearly always the one written: on the
 * tuning seeds 101, 131 and 151 the strokes' best date was right 50 times of 50 at 0.95 or more, 55 of 55 at 0.9, and
 * wrong at 0.8, 0.81 and 0.87. (With stray glyphs allowed, wrong dates reach 0.82 and the sure one of 151/028 0.73.)
 */
const SURE_STROKES = 0.95;
/**
 * Such a date is offered at this fraction of the recogniser's best confidence, even when it shares no two numbers
 * with any of its readings ("1931-01-29" against the strokes' "2021-11-29"): below a plausible recogniser reading,
 * which keeps its place, but above one choosePatientDates weighs down (an exam decades old, a patient who would be a
 * child: 0.3) or rules out (an exam before the birth), and below the screen's 0.8, so the clinician checks it.
 * 0.6-0.9 also beat a plausible reading ("03.08.25" against sure "23.08.25") but lost a font corpus date whose
 * strokes were sure and wrong ("09-7-1975" at 0.99): sure strokes only overrule a date implausible for its field.
 */
const SURE_STROKES_FACTOR = 0.5;

export function weighDatesByStrokes(options: DateOption[], strokes: CharMatrix, now: Date): DateOption[] {
  const expert = new Map(
    readDateOptions(allowStrayGlyphs(strokes, STRAY_GLYPH), now).map((o) => [o.value, o.confidence]),
  );
  if (expert.size === 0) return options;
  // The recogniser read no date at all (a strip cut short, "911/"): the strokes' reading stands alone, doubtful.
  if (options.length === 0)
    return [...expert].map(([value, confidence]) => ({ value, confidence: confidence * STROKES_ALONE_FACTOR }));
  const before = options.reduce((s, o) => s + o.confidence, 0);
  const own = new Map(options.map((o) => [o.value, o.confidence]));
  const values = [...new Set([...own.keys(), ...expert.keys()])];
  const weighed = values.map((value) => ({
    value,
    confidence:
      ((own.get(value) ?? 0) + RECOGNISER_FLOOR * kin(value, options)) * (STROKE_FLOOR + (expert.get(value) ?? 0)),
  }));
  const after = weighed.reduce((s, o) => s + o.confidence, 0);
  if (after > 0) for (const o of weighed) o.confidence *= before / after;
  const sure = readDateOptions(strokes, now).find((o) => o.confidence >= SURE_STROKES);
  if (sure) {
    const floor = SURE_STROKES_FACTOR * sure.confidence * Math.max(...options.map((o) => o.confidence));
    const kept = weighed.find((o) => o.value === sure.value);
    if (kept) kept.confidence = Math.max(kept.confidence, floor);
    else weighed.push({ value: sure.value, confidence: floor });
  }
  return weighed.filter((o) => o.confidence > 0).sort((a, b) => b.confidence - a.confidence);
}

/** No patient is older: a birth further back is no reading of a date of birth, and no larger number an age. */
export const MAX_AGE_YEARS = 120;
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
