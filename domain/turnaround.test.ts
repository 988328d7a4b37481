import { describe, expect, it } from "vitest";
import {
  calendarDateIn,
  draftAge,
  isoWeekOf,
  median,
  mondayOf,
  type SignedReport,
  shareWithin,
  turnaroundFigures,
  workingDaysBetween,
} from "./turnaround";

// 2026-11-16 is a Monday; 2026-11-20 a Friday, 21 Saturday, 22 Sunday, 23 Monday, 24 Tuesday.
describe("working days between an exam and a day", () => {
  it("counts the signing day but not the exam day", () => {
    expect(workingDaysBetween("2026-11-16", "2026-11-16")).toBe(0);
    expect(workingDaysBetween("2026-11-16", "2026-11-17")).toBe(1);
    expect(workingDaysBetween("2026-11-16", "2026-11-18")).toBe(2);
    expect(workingDaysBetween("2026-11-16", "2026-11-19")).toBe(3);
  });

  it("skips the weekend: a Friday exam signed on Tuesday is 2, on Monday 1, on Saturday or Sunday 0", () => {
    expect(workingDaysBetween("2026-11-20", "2026-11-24")).toBe(2);
    expect(workingDaysBetween("2026-11-20", "2026-11-23")).toBe(1);
    expect(workingDaysBetween("2026-11-20", "2026-11-21")).toBe(0);
    expect(workingDaysBetween("2026-11-20", "2026-11-22")).toBe(0);
    expect(workingDaysBetween("2026-11-20", "2026-11-25")).toBe(3);
  });

  it("starts a weekend exam's clock on Monday: a Saturday exam signed on Tuesday is 2", () => {
    expect(workingDaysBetween("2026-11-21", "2026-11-24")).toBe(2);
    expect(workingDaysBetween("2026-11-22", "2026-11-23")).toBe(1);
  });

  it("counts whole weeks as five and crosses months and years", () => {
    expect(workingDaysBetween("2026-11-16", "2026-11-23")).toBe(5);
    expect(workingDaysBetween("2026-11-16", "2026-11-30")).toBe(10);
    expect(workingDaysBetween("2026-12-31", "2027-01-04")).toBe(2); // Thu -> Fri 1 Jan, Mon 4 Jan
    expect(workingDaysBetween("2024-02-28", "2024-03-01")).toBe(2); // leap day (Thursday) and Friday
  });

  it("is 0 when the day is before the exam (a date in the future)", () => {
    expect(workingDaysBetween("2026-11-24", "2026-11-20")).toBe(0);
  });

  it("agrees with counting day by day over two years of pairs", () => {
    const start = Date.UTC(2025, 0, 1);
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    for (let s = 0; s < 730; s += 13) {
      for (let len = 0; len < 40; len += 3) {
        let expected = 0;
        for (let d = 1; d <= len; d++) {
          const weekday = new Date(start + (s + d) * 86_400_000).getUTCDay();
          if (weekday !== 0 && weekday !== 6) expected++;
        }
        expect(workingDaysBetween(iso(start + s * 86_400_000), iso(start + (s + len) * 86_400_000))).toBe(expected);
      }
    }
  });
});

describe("a draft's age against the target", () => {
  it("is due by the end of the target's working day and overdue the next (Monday exam, target 2)", () => {
    expect(draftAge("2026-11-16", "2026-11-18", 2)).toEqual({ workingDays: 2, calendarDays: 2, overdue: false });
    expect(draftAge("2026-11-16", "2026-11-19", 2)).toEqual({ workingDays: 3, calendarDays: 3, overdue: true });
  });

  it("is not overdue over the weekend: a Friday exam is due on Tuesday", () => {
    expect(draftAge("2026-11-20", "2026-11-24", 2).overdue).toBe(false);
    expect(draftAge("2026-11-20", "2026-11-25", 2).overdue).toBe(true);
  });

  it("follows the clinic's target", () => {
    expect(draftAge("2026-11-16", "2026-11-17", 0).overdue).toBe(true);
    expect(draftAge("2026-11-16", "2026-11-23", 5).overdue).toBe(false);
    expect(draftAge("2026-11-16", "2026-11-24", 5).overdue).toBe(true);
  });
});

describe("median and share", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([])).toBeNull();
    expect(median([4])).toBe(4);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("counts a report signed in exactly the target as within it", () => {
    expect(shareWithin([], 2)).toBeNull();
    expect(shareWithin([0, 1, 2, 3], 2)).toBe(0.75);
    expect(shareWithin([3], 2)).toBe(0);
  });
});

describe("calendar days, weeks and time zones", () => {
  it("dates a signature in the clinic's time zone", () => {
    // 01:30 UTC on Wednesday is still Tuesday evening in New York.
    const instant = Date.parse("2026-11-25T01:30:00Z");
    expect(calendarDateIn(instant, "UTC")).toBe("2026-11-25");
    expect(calendarDateIn(instant, "America/New_York")).toBe("2026-11-24");
  });

  it("names ISO weeks, also across a year's end", () => {
    expect(isoWeekOf("2026-11-24")).toBe("2026-W48");
    expect(isoWeekOf("2026-11-23")).toBe("2026-W48");
    expect(isoWeekOf("2026-11-22")).toBe("2026-W47");
    expect(isoWeekOf("2027-01-01")).toBe("2026-W53"); // a Friday: its Thursday is 31 Dec 2026
    expect(isoWeekOf("2024-12-30")).toBe("2025-W01");
    expect(mondayOf("2026-11-22")).toBe("2026-11-16");
    expect(mondayOf("2026-11-23")).toBe("2026-11-23");
  });
});

describe("the figures of a group of signed reports (injected clock, exact boundaries)", () => {
  const signed = (startDate: string, signedAt: string, generatedAt = `${startDate}T09:00:00Z`): SignedReport => ({
    physicianId: 1,
    startDate,
    startsFrom: "exam",
    generatedAt: new Date(generatedAt),
    signedAt: new Date(signedAt),
  });

  it("counts exactly 2 working days as within a target of 2 and 3 as late", () => {
    const figures = turnaroundFigures(
      [
        signed("2026-11-16", "2026-11-18T16:00:00Z"), // Mon -> Wed: 2
        signed("2026-11-20", "2026-11-24T08:00:00Z"), // Fri -> Tue: 2
        signed("2026-11-16", "2026-11-19T08:00:00Z"), // Mon -> Thu: 3
        signed("2026-11-17", "2026-11-17T15:00:00Z"), // same day: 0
      ],
      2,
      "UTC",
    );
    expect(figures.signed).toBe(4);
    expect(figures.withinTarget).toBe(3);
    expect(figures.shareWithinTarget).toBe(0.75);
    expect(figures.medianWorkingDays).toBe(2);
    expect(figures.timedFromGenerated).toBe(0);
  });

  it("times generation to signature in hours", () => {
    const figures = turnaroundFigures(
      [
        signed("2026-11-16", "2026-11-16T10:30:00Z", "2026-11-16T09:00:00Z"), // 1.5 h
        signed("2026-11-16", "2026-11-17T09:00:00Z", "2026-11-16T09:00:00Z"), // 24 h
      ],
      2,
      "UTC",
    );
    expect(figures.medianHoursGeneratedToSigned).toBe(12.75);
  });

  it("counts the signing day in the clinic's time zone: Tuesday evening in New York is within 2 of a Friday exam", () => {
    const late = [signed("2026-11-20", "2026-11-25T01:30:00Z")];
    expect(turnaroundFigures(late, 2, "UTC").withinTarget).toBe(0);
    expect(turnaroundFigures(late, 2, "America/New_York").withinTarget).toBe(1);
  });

  it("says how many were timed from generation for want of an exam date", () => {
    const figures = turnaroundFigures(
      [{ ...signed("2026-11-16", "2026-11-16T12:00:00Z"), startsFrom: "generated" }],
      2,
      "UTC",
    );
    expect(figures.timedFromGenerated).toBe(1);
  });

  it("has no median or share for no reports", () => {
    expect(turnaroundFigures([], 2, "UTC")).toEqual({
      signed: 0,
      medianWorkingDays: null,
      medianHoursGeneratedToSigned: null,
      withinTarget: 0,
      shareWithinTarget: null,
      timedFromGenerated: 0,
    });
  });
});
