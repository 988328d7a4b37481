import { describe, expect, it } from "vitest";
import { linesBelow, pairValue, type Slot } from "./key-value-pairing";

type Box = Slot & { text: string; label?: boolean };
/** A text line's box: `u` its left end, `v` its top, 30 high, 14 wide a character. */
const box = (text: string, u: number, v: number, label = false): Box => ({
  text,
  u0: u,
  u1: u + 14 * text.length,
  v0: v,
  v1: v + 30,
  label,
});
const label = (text: string, u: number, v: number) => box(text, u, v, true);
const isLabel = (r: Box) => r.label === true;
const texts = (found: { regions: Box[] }) => found.regions.map((r) => r.text);

describe("pairValue", () => {
  it("takes the words right of a label on its line, up to the next label", () => {
    const name = label("Patient:", 100, 300);
    const regions = [
      name,
      box("ASHLEY", 230, 302),
      box("LEWIS", 340, 301),
      label("MRN:", 600, 300),
      box("12345", 670, 300),
    ];
    expect(pairValue(name, regions, isLabel)).toEqual({ regions: [regions[1], regions[2]], place: "right" });
  });

  it("finds the value in the next cell of a key/value table, far from its label", () => {
    const dob = label("Birth Date:", 100, 300);
    const regions = [dob, box("12/03/1950", 640, 302)];
    expect(texts(pairValue(dob, regions, isLabel))).toEqual(["12/03/1950"]);
  });

  it("takes the line below a label with nothing on its right (boxed fields, labels over their lines)", () => {
    const exam = label("Date of Scan", 100, 300);
    const regions = [exam, label("Sonographer", 800, 300), box("14.7.2024", 104, 360), box("K. Lee", 806, 362)];
    expect(pairValue(exam, regions, isLabel)).toEqual({ regions: [regions[2]], place: "below" });
  });

  it("leaves a label empty when the next label comes first, right or below", () => {
    const ref = label("Ref Dr:", 100, 300);
    expect(pairValue(ref, [ref, label("Sex:", 400, 300), box("M", 470, 300)], isLabel).regions).toEqual([]);
    // Stacked inline fields: the line below starts with the next field's label.
    const regions = [ref, label("Indication:", 100, 360), box("TIA", 260, 360)];
    expect(pairValue(ref, regions, isLabel)).toEqual({ regions: [], place: "none" });
  });

  it("does not reach a value of another column below", () => {
    const mrn = label("MRN", 100, 300);
    expect(pairValue(mrn, [mrn, box("Dr Chen", 800, 360)], isLabel).place).toBe("none");
  });

  it("reaches a date far right on its label's line only when asked, nothing between and no label over it", () => {
    const dob = label("Date of Birth:", 100, 300);
    const regions = [dob, box("12/03/1961", 1100, 300)];
    expect(pairValue(dob, regions, isLabel).place).toBe("none");
    expect(pairValue(dob, regions, isLabel, undefined, true)).toEqual({ regions: [regions[1]], place: "right" });
    const column = [dob, label("Exam Date:", 1100, 255), box("12/03/2024", 1100, 300)];
    expect(pairValue(dob, column, isLabel, undefined, true).place).toBe("none");
    // Something under the label is its value first (a label over its write-on line).
    const under = [dob, box("1961", 104, 350), box("12/03/1961", 1100, 300)];
    expect(texts(pairValue(dob, under, isLabel, undefined, true))).toEqual(["1961"]);
  });

  it("stops at a long gap: the next field of the line without a label", () => {
    const sex = label("Sex:", 100, 300);
    const regions = [sex, box("F", 170, 300), box("Outpatient", 600, 300)];
    expect(texts(pairValue(sex, regions, isLabel))).toEqual(["F"]);
  });
});

describe("linesBelow", () => {
  it("reads comments over their write-on lines, not into the footer's label", () => {
    const comments = label("Comments:", 100, 1600);
    const regions = [
      comments,
      box("Mild plaque at", 104, 1660),
      box("both bulbs", 320, 1661),
      box("no stenosis", 104, 1725),
      label("Signature:", 100, 1790),
    ];
    expect(linesBelow(comments, regions, 3, isLabel).map((line) => line.map((r) => r.text))).toEqual([
      ["Mild plaque at", "both bulbs"],
      ["no stenosis"],
    ]);
  });
});
