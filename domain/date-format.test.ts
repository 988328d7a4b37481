import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatMoment } from "./date-format";

describe("dates in the clinic's locale", () => {
  it("writes a calendar date with the month by name, in each locale, never shifted by a time zone", () => {
    expect(formatCalendarDate("2026-03-05", "en-US")).toBe("Mar 5, 2026");
    expect(formatCalendarDate("2026-03-05", "en-GB")).toBe("5 Mar 2026");
    expect(formatCalendarDate("2026-12-31T23:30:00.000Z", "en-US")).toBe("Dec 31, 2026");
    expect(formatCalendarDate(null, "en-GB")).toBe("Not recorded");
    expect(formatCalendarDate("", "en-US", "—")).toBe("—");
    expect(formatCalendarDate("about March", "en-US")).toBe("about March");
  });

  it("writes a moment in the given zone: 12-hour for en-US, 24-hour for en-GB", () => {
    const moment = "2026-11-22T14:05:00.000Z";
    expect(formatMoment(moment, "en-US", { timeZone: "UTC" })).toBe("Nov 22, 2026, 2:05 PM");
    expect(formatMoment(moment, "en-GB", { timeZone: "UTC" })).toBe("22 Nov 2026, 14:05");
    expect(formatMoment(moment, "en-GB", { timeZone: "UTC", zoneName: true })).toBe("22 Nov 2026, 14:05 UTC");
    expect(formatMoment("2026-11-22T08:00:00.000Z", "en-GB", { timeZone: "America/New_York" })).toBe(
      "22 Nov 2026, 03:00",
    );
    expect(formatMoment("not a date", "en-US")).toBe("");
  });
});
