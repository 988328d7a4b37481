import { describe, expect, it } from "vitest";
import { expandTwoDigitYear, parseWorksheetDate } from "./dates";

const in2026 = new Date("2026-03-12T10:00:00Z");

describe("parseWorksheetDate", () => {
  it("reads day-month-year with each separator", () => {
    expect(parseWorksheetDate("27-10-1950", in2026)).toBe("1950-10-27");
    expect(parseWorksheetDate("11.01.2020", in2026)).toBe("2020-01-11");
    expect(parseWorksheetDate("8/10/1931", in2026)).toBe("1931-10-08");
    expect(parseWorksheetDate(" 1/5/2022 ", in2026)).toBe("2022-05-01");
  });

  it("reads ISO dates as written", () => {
    expect(parseWorksheetDate("2020-08-18", in2026)).toBe("2020-08-18");
  });

  it("expands two-digit years to 20yy unless that is after the current year", () => {
    expect(parseWorksheetDate("12.03.26", in2026)).toBe("2026-03-12");
    expect(parseWorksheetDate("19.09.26", in2026)).toBe("2026-09-19");
    expect(parseWorksheetDate("02/08/69", in2026)).toBe("1969-08-02");
    expect(parseWorksheetDate("21/09/31", in2026)).toBe("1931-09-21");
    expect(parseWorksheetDate("28/02/27", in2026)).toBe("1927-02-28");
    expect(parseWorksheetDate("01-01-00", in2026)).toBe("2000-01-01");
  });

  it("moves the pivot with the clock", () => {
    const in2031 = new Date("2031-01-01T00:00:00Z");
    expect(parseWorksheetDate("05.05.30", in2031)).toBe("2030-05-05");
    expect(parseWorksheetDate("05.05.30", in2026)).toBe("1930-05-05");
    expect(expandTwoDigitYear(31, in2031)).toBe(2031);
    expect(expandTwoDigitYear(32, in2031)).toBe(1932);
  });

  it("rejects impossible dates and other text", () => {
    for (const bad of [
      "31.02.2020",
      "00/01/2020",
      "12/13/2020",
      "2020-13-01",
      "1.2",
      "12.03/2020",
      "",
      "abc",
      "12.03.202",
    ]) {
      expect(parseWorksheetDate(bad, in2026), bad).toBeNull();
    }
  });

  it("accepts 29 February only in leap years", () => {
    expect(parseWorksheetDate("29.02.2024", in2026)).toBe("2024-02-29");
    expect(parseWorksheetDate("29.02.2023", in2026)).toBeNull();
  });
});
