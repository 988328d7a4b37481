import { describe, expect, it } from "vitest";
import { type CellSignals, cellConfidence, EMIT_AT, onScreenScale, SURE_AT } from "./cell-confidence";

const read: CellSignals = {
  votes: 0.99,
  runnerUp: 0.005,
  cropsAgree: 1,
  strokes: "agree",
  strokesShare: 0.95,
  weakestGlyph: 0.95,
  unusual: false,
  noPoint: false,
  digits: 2,
};

describe("cellConfidence", () => {
  it("puts the model's probability on the screen's scale: emitted from 0.4, sure from 0.8", () => {
    expect(onScreenScale(EMIT_AT)).toBeCloseTo(0.4);
    expect(onScreenScale(SURE_AT)).toBeCloseTo(0.8);
    expect(onScreenScale(1)).toBeCloseTo(1);
    expect(onScreenScale(EMIT_AT - 0.01)).toBeLessThan(0.4);
  });

  it("shows a value both readers read clearly as sure, and not when the strokes read another value", () => {
    expect(cellConfidence(read)).toBeGreaterThanOrEqual(0.8);
    expect(cellConfidence({ ...read, strokes: "disagree", strokesShare: 0.05 })).toBeLessThan(0.8);
  });

  it("doubts a read value outside the usual range, or whose EDV is above its PSV", () => {
    expect(cellConfidence({ ...read, unusual: true })).toBeLessThan(0.8);
    expect(cellConfidence({ ...read, conflict: true })).toBeLessThan(0.8);
  });

  it("keeps the recogniser's own confidence where the strokes were not read", () => {
    const plain = { ...read, strokes: "none" as const, strokesShare: 0, weakestGlyph: 1 };
    expect(cellConfidence(plain)).toBeCloseTo(0.99);
    expect(cellConfidence({ ...plain, wide: true })).toBeCloseTo(0.99 * 0.25);
    expect(cellConfidence({ ...plain, conflict: true })).toBeCloseTo(0.99 * 0.5);
  });
});
