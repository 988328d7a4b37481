import { describe, expect, it } from "vitest";
import type { CellSignals } from "./cell-confidence";
import { emissionConfidence, RESCUED_CONFIDENCE } from "./cell-rescue";

const EMIT_AT = 0.4;
/** A cell the recogniser read weakly ("JO" for 70) and the digit classifier surely, as the same value. */
const weakRecogniserSureStrokes: CellSignals = {
  votes: 0.12,
  runnerUp: 0.06,
  cropsAgree: 0,
  strokes: "agree",
  strokesShare: 0.99,
  weakestGlyph: 0.99,
  unusual: false,
  noPoint: false,
  digits: 2,
  split: false,
};
const cell = (signals: Partial<CellSignals>, text = "70", leadingOne = false) => ({
  signals: { ...weakRecogniserSureStrokes, ...signals },
  text,
  leadingOne,
});

describe("emissionConfidence (issue 24: values both readers support)", () => {
  it("emits, as doubtful, a value the classifier read surely and the recogniser chose too", () => {
    expect(emissionConfidence(0.3, cell({}), EMIT_AT)).toBe(RESCUED_CONFIDENCE);
    expect(RESCUED_CONFIDENCE).toBeGreaterThanOrEqual(EMIT_AT);
    expect(RESCUED_CONFIDENCE).toBeLessThan(0.8);
    // A value the model emits keeps the model's confidence.
    expect(emissionConfidence(0.6, cell({}), EMIT_AT)).toBe(0.6);
  });

  it("leaves it unemitted when anything speaks against it", () => {
    for (const against of [
      { strokesShare: 0.94 },
      { strokes: "disagree" as const },
      { digits: 1 },
      { unusual: true },
      { wide: true },
      { conflict: true },
      { split: true },
    ])
      expect(emissionConfidence(0.3, cell(against), EMIT_AT)).toBe(0.3);
  });

  it("judges a value with a point against what the strokes can give a point", () => {
    // The point found by its shape counts 0.85: 0.84 of it is sure, of a whole number it is not.
    expect(emissionConfidence(0.3, cell({ strokesShare: 0.84 }, "6.9"), EMIT_AT)).toBe(RESCUED_CONFIDENCE);
    expect(emissionConfidence(0.3, cell({ strokesShare: 0.84 }, "69"), EMIT_AT)).toBe(0.3);
  });

  it("never shows a restored leading 1 as sure, and lower while its EDV and PSV still conflict", () => {
    expect(emissionConfidence(0.95, cell({}, "114", true), EMIT_AT)).toBe(RESCUED_CONFIDENCE);
    expect(emissionConfidence(0.1, cell({}, "114", true), EMIT_AT)).toBe(RESCUED_CONFIDENCE);
    expect(emissionConfidence(0.1, cell({ conflict: true }, "114", true), EMIT_AT)).toBe(0.1);
  });
});
