/**
 * Report turnaround (issue 26): how many working days a report waited for its signature, and the clinic's
 * figures over many reports. Pure: the dates, the clock and the time zone are the caller's.
 *
 * The rules (docs/permissions.md, "Sign-off and turnaround"):
 * - Working days are Monday to Friday; Saturdays and Sundays are not counted. Public holidays are not known
 *   and count as working days.
 * - The clock starts on the exam day (a calendar date; an exam on a weekend starts it all the same) and counts
 *   the working days after it up to and including the signing day: signed on the exam day is 0, an exam on
 *   Friday signed on Tuesday is 2 (Monday, Tuesday).
 * - A report is signed within a target of N working days when that count is at most N; a draft is overdue
 *   once today's count passes N (a Monday exam with a target of 2 is due by the end of Wednesday, overdue on
 *   Thursday).
 */

export const DEFAULT_TURNAROUND_TARGET_DAYS = 2;
export const MAX_TURNAROUND_TARGET_DAYS = 30;

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (a calendar date, no time zone). */
function dayNumber(isoDate: string): number {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}

/** 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 for Monday ... 6 for Sunday. */
const weekdayOf = (day: number) => (((day + 3) % 7) + 7) % 7;

/** Monday to Friday days d with from < d <= to (0 when `to` is not after `from`). */
function workingDaysAfter(from: number, to: number): number {
  if (to <= from) return 0;
  const days = to - from;
  const weeks = Math.floor(days / 7);
  let count = weeks * 5;
  // The remaining days (fewer than 7) just after from + 7 * weeks.
  for (let d = from + weeks * 7 + 1; d <= to; d++) if (weekdayOf(d) < 5) count++;
  return count;
}

/** Working days (Mon-Fri) after `startDate` up to and including `endDate`; both YYYY-MM-DD. */
export function workingDaysBetween(startDate: string, endDate: string): number {
  return workingDaysAfter(dayNumber(startDate), dayNumber(endDate));
}

/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function calendarDateIn(instant: Date | number, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(instant),
  );
}

/** The ISO 8601 week of a date, as "2026-W48" (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeekOf(isoDate: string): string {
  const day = dayNumber(isoDate);
  const thursday = day - weekdayOf(day) + 3;
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const firstThursdayWeek = Math.floor((thursday - dayNumber(`${year}-01-01`)) / 7) + 1;
  return `${year}-W${String(firstThursdayWeek).padStart(2, "0")}`;
}

/** The Monday of an ISO week's date, YYYY-MM-DD. */
export function mondayOf(isoDate: string): string {
  const day = dayNumber(isoDate);
  return new Date((day - weekdayOf(day)) * DAY_MS).toISOString().slice(0, 10);
}

/** The median of numbers (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The share (0..1) of counts at most the target; null for none. */
export function shareWithin(workingDays: readonly number[], target: number): number | null {
  if (workingDays.length === 0) return null;
  return workingDays.filter((d) => d <= target).length / workingDays.length;
}

/** Where a draft stands against the target today. */
export type DraftAge = { workingDays: number; calendarDays: number; overdue: boolean };

/** A draft waiting since `startDate` (YYYY-MM-DD), judged on `today` (YYYY-MM-DD) against the target. */
export function draftAge(startDate: string, today: string, target: number): DraftAge {
  const workingDays = workingDaysBetween(startDate, today);
  return {
    workingDays,
    calendarDays: Math.max(0, dayNumber(today) - dayNumber(startDate)),
    overdue: workingDays > target,
  };
}

/** One signed report, as the dashboard counts it. */
export type SignedReport = {
  physicianId: number | null;
  /** The day the turnaround clock started: the exam date, else the day the report was generated. */
  startDate: string;
  startsFrom: "exam" | "generated";
  generatedAt: Date;
  /** The first signature (an amendment and its new signature do not move it). */
  signedAt: Date;
};

export type TurnaroundFigures = {
  signed: number;
  /** Median working days from the exam to the signature. */
  medianWorkingDays: number | null;
  /** Median hours from the draft's generation to its signature (the reading time, exact to the second). */
  medianHoursGeneratedToSigned: number | null;
  withinTarget: number;
  shareWithinTarget: number | null;
  /** Reports without an exam date: timed from the day they were generated instead. */
  timedFromGenerated: number;
};

/** The figures of a group of signed reports against a target, with signing days in the time zone. */
export function turnaroundFigures(
  reports: readonly SignedReport[],
  target: number,
  timeZone: string,
): TurnaroundFigures {
  const days = reports.map((r) => workingDaysBetween(r.startDate, calendarDateIn(r.signedAt, timeZone)));
  const hours = reports.map((r) => Math.max(0, r.signedAt.getTime() - r.generatedAt.getTime()) / 3_600_000);
  const medianHours = median(hours);
  return {
    signed: reports.length,
    medianWorkingDays: median(days),
    medianHoursGeneratedToSigned: medianHours === null ? null : Math.round(medianHours * 100) / 100,
    withinTarget: days.filter((d) => d <= target).length,
    shareWithinTarget: shareWithin(days, target),
    timedFromGenerated: reports.filter((r) => r.startsFrom === "generated").length,
  };
}
