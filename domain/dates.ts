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
  if (!dmy) return null;
  const yearText = dmy[4]!;
  const year = yearText.length === 2 ? expandTwoDigitYear(Number(yearText), now) : Number(yearText);
  return isoDate(year, Number(dmy[3]), Number(dmy[1]));
}
