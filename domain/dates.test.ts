import { describe, expect, it } from "vitest";
import { dateWarnings, expandTwoDigitYear, parseWorksheetDate } from "./dates";

const in2026 = new Date("2026-03-12T10:00:00Z");

describe("parseWorksheetDate", () => {
  it("reads a month written as its name, day or month first", () => {
    const at = new Date("2026-11-22T12:00:00Z");
    expect(parseWorksheetDate("03-APR-1956", at)).toBe("1956-04-03");
    expect(parseWorksheetDate("3 April 1956", at)).toBe("1956-04-03");
    expect(parseWorksheetDate("Apr 3, 1956", at)).toBe("1956-04-03");
    expect(parseWorksheetDate("12 Sept 26", at)).toBe("2026-09-12");
    expect(parseWorksheetDate("31 Feb 2020", at)).toBeNull();
    expect(parseWorksheetDate("3 Aprx 1956", at)).toBeNull();
  });

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

describe("dateWarnings", () => {
  const today = "2026-11-24";
  it("accepts plausible dates and missing ones", () => {
    expect(dateWarnings({ patientDob: "1950-04-02", examDate: "2024-03-15" }, today)).toEqual([]);
    expect(dateWarnings({ patientDob: null, examDate: null }, today)).toEqual([]);
    expect(dateWarnings({ patientDob: "2026-11-24", examDate: "2026-11-24" }, today)).toEqual([]);
  });

  it("catches birth after the exam, exams and births in the future, and ages over 120", () => {
    expect(dateWarnings({ patientDob: "2035-01-01", examDate: "2020-05-01" }, today)).toEqual([
      "The date of birth 2035-01-01 is in the future.",
      "The date of birth 2035-01-01 is after the exam date 2020-05-01: the exam cannot be before birth.",
    ]);
    expect(dateWarnings({ patientDob: "1960-01-01", examDate: "2031-02-03" }, today)).toEqual([
      "The exam date 2031-02-03 is in the future.",
    ]);
    expect(dateWarnings({ patientDob: "1890-06-01", examDate: "2024-03-15" }, today)).toEqual([
      "The date of birth 1890-06-01 makes the patient 133 years old at the exam, over 120.",
    ]);
    // Exactly 120 at the exam is possible; the day after the 121st birthday is not.
    expect(dateWarnings({ patientDob: "1903-03-16", examDate: "2024-03-15" }, today)).toEqual([]);
    expect(dateWarnings({ patientDob: "1903-03-15", examDate: "2024-03-15" }, today)).toHaveLength(1);
  });
});
