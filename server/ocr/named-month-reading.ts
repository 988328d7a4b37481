/**
 * A date written with its month's name, as a recogniser reads handwriting of it on a phone photo: separators and
 * spaces lost or added ("17DECEMBER2003", "19-FEB-19 80"), a zero read as the letter O ("3O-APR-1984"), the month's
 * name with a letter or two wrong ("12 Febray 1946"). domain/dates.ts parses the written forms exactly; this reads
 * what is left of them. Pure: text in, ISO date out.
 */
import { MONTH_NAMES, parseNamedMonthDate } from "../../domain/dates";
import { WORD_LETTERS } from "./date-reading";
import { editDistance } from "./name-lexicon";

/** How many letters a month's name may have wrong: one in a short word, two in a long one. */
const allowedEdits = (word: string) => (word.length >= 6 ? 2 : 1);

/** Shorter words must name a month exactly, unless they stand between a day and a year: "Sex" is no "Sep". */
const FUZZY_FROM = 4;

/**
 * The month (1-12) a written word names, exactly (its first three letters or more) or, from four letters on (three
 * with `short`, for a word between a day and a year), with a few letters wrong against its abbreviation or full
 * name; null when no month is that near, or two are equally near. `exact` says whether it needed no repair.
 */
export function monthOfWord(word: string, short = false): { month: number; exact: boolean } | null {
  const w = word.toLowerCase();
  if (w.length < 3 || w.length > 10) return null;
  const exact = MONTH_NAMES.findIndex((name) => name.startsWith(w) || (w === "sept" && name === "september"));
  if (exact >= 0) return { month: exact + 1, exact: true };
  if (w.length < (short ? 3 : FUZZY_FROM)) return null;
  const limit = allowedEdits(w);
  const distances = MONTH_NAMES.map((name) =>
    Math.min(editDistance(w, name, limit + 1), editDistance(w, name.slice(0, w.length), limit + 1)),
  );
  const best = Math.min(...distances);
  if (best > limit || distances.filter((d) => d === best).length > 1) return null;
  return { month: distances.indexOf(best) + 1, exact: false };
}

/**
 * The month a token of letters and misread digits names ("MA9", "0CT", "10V", "AuG1"): the digits stand for any
 * letter, the letters must match the month's abbreviation or the start of its name; one month only. Two letters no
 * digit is misread as must be there, so a numeric month ("1O") is never taken for one.
 */
function monthOfMixedToken(token: string): number | null {
  const t = token.toLowerCase();
  if (t.length < 3 || t.length > 9 || !/\d/.test(t) || !WORD_LETTERS.test(token)) return null;
  const fits = (alike: (digit: string, letter: string) => boolean) =>
    MONTH_NAMES.map((name, k) => ({ name: t.length === 3 ? name.slice(0, 3) : name, k })).filter(
      ({ name }) =>
        name.length >= t.length && [...t].every((c, i) => (/\d/.test(c) ? alike(c, name[i]!) : c === name[i])),
    );
  // Any letter for a digit; if two months fit ("MA9": March, May), the letters that digit looks like decide.
  const any = fits(() => true);
  const matches = any.length > 1 ? fits((digit, letter) => LETTERS_LIKE[digit]?.includes(letter) ?? false) : any;
  return matches.length === 1 ? matches[0]!.k + 1 : null;
}

/** The letters a handwritten digit is read for. */
const LETTERS_LIKE: Record<string, string> = {
  "0": "odq",
  "1": "ijlt",
  "2": "z",
  "4": "a",
  "5": "s",
  "6": "bg",
  "7": "t",
  "8": "b",
  "9": "gqy",
};

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

/** Two letters in a row that no digit is misread as: a word (date-reading.ts reads them so too). */
const TWO_WORD_LETTERS = new RegExp(`${WORD_LETTERS.source}{2}`);

/**
 * Whether a date's reading (after its label's colon) has a word between its numbers ("3 Jnuay 1950"): a month
 * written by its name, however garbled, whose letters are no misread digits. A word after the last digit may be the
 * next field's label run in ("12/03/1961 Gender") and does not count.
 */
export function wordInsideDate(text: string): boolean {
  const value = text.slice(text.lastIndexOf(":") + 1);
  const first = value.search(/\d/);
  const last = value.search(/\d\D*$/);
  return first >= 0 && TWO_WORD_LETTERS.test(value.slice(first, last));
}

/** A month's name before a day and a four-digit year, however garbled ("Ma13,2026"): no numeric date. */
export function namedMonthShape(text: string): boolean {
  return /^[^A-Za-z0-9]*[A-Za-z]{2,}[.\s]*\d{1,2}[^A-Za-z0-9]+\d{4}[^A-Za-z0-9]*$/.test(
    text.slice(text.lastIndexOf(":") + 1),
  );
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
  const month = parts ? monthOfWord(parts.word, true)?.month : undefined;
  if (parts && month) return asDate(parts.day, month, parts.year, now);
  return mixedTokenDate(trimmed, now);
}

/** Day, month and year, checked as a calendar date by domain/dates.ts with the month's name spelt right. */
function asDate(day: string, month: number, year: string, now: Date): { value: string; repaired: boolean } | null {
  const value = parseNamedMonthDate(`${day} ${MONTH_NAMES[month - 1]} ${year}`, now);
  return value ? { value, repaired: true } : null;
}

/** "04-MA9-1984", "19-0CT-2021", "09-10V-1986": three parts, the month's a token of letters and misread digits. */
function mixedTokenDate(text: string, now: Date): { value: string; repaired: boolean } | null {
  const parts = text.split(/[\s./,-]+/).filter(Boolean);
  // A year read in two pieces ("19-0CT-20 21").
  if (parts.length === 4 && /^\d{4}$/.test(parts[2]! + parts[3]!)) parts.splice(2, 2, parts[2]! + parts[3]!);
  if (parts.length !== 3) return null;
  const number = (t: string, digits: RegExp) => {
    const n = digitLookalikes(`0${t}`).slice(1);
    return digits.test(n) ? n : null;
  };
  for (const [d, m] of [
    [0, 1],
    [1, 0],
  ] as const) {
    const day = number(parts[d]!, /^\d{1,2}$/);
    const year = number(parts[2]!, /^\d{4}$/);
    const month = monthOfMixedToken(parts[m]!);
    if (day && year && month) return asDate(day, month, year, now);
  }
  return null;
}
