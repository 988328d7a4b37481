import { describe, expect, it } from "vitest";
import {
  choosePatientDates,
  dateShareOfStrip,
  leadsWithDate,
  readDateOptions,
  weighDatesByStrokes,
} from "./date-reading";
import { ASCII_CHARS, type CharMatrix } from "./text-recognizer";

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

describe("dates read as three numbers", () => {
  /** A recogniser's matrix of one character a step, blanks between, each step's characters with their probabilities. */
  function matrixOf(steps: Record<string, number>[]): CharMatrix {
    const probs = new Float32Array((2 * steps.length + 1) * 96);
    probs[0] = 1;
    steps.forEach((chars, i) => {
      const t = 2 * i + 1;
      let rest = 1;
      for (const [ch, p] of Object.entries(chars)) {
        probs[t * 96 + ASCII_CHARS.indexOf(ch) + 1] = p;
        rest -= p;
      }
      probs[t * 96] = Math.max(0, rest);
      probs[(t + 1) * 96] = 1;
    });
    return { steps: 2 * steps.length + 1, probs };
  }
  const sure = (text: string) => [...text].map((ch) => ({ [ch]: 0.97 }));

  it("never spends its readings on a day or month that cannot be", () => {
    // "30.12.1984" whose 0 looks like an 8 and whose 2 like a 9 (day 38, month 19), with three doubtful year digits:
    // the sixteen likeliest digit strings are all impossible dates.
    const matrix = matrixOf([
      { "3": 0.97 },
      { "8": 0.6, "0": 0.38 },
      { ".": 0.97 },
      { "1": 0.97 },
      { "9": 0.6, "2": 0.38 },
      { ".": 0.97 },
      { "1": 0.97 },
      { "9": 0.55, "8": 0.43 },
      { "8": 0.55, "3": 0.43 },
      { "4": 0.55, "1": 0.43 },
    ]);
    expect(readDateOptions(matrix, now)[0]?.value).toBe("1984-12-30");
  });

  it("reads a stroke the recogniser took for a slash as the digit the separators leave room for", () => {
    // "2025-0/-06": the month's 1 read as a slash (and a point once), the dashes clear.
    const matrix = matrixOf([...sure("2025-0"), { "/": 0.5, ".": 0.3, "1": 0.18 }, ...sure("-06")]);
    expect(readDateOptions(matrix, now)[0]?.value).toBe("2025-01-06");
  });

  it("reads the date and leaves the next field's label run into the same strip", () => {
    for (const text of ["27.06.2005 Sex:F", "21/07/41sex:M"]) {
      expect(readDateOptions(matrixOf(sure(text)), now)[0]?.value).toBe(
        text.startsWith("27") ? "2005-06-27" : "1941-07-21",
      );
    }
    expect(leadsWithDate("7.06.2005 sex:")).toBe(true);
    expect(leadsWithDate("1977-0q-a7 Sex:F")).toBe(true);
    expect(leadsWithDate("Sex: F")).toBe(false);
    expect(leadsWithDate("30.1a.20al")).toBe(false);
  });

  it("finds where a date run into the next field's label ends, for its strokes to be read alone", () => {
    // "21/07/41sex:F": 8 characters of date, the label from the 9th; steps are 2k+1 for the k-th character.
    const share = dateShareOfStrip(matrixOf(sure("21/07/41sex:F")))!;
    expect(share * (2 * 13 + 1)).toBeCloseTo((15 + 17 + 1) / 2);
    expect(dateShareOfStrip(matrixOf(sure("21/07/1941")))).toBeNull();
    expect(dateShareOfStrip(matrixOf(sure("Sex: F")))).toBeNull();
  });

  it("offers the strokes' date that differs from the recogniser's in one number, and leaves both doubtful", () => {
    // The recogniser read "03.08.25", the strokes clearly "23.08.25": neither reader can be trusted alone.
    const strokes = matrixOf(sure("23.08.25"));
    const weighed = weighDatesByStrokes([{ value: "2025-08-03", confidence: 0.95 }], strokes, now);
    expect(weighed.map((o) => o.value)).toContain("2025-08-23");
    expect(Math.max(...weighed.map((o) => o.confidence))).toBeLessThan(0.6);
    // A strokes' date sharing no two numbers with any reading comes after it, however sure.
    const other = weighDatesByStrokes([{ value: "2025-08-03", confidence: 0.95 }], matrixOf(sure("14.11.25")), now);
    expect(other[0]?.value).toBe("2025-08-03");
  });

  it("reads the date after a label misread so that it was not known (a date holds no colon)", () => {
    expect(readDateOptions(matrixOf(sure("D.0.8:1995-11-16")), now)[0]?.value).toBe("1995-11-16");
    expect(readDateOptions(matrixOf(sure("DOB:12/03/1961")), now)[0]?.value).toBe("1961-03-12");
  });

  it("lets a very sure strokes' date win, doubtful, over a recogniser date implausible for its field", () => {
    // The recogniser read "1931-01-29" (an exam before the birth), the strokes clearly "29/11/21": they share only the
    // day, yet the strokes' date is the exam, shown for checking.
    const strokes = matrixOf(sure("29/11/21"));
    const exam = weighDatesByStrokes([option("1931-01-29", 0.6)], strokes, now);
    const chosen = choosePatientDates([option("2002-12-08", 0.7)], exam, now);
    expect(chosen.exam?.value).toBe("2021-11-29");
    expect(chosen.exam!.confidence).toBeLessThan(0.8);
    // A plausible recogniser date keeps its place against it, and a doubtful strokes' reading is not offered.
    const plausible = weighDatesByStrokes([option("2021-01-30", 0.6)], strokes, now);
    expect(choosePatientDates([option("2002-12-08", 0.7)], plausible, now).exam?.value).toBe("2021-01-30");
    const doubtful = matrixOf([...sure("29/"), { "1": 0.6, "7": 0.37 }, ...sure("1/21")]);
    const weak = weighDatesByStrokes([option("1931-01-29", 0.6)], doubtful, now);
    expect(choosePatientDates([option("2002-12-08", 0.7)], weak, now).exam?.value).not.toBe("2021-11-29");
  });

  it("offers the strokes' date, doubtful, when the recogniser read no date at all", () => {
    const weighed = weighDatesByStrokes([], matrixOf(sure("29/11/21")), now);
    expect(weighed[0]?.value).toBe("2021-11-29");
    expect(weighed[0]!.confidence).toBeLessThan(0.8);
    expect(weighed[0]!.confidence).toBeGreaterThan(0.3);
  });
});
