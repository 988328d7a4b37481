/**
 * Worksheet dates are written day-month-year (Australian/European clinics) with `.`, `/` or `-`,
 * or as ISO year-month-day. Two-digit years follow docs/decisions/002-two-digit-years.md.
 */

const DMY = /^(\d{1,2})\s*([./-])\s*(\d{1,2})\s*\2\s*(\d{4}|\d{2})$/;
const ISO = /^(\d{4})\s*-\s*(\d{1,2})\s*-\s*(\d{1,2})$/;

/**
 * A two-digit year is 20yy unless that lies after the current year, then 19yy. The clock is injected
 * so the rule keeps working (and stays testable) as years pass, unlike a fixed pivot.
 */
export function expandTwoDigitYear(yy: number, now: Date = new Date()): number {
  const candidate = 2000 + yy;
  return candidate > now.getFullYear() ? 1900 + yy : candidate;
}

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1000) return null;
  // Date.UTC rolls 31.02 over into March: a round trip rejects impossible days.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Parses a worksheet date to `YYYY-MM-DD`; anything that is not a real calendar date gives null. */
export function parseWorksheetDate(text: string, now: Date = new Date()): string | null {
  const trimmed = text.trim();
  const iso = ISO.exec(trimmed);
  if (iso) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const dmy = DMY.exec(trimmed);
  if (!dmy) return parseNamedMonthDate(trimmed, now);
  const yearText = dmy[4]!;
  const year = yearText.length === 2 ? expandTwoDigitYear(Number(yearText), now) : Number(yearText);
  return isoDate(year, Number(dmy[3]), Number(dmy[1]));
}

export const MONTH_NAMES = [
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
/** "03-APR-1956", "3 April 1956", "3rd Apr. 56": day, month by name, year. */
const DAY_NAMED = /^(\d{1,2})(?:st|nd|rd|th)?[\s./-]*([A-Za-z]{3,9})\.?[\s.,/-]*(\d{4}|\d{2})$/;
/** "Apr 3, 1956", "April 3rd 1956": month by name, day, year. */
const NAMED_DAY = /^([A-Za-z]{3,9})\.?[\s./-]*(\d{1,2})(?:st|nd|rd|th)?[\s,./-]+(\d{4}|\d{2})$/;

/** The month a word names (1-12): its first three letters or more of the English name ("Sept" too), or null. */
function monthNamed(word: string): number | null {
  const w = word.toLowerCase();
  const index = MONTH_NAMES.findIndex((name) => name.startsWith(w) || (w === "sept" && name === "september"));
  return w.length >= 3 && index >= 0 ? index + 1 : null;
}

/** A date whose month is written as its name, day first or month first; null for anything else. */
export function parseNamedMonthDate(text: string, now: Date = new Date()): string | null {
  const trimmed = text.trim();
  const dayFirst = DAY_NAMED.exec(trimmed);
  const parts = dayFirst
    ? { day: dayFirst[1]!, month: dayFirst[2]!, year: dayFirst[3]! }
    : (() => {
        const m = NAMED_DAY.exec(trimmed);
        return m ? { day: m[2]!, month: m[1]!, year: m[3]! } : null;
      })();
  if (!parts) return null;
  const month = monthNamed(parts.month);
  if (!month) return null;
  const year = parts.year.length === 2 ? expandTwoDigitYear(Number(parts.year), now) : Number(parts.year);
  return isoDate(year, month, Number(parts.day));
}

/** Beyond this age at the exam a date of birth is taken for a misreading. */
export const MAX_PLAUSIBLE_AGE_YEARS = 120;

/** Today's date as YYYY-MM-DD in the clinic's local time (the caller's clock). */
export function localIsoDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Whole years from one ISO date to another (both YYYY-MM-DD). */
function yearsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = to.split("-").map(Number) as [number, number, number];
  return ty - fy - (tm < fm || (tm === fm && td < fd) ? 1 : 0);
}

/** The latest calendar date it is anywhere on Earth (UTC+14): a server cannot know the clinic's time zone. */
export function latestIsoDateAnywhere(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3600_000).toISOString().slice(0, 10);
}

const isIso = (value: string | null | undefined): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

export type DateProblemKind = "exam_in_future" | "birth_in_future" | "birth_after_exam" | "age_over_limit";

/**
 * Dates that cannot be right for a report: born after the exam (the exam before birth), an exam or a birth in
 * the future, or an age over 120 at the exam. Each comes with one sentence for the clinician; none means the
 * dates are plausible. Missing dates are not a problem here (the forms ask for them). `today` is YYYY-MM-DD
 * so the check stays pure.
 */
export function dateProblems(
  dates: { patientDob?: string | null; examDate?: string | null },
  today: string = localIsoDate(),
): { kind: DateProblemKind; message: string }[] {
  const dob = isIso(dates.patientDob) ? dates.patientDob : null;
  const exam = isIso(dates.examDate) ? dates.examDate : null;
  const problems: { kind: DateProblemKind; message: string }[] = [];
  if (exam && exam > today)
    problems.push({ kind: "exam_in_future", message: `The exam date ${exam} is in the future.` });
  if (dob && dob > today) {
    problems.push({ kind: "birth_in_future", message: `The date of birth ${dob} is in the future.` });
  }
  if (dob && exam && dob > exam) {
    problems.push({
      kind: "birth_after_exam",
      message: `The date of birth ${dob} is after the exam date ${exam}: the exam cannot be before birth.`,
    });
  }
  const ageAt = exam && exam <= today ? exam : today;
  if (dob && dob <= ageAt && yearsBetween(dob, ageAt) > MAX_PLAUSIBLE_AGE_YEARS) {
    problems.push({
      kind: "age_over_limit",
      message: `The date of birth ${dob} makes the patient ${yearsBetween(dob, ageAt)} years old at the exam, over ${MAX_PLAUSIBLE_AGE_YEARS}.`,
    });
  }
  return problems;
}

/** The sentences of `dateProblems`. */
export const dateWarnings = (
  dates: { patientDob?: string | null; examDate?: string | null },
  today: string = localIsoDate(),
): string[] => dateProblems(dates, today).map((p) => p.message);
