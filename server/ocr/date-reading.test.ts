import { describe, expect, it } from "vitest";
import { choosePatientDates } from "./date-reading";

const now = new Date("2026-11-24T12:00:00Z");
const option = (value: string, confidence: number) => ({ value, confidence });

describe("choosePatientDates", () => {
  it("keeps the likeliest readings when they fit together", () => {
    const chosen = choosePatientDates([option("1965-08-09", 0.7)], [option("2023-08-21", 0.8)], now);
    expect(chosen.dob).toEqual(option("1965-08-09", 0.7));
    expect(chosen.exam).toEqual(option("2023-08-21", 0.8));
  });

  it("never picks an exam in the future or a birth after the exam", () => {
    const chosen = choosePatientDates(
      [option("2025-01-02", 0.6), option("1955-01-02", 0.3)],
      [option("2027-03-01", 0.7), option("2021-03-01", 0.2)],
      now,
    );
    expect(chosen.exam?.value).toBe("2021-03-01");
    expect(chosen.dob?.value).toBe("1955-01-02");
  });

  it("weighs down an exam decades old and a patient who would be a child", () => {
    // "23" read as "73": the 1973 exam reading is likelier alone, but makes an old exam of an 8-year-old.
    const chosen = choosePatientDates(
      [option("1965-08-09", 0.7)],
      [option("1973-08-01", 0.24), option("2023-08-01", 0.09)],
      now,
    );
    expect(chosen.exam?.value).toBe("2023-08-01");
    // Read clearly, an old exam still wins, weighed down so the screen shows it for checking.
    const clear = choosePatientDates([option("1940-01-01", 0.9)], [option("2001-05-05", 0.95)], now);
    expect(clear.exam?.value).toBe("2001-05-05");
    expect(clear.exam!.confidence).toBeLessThan(0.8);
  });

  it("keeps a date no reading of which fits, at a low confidence", () => {
    const chosen = choosePatientDates([option("2030-01-01", 0.9)], [option("2024-05-05", 0.9)], now);
    expect(chosen.exam).toEqual(option("2024-05-05", 0.9));
    expect(chosen.dob?.value).toBe("2030-01-01");
    expect(chosen.dob!.confidence).toBeLessThan(0.3);
    expect(choosePatientDates([], [], now)).toEqual({ dob: null, exam: null });
  });
});
