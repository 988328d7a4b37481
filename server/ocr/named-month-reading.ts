/**
 * A date written with its month's name, as a recogniser reads handwriting of it on a phone photo: separators and
 * spaces lost or added ("17DECEMBER2003", "19-FEB-19 80"), a zero read as the letter O ("3O-APR-1984"), the month's
 * name with a letter or two wrong ("12 Febray 1946"). domain/dates.ts parses the written forms exactly; this reads
 * what is left of them. Pure: text in, ISO date out.
 */
import { parseNamedMonthDate } from "../../domain/dates";
import { WORD_LETTERS } from "./date-reading";
import { editDistance } from "./name-lexicon";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** How many letters a month's name may have wrong: one in a short word, two in a long one. */
const allowedEdits = (word: string) => (word.length >= 6 ? 2 : 1);

/** Shorter words must name a month exactly: one letter off, "Sex" would be "Sep". */
const FUZZY_FROM = 4;

/**
 * The month (1-12) a written word names, exactly (its first three letters or more) or, from four letters on, with a
 * few letters wrong against its abbreviation or full name; null when no month is that near, or two are equally near.
 * `exact` says whether it needed no repair.
 */
export function monthOfWord(word: string): { month: number; exact: boolean } | null {
  const w = word.toLowerCase();
  if (w.length < 3 || w.length > 10) return null;
  const exact = MONTHS.findIndex((name) => name.startsWith(w) || (w === "sept" && name === "september"));
  if (exact >= 0) return { month: exact + 1, exact: true };
  if (w.length < FUZZY_FROM) return null;
  const limit = allowedEdits(w);
  const distances = MONTHS.map((name) =>
    Math.min(editDistance(w, name, limit + 1), editDistance(w, name.slice(0, w.length), limit + 1)),
  );
  const best = Math.min(...distances);
  if (best > limit || distances.filter((d) => d === best).length > 1) return null;
  return { month: distances.indexOf(best) + 1, exact: false };
}

/** An O or l read where a digit was written, beside digits and not inside a word ("3O" -> "30", "l9" -> "19"). */
const digitLookalikes = (text: string) =>
  text
    .replace(/(?<=\d)[Oo](?![A-Za-z])|(?<![A-Za-z])[Oo](?=\d)/g, "0")
    .replace(/(?<=\d)[lI|](?![A-Za-z])|(?<![A-Za-z])[lI|](?=\d)/g, "1");

/** Day, month's name, four-digit year; and month's name, day, year (separators and spaces already removed). */
const DAY_FIRST = /^(\d{1,2})(?:st|nd|rd|th)?[^A-Za-z0-9]*([A-Za-z]{3,10})[^A-Za-z0-9]*(\d{4})$/;
const MONTH_FIRST = /^([A-Za-z]{3,10})[^A-Za-z0-9]*(\d{1,2})(?:st|nd|rd|th)?[^A-Za-z0-9]*(\d{4})$/;

/** Whether the read text names a month at all (a run of letters that is a month's name, exactly or nearly). */
export function namesMonth(text: string): boolean {
  return (text.match(/[A-Za-z]{3,10}/g) ?? []).some((w) => monthOfWord(w) !== null);
}

/** Three letters in a row that no digit is misread as: a word. */
const WORD = new RegExp(`${WORD_LETTERS.source}{3}`);

/**
 * Whether a date's reading (after its label's colon) has a word between its numbers ("3 Jnuay 1950"): a month
 * written by its name, however garbled, whose letters are no misread digits. A word after the last digit may be the
 * next field's label run in ("12/03/1961 Gender") and does not count.
 */
export function wordInsideDate(text: string): boolean {
  const value = text.slice(text.lastIndexOf(":") + 1);
  const first = value.search(/\d/);
  const last = value.search(/\d\D*$/);
  return first >= 0 && WORD.test(value.slice(first, last));
}

/**
 * A named-month date from its reading: exactly as written first (domain/dates.ts), else repaired (spaces and
 * separators dropped, look-alike digits, a month's name nearly right). `repaired` marks a reading that needed it, to
 * be shown for checking. Null when the text is not such a date with a four-digit year.
 */
export function readNamedMonthDate(text: string, now: Date): { value: string; repaired: boolean } | null {
  const trimmed = text.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "");
  const exact = parseNamedMonthDate(trimmed, now);
  if (exact) return { value: exact, repaired: false };
  const squashed = digitLookalikes(trimmed).replace(/\s+/g, "");
  const dayFirst = DAY_FIRST.exec(squashed);
  const monthFirst = dayFirst ? null : MONTH_FIRST.exec(squashed);
  const parts = dayFirst
    ? { day: dayFirst[1]!, word: dayFirst[2]!, year: dayFirst[3]! }
    : monthFirst
      ? { day: monthFirst[2]!, word: monthFirst[1]!, year: monthFirst[3]! }
      : null;
  if (!parts) return null;
  const month = monthOfWord(parts.word);
  if (!month) return null;
  // Checked as a calendar date by domain/dates.ts, with the month's name spelt right.
  const value = parseNamedMonthDate(`${parts.day} ${MONTHS[month.month - 1]} ${parts.year}`, now);
  return value ? { value, repaired: true } : null;
}
