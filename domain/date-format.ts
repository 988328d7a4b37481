// One place that writes dates for people (issue 29 item 6): in the clinic's locale, its `reportSpelling`
// setting (en-US or en-GB), never the browser's default. Date inputs keep ISO (YYYY-MM-DD), as <input
// type="date"> needs.

export type ClinicLocale = "en-US" | "en-GB";
export const DEFAULT_CLINIC_LOCALE: ClinicLocale = "en-US";

/** The locale of a clinic's stored spelling setting; anything else (none, unknown) is the default. */
export const clinicLocaleOf = (spelling: string | null | undefined): ClinicLocale =>
  spelling === "en-GB" ? "en-GB" : DEFAULT_CLINIC_LOCALE;

const calendarFormats = new Map<string, Intl.DateTimeFormat>();
function calendarFormat(locale: ClinicLocale): Intl.DateTimeFormat {
  let format = calendarFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
    calendarFormats.set(locale, format);
  }
  return format;
}

/**
 * A calendar date ("2026-11-22", or the date part of an ISO moment) as "Nov 22, 2026" (en-US) or
 * "22 Nov 2026" (en-GB): the month by name, so neither reader can misread it; never shifted by a time zone.
 */
export function formatCalendarDate(
  value: string | null | undefined,
  locale: ClinicLocale,
  missing = "Not recorded",
): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? "");
  if (!match) return value?.trim() || missing;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(date.getTime()) ? value! : calendarFormat(locale).format(date);
}

/**
 * A moment as "Nov 22, 2026, 2:05 PM" (en-US) or "22 Nov 2026, 14:05" (en-GB) in the reader's time zone (or
 * the one given), with the zone's name when asked.
 */
export function formatMoment(
  value: Date | string | null | undefined,
  locale: ClinicLocale,
  options: { timeZone?: string; zoneName?: boolean } = {},
): string {
  if (!value) return "";
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const parts = new Intl.DateTimeFormat(locale, {
    timeZone: options.timeZone,
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: locale === "en-GB" ? "h23" : "h12",
    ...(options.zoneName ? { timeZoneName: "short" as const } : {}),
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  const day =
    locale === "en-GB"
      ? `${part("day")} ${part("month")} ${part("year")}`
      : `${part("month")} ${part("day")}, ${part("year")}`;
  const hour = locale === "en-GB" ? part("hour").padStart(2, "0") : part("hour");
  const time = `${hour}:${part("minute")}${locale === "en-GB" ? "" : ` ${part("dayPeriod").toUpperCase()}`}`;
  return `${day}, ${time}${options.zoneName ? ` ${part("timeZoneName")}` : ""}`;
}

/** A time of day alone ("2:05 PM" / "14:05"), in the reader's time zone. */
export function formatTime(value: Date | string, locale: ClinicLocale): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(locale, {
    hour: "numeric",
    minute: "2-digit",
    hourCycle: locale === "en-GB" ? "h23" : "h12",
  }).format(date);
}
