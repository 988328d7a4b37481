import { describe, expect, it } from "vitest";
import { readNumberCell } from "./cell-reading";
import { syntheticRegion } from "./synthetic-region";

const psv = { decimals: false, min: 5, max: 700 };
const diameter = { decimals: true, min: 0.5, max: 40 };

describe("readNumberCell", () => {
  it("reads a clear value with a high confidence", () => {
    const reading = readNumberCell([syntheticRegion("125", { u: 0, v: 0 }, 0.99)], psv);
    expect(reading).toMatchObject({ value: 125, text: "125" });
    expect(reading!.confidence).toBeGreaterThan(0.9);
  });

  it("takes the best plausible reading behind an implausible one, at a low confidence", () => {
    const region = syntheticRegion("845", { u: 0, v: 0 }, 0.7, { 0: { char: "3", prob: 0.25 } });
    // A range where the shorter readings ("84", "45") are implausible too.
    const reading = readNumberCell([region], { decimals: false, min: 100, max: 700 });
    expect(reading?.value).toBe(345);
    expect(reading!.confidence).toBeLessThan(0.4);
  });

  it("gives two close readings a low confidence", () => {
    const region = syntheticRegion("47", { u: 0, v: 0 }, 0.5, { 1: { char: "1", prob: 0.45 } });
    expect(readNumberCell([region], psv)!.confidence).toBeLessThan(0.6);
  });

  it("doubts a decimal value whose point was not seen", () => {
    const withPoint = readNumberCell([syntheticRegion("4.5", { u: 0, v: 0 }, 0.99)], diameter);
    const without = readNumberCell([syntheticRegion("45", { u: 0, v: 0 }, 0.99)], diameter);
    expect(withPoint).toMatchObject({ value: 4.5 });
    expect(withPoint!.confidence).toBeGreaterThan(0.9);
    expect(without!.confidence).toBeLessThan(0.5);
  });

  it("spells a value as its likeliest reading, which the width check then compares with the ink", () => {
    // The main crop reads "0" (the point and a zero lost) faintly, a stretched one "0.0" clearly: one value,
    // spelled as it was written.
    const region = syntheticRegion("0", { u: 0, v: 0 }, 0.3);
    region.alternates = [syntheticRegion("0.0", { u: 0, v: 0 }, 0.9).matrix];
    const reflux = { decimals: true, min: 0, max: 10 };
    expect(readNumberCell([region], reflux)).toMatchObject({ value: 0, text: "0.0" });
  });

  it("doubts a lone 1 in a whole-number column", () => {
    const edv = { decimals: false, min: 0, max: 400 };
    const lone = readNumberCell([syntheticRegion("1", { u: 0, v: 0 }, 0.99)], edv);
    expect(lone).toMatchObject({ value: 1 });
    expect(lone!.confidence).toBeLessThan(0.35);
    expect(readNumberCell([syntheticRegion("7", { u: 0, v: 0 }, 0.99)], edv)!.confidence).toBeGreaterThan(0.9);
  });

  it("lets the taller and the stretched crops vote, with doubt where they disagree", () => {
    const region = syntheticRegion("11", { u: 0, v: 0 }, 0.5, { 1: { char: "7", prob: 0.45 } });
    region.alternates = [region.matrix];
    region.stretched = syntheticRegion("17", { u: 0, v: 0 }, 0.9).matrix;
    const reading = readNumberCell([region], psv);
    expect(reading?.value).toBe(17);
    expect(reading!.confidence).toBeLessThan(0.5);
  });

  it("prefers the usual reading between a value with and without its decimal point, and says why", () => {
    const vein = { ...diameter, usual: { min: 1, max: 20, noun: "vein diameter", unit: "mm" } };
    // Two crops read "25" clearly (the point lost), the stretched one "2.5": without the usual range the lost
    // point wins, with it the usual value does.
    const region = syntheticRegion("25", { u: 0, v: 0 }, 0.99);
    region.alternates = [region.matrix];
    region.stretched = syntheticRegion("2.5", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], diameter)).toMatchObject({ value: 25 });
    expect(readNumberCell([region], vein)).toMatchObject({ value: 2.5, text: "2.5", doubt: null });
  });

  it("offers a value outside the usual range below the sure threshold, with the reason", () => {
    const vein = { ...diameter, usual: { min: 1, max: 20, noun: "vein diameter", unit: "mm" } };
    const reading = readNumberCell([syntheticRegion("31.5", { u: 0, v: 0 }, 0.99)], vein);
    expect(reading).toMatchObject({ value: 31.5 });
    expect(reading!.confidence).toBeLessThan(0.8);
    expect(reading!.doubt).toBe("31.5 mm is outside the usual range of a vein diameter (1-20 mm): check the sheet");
    const usual = readNumberCell([syntheticRegion("12.5", { u: 0, v: 0 }, 0.99)], vein);
    expect(usual).toMatchObject({ value: 12.5, doubt: null });
    expect(usual!.confidence).toBeGreaterThan(0.9);
  });

  it("says so when a decimal value was read without its point", () => {
    expect(readNumberCell([syntheticRegion("45", { u: 0, v: 0 }, 0.99)], diameter)!.doubt).toBe(
      "read without a decimal point: check the sheet",
    );
  });

  it("lets the digit classifier's reading of the strokes choose between close readings", () => {
    // The recogniser leans to "23"; the classifier, which has seen people's 3s, reads "33".
    const region = syntheticRegion("23", { u: 0, v: 0 }, 0.55, { 0: { char: "3", prob: 0.4 } });
    expect(readNumberCell([region], psv)?.value).toBe(23);
    region.strokes = syntheticRegion("33", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], psv)?.value).toBe(33);
    // Agreeing, it keeps a clear reading sure (0.8 and more on the checking screen).
    const clear = syntheticRegion("125", { u: 0, v: 0 }, 0.99);
    clear.strokes = syntheticRegion("125", { u: 0, v: 0 }, 0.9).matrix;
    expect(readNumberCell([clear], psv)!.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it("never shows a value as sure when the classifier's reading of the strokes is another value, and says so", () => {
    // Both readers clear, but of different values: the recogniser wins on its votes, at a confidence that asks for a
    // check (under 0.8), with the other reading named.
    const region = syntheticRegion("94", { u: 0, v: 0 }, 0.99);
    region.alternates = [region.matrix, region.matrix];
    region.strokes = syntheticRegion("97", { u: 0, v: 0 }, 0.6, { 1: { char: "4", prob: 0.38 } }).matrix;
    const reading = readNumberCell([region], psv);
    expect(reading).toMatchObject({ value: 94, byStrokes: 97 });
    expect(reading!.confidence).toBeLessThan(0.8);
    expect(reading!.doubt).toBe("the digits' strokes read 97: check the sheet");
    // The same cell with the strokes agreeing stays sure.
    region.strokes = syntheticRegion("94", { u: 0, v: 0 }, 0.9).matrix;
    expect(readNumberCell([region], psv)).toMatchObject({ value: 94, byStrokes: 94, doubt: null });
    expect(readNumberCell([region], psv)!.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it("takes the strokes' value where they show a leading 1 the recogniser lost, doubtful and naming both", () => {
    const usualPsv = { ...psv, usual: { min: 20, max: 400, noun: "peak systolic velocity", unit: "cm/s" } };
    const region = syntheticRegion("14", { u: 0, v: 0 }, 0.95);
    region.strokes = syntheticRegion("114", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], usualPsv)).toMatchObject({
      value: 114,
      text: "114",
      leadingOne: true,
      doubt: "the recogniser read 14, the digits' strokes 114 (a leading 1): check the sheet",
    });
    // Another first digit is not a lost 1 (a stray mark, a digit split in two): the recogniser's value stays.
    region.strokes = syntheticRegion("214", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], usualPsv)).toMatchObject({ value: 14 });
    expect(readNumberCell([region], usualPsv)!.leadingOne).toBeUndefined();
    // Nor where the value with the 1 is unusual for the column.
    region.strokes = syntheticRegion("114", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], { ...usualPsv, usual: { ...usualPsv.usual, max: 100 } })?.value).toBe(14);
  });

  it("restores a leading 1 before a decimal value too", () => {
    const usualDiameter = { ...diameter, usual: { min: 1, max: 30, noun: "vein diameter", unit: "mm" } };
    const region = syntheticRegion("1.7", { u: 0, v: 0 }, 0.95);
    region.strokes = syntheticRegion("11.7", { u: 0, v: 0 }, 0.95).matrix;
    expect(readNumberCell([region], usualDiameter)).toMatchObject({ value: 11.7, text: "11.7", leadingOne: true });
  });

  it("weighs the votes by the cut of a wide glyph where it reads the recogniser's value (two digits touching)", () => {
    const usualPsv = { ...psv, min: 0, usual: { min: 20, max: 400, noun: "peak systolic velocity", unit: "cm/s" } };
    const region = syntheticRegion("66", { u: 0, v: 0 }, 0.7);
    // The segmentation kept "66" as one glyph, read as an 8; cut in two it reads 66.
    region.strokes = syntheticRegion("8", { u: 0, v: 0 }, 0.95).matrix;
    region.splitStrokes = syntheticRegion("66", { u: 0, v: 0 }, 0.9).matrix;
    const reading = readNumberCell([region], usualPsv);
    expect(reading).toMatchObject({ value: 66, byStrokes: 66, doubt: null });
    expect(reading!.signals.strokes).toBe("agree");
    // A cut that reads another value is not taken: the plain segmentation's reading stays, disagreeing.
    region.splitStrokes = syntheticRegion("60", { u: 0, v: 0 }, 0.9).matrix;
    expect(readNumberCell([region], usualPsv)).toMatchObject({ value: 66, byStrokes: 8 });
    // Nor one whose value is unusual for the column.
    region.splitStrokes = syntheticRegion("66", { u: 0, v: 0 }, 0.9).matrix;
    const low = { ...usualPsv, usual: { ...usualPsv.usual, min: 70 } };
    expect(readNumberCell([region], low)!.signals.strokes).toBe("disagree");
    // Nor a cut with more digits than the recogniser read.
    region.strokes = syntheticRegion("68", { u: 0, v: 0 }, 0.95).matrix;
    region.splitStrokes = syntheticRegion("686", { u: 0, v: 0 }, 0.9).matrix;
    expect(readNumberCell([region], usualPsv)).toMatchObject({ value: 66, byStrokes: 68 });
  });
});
