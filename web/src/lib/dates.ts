import {
  type ClinicLocale,
  DEFAULT_CLINIC_LOCALE,
  formatCalendarDate,
  formatMoment,
  formatTime,
} from "../../../domain/date-format";

// Every date the client shows goes through here, in the clinic's locale (its report spelling setting, sent with
// the signed-in user), never the browser's default. Set before any signed-in screen renders (use-auth.ts).
let clinicLocale: ClinicLocale = DEFAULT_CLINIC_LOCALE;

export function setClinicLocale(locale: ClinicLocale | undefined): void {
  clinicLocale = locale ?? DEFAULT_CLINIC_LOCALE;
}

/** The clinic's locale, for what writes dates itself (the print window's document). */
export const currentClinicLocale = (): ClinicLocale => clinicLocale;

/** A calendar date ("2026-03-05" or an ISO moment's date): "Mar 5, 2026" / "5 Mar 2026". */
export const showDate = (value: string | null | undefined, missing?: string) =>
  formatCalendarDate(value, clinicLocale, missing);

/** A moment in the reader's time zone: "Mar 5, 2026, 2:05 PM" / "5 Mar 2026, 14:05". */
export const showDateTime = (value: Date | string | null | undefined) => formatMoment(value, clinicLocale);

/** A time of day: "2:05 PM" / "14:05". */
export const showTime = (value: Date | string) => formatTime(value, clinicLocale);
