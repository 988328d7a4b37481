import { describe, expect, it } from "vitest";
import { constrainedDecode, grammarFit, joinMatrices, shares } from "./ctc-constrained";
import { ctcDecode } from "./ctc-decode";
import { DATE_GRAMMAR, DECIMAL_GRAMMAR, INTEGER_GRAMMAR } from "./ctc-grammar";
import { readDateOptions } from "./date-reading";
import { syntheticRegion } from "./synthetic-region";
import { ASCII_CHARS } from "./text-recognizer";

const column = (ch: string) => ASCII_CHARS.indexOf(ch) + 1;

/** "1/5/2022" where the recogniser barely saw the thin 1: blank 0.9, "1" 0.08 at its step. */
function thinOne() {
  const region = syntheticRegion("1/5/2022", { u: 0, v: 0 });
  const t = 1;
  region.matrix.probs[t * 96 + column("1")] = 0.08;
  region.matrix.probs[t * 96] = 0.9;
  region.matrix.probs[t * 96 + column("7")] = 0.02;
  return region.matrix;
}

describe("grammars", () => {
  it("accept worksheet dates and numbers and refuse the rest", () => {
    for (const ok of ["1/5/2022", "01.05.22", "2022-05-01", "29-12-1999"]) expect(DATE_GRAMMAR.matches(ok)).toBe(true);
    for (const bad of ["/5/2022", "1/5/202", "15/2022", "1//5/2022", "12345"])
      expect(DATE_GRAMMAR.matches(bad)).toBe(false);
    expect(INTEGER_GRAMMAR.matches("125")).toBe(true);
    expect(INTEGER_GRAMMAR.matches("012")).toBe(false);
    expect(DECIMAL_GRAMMAR.matches("4.5")).toBe(true);
    expect(DECIMAL_GRAMMAR.matches("12.5")).toBe(true);
    expect(DECIMAL_GRAMMAR.matches("1.2.3")).toBe(false);
  });
});

describe("constrainedDecode", () => {
  it("recovers a dropped thin digit that greedy decoding loses", () => {
    const matrix = thinOne();
    expect(ctcDecode(matrix, "0123456789/").text).toBe("/5/2022");
    const { candidates, freeLogProb } = constrainedDecode(matrix, DATE_GRAMMAR);
    expect(candidates[0]!.text).toBe("1/5/2022");
    // The forced digit shows in the fit: far from the recogniser's own best path.
    expect(grammarFit(candidates[0]!, freeLogProb)).toBeLessThan(0.5);
  });

  it("returns an n-best list whose probabilities follow the evidence", () => {
    const region = syntheticRegion("45", { u: 0, v: 0 }, 0.6, { 1: { char: "6", prob: 0.35 } });
    const { candidates } = constrainedDecode(region.matrix, INTEGER_GRAMMAR);
    const share = shares(candidates);
    const of = (text: string) => share[candidates.findIndex((c) => c.text === text)] ?? 0;
    expect(candidates[0]!.text).toBe("45");
    expect(of("45")).toBeGreaterThan(of("46"));
    expect(of("46")).toBeGreaterThan(0.15);
  });

  it("reads a glyph that stands for two strokes as both characters", () => {
    // A continental "11.2": the two flagged strokes read as one "M".
    const region = syntheticRegion("M.2", { u: 0, v: 0 }, 0.98);
    expect(constrainedDecode(region.matrix, DECIMAL_GRAMMAR).candidates[0]!.text).toBe("11.2");
    // Held for two steps it is still one glyph, so still one "11".
    const held = syntheticRegion("M", { u: 0, v: 0 }, 0.98);
    held.matrix.probs[2 * 96] = 0;
    held.matrix.probs[2 * 96 + column("M")] = 0.98;
    expect(constrainedDecode(held.matrix, INTEGER_GRAMMAR).candidates[0]!.text).toBe("11");
  });

  it("decodes across joined pieces", () => {
    const a = syntheticRegion("12.05", { u: 0, v: 0 }).matrix;
    const b = syntheticRegion(".1999", { u: 0, v: 0 }).matrix;
    const joined = joinMatrices([
      { matrix: a, from: 0, to: a.steps },
      { matrix: b, from: 0, to: b.steps },
    ]);
    expect(constrainedDecode(joined, DATE_GRAMMAR).candidates[0]!.text).toBe("12.05.1999");
  });
});

describe("readDateOptions", () => {
  const now = new Date("2026-11-22T12:00:00Z");

  it("reads the recovered date as a calendar date", () => {
    expect(readDateOptions(thinOne(), now)[0]!.value).toBe("2022-05-01");
  });

  it("gives a clear date a high confidence", () => {
    const options = readDateOptions(syntheticRegion("03/11/2021", { u: 0, v: 0 }, 0.99).matrix, now);
    expect(options[0]).toMatchObject({ value: "2021-11-03" });
    expect(options[0]!.confidence).toBeGreaterThan(0.9);
  });
});
