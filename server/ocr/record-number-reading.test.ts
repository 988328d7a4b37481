import { describe, expect, it } from "vitest";
import { strokeMatrix } from "./digit-reading";
import { extractSheetFields } from "./field-extraction";
import {
  chooseRunDigits,
  type DigitRunStrokes,
  digitAtPrefixEnd,
  digitRuns,
  prefixFromLabel,
} from "./record-number-reading";
import { syntheticRegion } from "./synthetic-region";

/** The classifier's reading of a handwritten number: each digit of `text` at `prob`, the rest spread evenly. */
function strokesOf(text: string, prob = 0.9, alternatives: Record<number, { digit: number; prob: number }> = {}) {
  const chars = [...text].map(() => ({
    kind: "glyph" as const,
    map: { width: 1, height: 1, ink: new Float32Array(1) },
  }));
  const probs = [...text].map((d, i) => {
    const p = new Float32Array(10).fill((1 - prob) / 9);
    p[Number(d)] = prob;
    const alt = alternatives[i];
    if (alt) p[alt.digit] = alt.prob;
    return p;
  });
  return strokeMatrix(chars, probs);
}

/** The steps [from, to) of the run of digits after a prefix of `prefix` characters (syntheticRegion's layout). */
const runOf = (prefix: number, digits: number, matrix: DigitRunStrokes["matrix"]): DigitRunStrokes => ({
  from: 2 * prefix,
  to: 2 * (prefix + digits) + 1,
  matrix,
});

const now = new Date("2026-06-01T12:00:00Z");

describe("record numbers read by both readers", () => {
  it("finds the runs of digits a record number is made of, look-alikes inside kept", () => {
    const runs = (text: string) => digitRuns(syntheticRegion(text, { u: 0, v: 0 }).read.chars);
    const texts = (text: string) => runs(text).map((r) => r.map((c) => c.char).join(""));
    expect(texts("MRN9O92379")).toEqual(["9O92379"]);
    expect(texts("123-456-789")).toEqual(["123", "456", "789"]);
    // Two digits are no record number's run; a look-alike at the run's end is a letter.
    expect(texts("UR 12 Bob")).toEqual([]);
    expect(texts("H4139310S")).toEqual(["4139310"]);
  });

  it("takes the digit the classifier reads when the recogniser hesitated between two", () => {
    // The recogniser read 9874763 but saw the 2 too; the strokes read 9824763.
    const region = syntheticRegion("9874763", { u: 0, v: 0 }, 0.9, { 2: { char: "2", prob: 0.35 } });
    region.matrix.probs[5 * 96 + 1 + 23] = 0.55;
    const run = runOf(0, 7, strokesOf("9824763"));
    expect(region.read.text).toBe("9874763");
    expect(chooseRunDigits(region.matrix, run)).toBe("9824763");
  });

  it("keeps the recogniser's clear reading against a doubtful stroke reading", () => {
    const region = syntheticRegion("9874763", { u: 0, v: 0 }, 0.95);
    // The strokes lean the other way only a little: the floor keeps the recogniser's clear 7.
    const run = runOf(0, 7, strokesOf("9874763", 0.9, { 2: { digit: 2, prob: 0.5 } }));
    expect(chooseRunDigits(region.matrix, run)).toBe("9874763");
  });

  it("keeps the digits as read when the strokes do not prefer the recogniser's other reading", () => {
    // Summed over alignments the recogniser finds "65916" likelier than its plain "659916" (the doubled 9 needs a
    // blank between); the strokes, read as six digits of which the first three say nothing, prefer neither.
    const region = syntheticRegion("659916", { u: 0, v: 0 }, 0.6);
    for (const t of [6]) region.matrix.probs[t * 96] = 0.02;
    const run = runOf(0, 6, strokesOf("659916", 0.1));
    expect(chooseRunDigits(region.matrix, run)).toBe("65916");
    expect(chooseRunDigits(region.matrix, run, "659916")).toBe("659916");
  });

  it("rereads the record number's digits in the sheet's fields and keeps its prefix", () => {
    const value = syntheticRegion("MRN9874763", { u: 170, v: 300 }, 0.9, { 5: { char: "2", prob: 0.35 } });
    value.matrix.probs[11 * 96 + 1 + 23] = 0.55;
    value.recordStrokes = [runOf(3, 7, strokesOf("9824763"))];
    const regions = [syntheticRegion("MRN:", { u: 100, v: 300 }), value];
    expect(extractSheetFields(regions, now).mrn.value).toBe("MRN9824763");
    delete value.recordStrokes;
    expect(extractSheetFields(regions, now).mrn.value).toBe("MRN9874763");
  });

  it("spells a prefix one letter off the label's word as the label does", () => {
    expect(prefixFromLabel("MKN8289049", "MRN:MKN8289049")).toBe("MRN8289049");
    expect(prefixFromLabel("UK376196", "UR No.:")).toBe("UR376196");
    // Another prefix, a prefix two letters off, a label without a short capital word: as read.
    expect(prefixFromLabel("VL7158325", "MRN:")).toBe("VL7158325");
    expect(prefixFromLabel("ML7158325", "MRN:")).toBe("ML7158325");
    expect(prefixFromLabel("HK4139310", "Hospital no.:")).toBe("HK4139310");
    expect(prefixFromLabel("7158325", "MRN:")).toBe("7158325");
    // A record word of its own under another record label is what was written.
    expect(prefixFromLabel("MRN803736", "URN...MRN803736")).toBe("MRN803736");
  });

  it("gives a record number written under its label the label's prefix spelling", () => {
    const regions = [syntheticRegion("MRN:", { u: 100, v: 300 }), syntheticRegion("MKN8289049", { u: 170, v: 300 })];
    expect(extractSheetFields(regions, now).mrn.value).toBe("MRN8289049");
  });

  it("reads a prefix's last letter as the first digit when it is a digit's look-alike after a prefix", () => {
    expect(digitAtPrefixEnd("HZ680208")).toBe("H2680208");
    expect(digitAtPrefixEnd("MRNI74143")).toBe("MRN174143");
    expect(digitAtPrefixEnd("URS12345")).toBe("UR512345");
    // A record word of its own, no look-alike, a longer prefix before it, too few digits, no prefix: as read.
    expect(digitAtPrefixEnd("NHS1234567")).toBeNull();
    expect(digitAtPrefixEnd("HK4139310")).toBeNull();
    expect(digitAtPrefixEnd("ABZ680208")).toBeNull();
    expect(digitAtPrefixEnd("HZ6802")).toBeNull();
    expect(digitAtPrefixEnd("2680208")).toBeNull();
  });

  it("reads the look-alike at the prefix's end in the sheet's fields, and asks for a check", () => {
    const regions = [syntheticRegion("Hosp. No:", { u: 100, v: 300 }), syntheticRegion("HZ680208", { u: 260, v: 300 })];
    const mrn = extractSheetFields(regions, now).mrn;
    expect(mrn.value).toBe("H2680208");
    expect(mrn.confidence).toBeLessThan(0.8);
  });
});
