import { describe, expect, it } from "vitest";
import { monthOfWord, namedMonthShape, namesMonth, readNamedMonthDate, wordInsideDate } from "./named-month-reading";

const now = new Date("2026-12-31T12:00:00Z");

describe("named-month dates as read from handwriting on a photo", () => {
  it("reads the written forms exactly, unrepaired", () => {
    expect(readNamedMonthDate("03-MAR-1956", now)).toEqual({ value: "1956-03-03", repaired: false });
    expect(readNamedMonthDate("Dec 17, 1963", now)).toEqual({ value: "1963-12-17", repaired: false });
    expect(readNamedMonthDate("17DECEMBER2003", now)).toEqual({ value: "2003-12-17", repaired: false });
  });

  it("reads what the recogniser left of them: lost separators, split years, O for 0, misspelt months", () => {
    expect(readNamedMonthDate("19-FEB-19 80", now)).toEqual({ value: "1980-02-19", repaired: true });
    expect(readNamedMonthDate("3O-APR-1984", now)).toEqual({ value: "1984-04-30", repaired: true });
    expect(readNamedMonthDate(":12 Febray 1946", now)).toEqual({ value: "1946-02-12", repaired: true });
    expect(readNamedMonthDate("Dec171963", now)).toEqual({ value: "1963-12-17", repaired: true });
    // Between a day and a year, a three-letter month one letter off; a month with digits for letters.
    expect(readNamedMonthDate(":09Hay2020", now)).toEqual({ value: "2020-05-09", repaired: true });
    expect(readNamedMonthDate("04-MA9-1984", now)).toEqual({ value: "1984-05-04", repaired: true });
    expect(readNamedMonthDate("19-0CT-2021", now)).toEqual({ value: "2021-10-19", repaired: true });
    expect(readNamedMonthDate("09-10V-1986", now)).toEqual({ value: "1986-11-09", repaired: true });
    expect(readNamedMonthDate("13-AuG1-2022", now)).toEqual({ value: "2022-08-13", repaired: true });
  });

  it("reads no date where the month is unclear or the day impossible", () => {
    // "Maq": March or May, one letter off either.
    expect(readNamedMonthDate("3 Maq 1956", now)).toBeNull();
    expect(readNamedMonthDate("3 MA1 1956", now)).toBeNull();
    expect(readNamedMonthDate("31 FEB 1956", now)).toBeNull();
    expect(readNamedMonthDate("12 1956", now)).toBeNull();
  });

  it("knows a month's name nearly right, but no short word one letter off ('Sex' is no 'Sep')", () => {
    expect(monthOfWord("Febray")).toEqual({ month: 2, exact: false });
    expect(monthOfWord("Octobr")).toEqual({ month: 10, exact: false });
    expect(monthOfWord("Sex")).toBeNull();
    expect(monthOfWord("Date")).toBeNull();
    expect(namesMonth("7.06.2005 Sex:F")).toBe(false);
    expect(namesMonth("12 Febray 1946")).toBe(true);
    // A month's name too garbled to read, between or before the numbers: no numeric date either.
    expect(wordInsideDate("Born: 3 Jnuay 1950")).toBe(true);
    expect(wordInsideDate("12/03/1961 Gender")).toBe(false);
    expect(namedMonthShape("Ma13,2026")).toBe(true);
    expect(namedMonthShape("12/03/2026")).toBe(false);
  });
});
