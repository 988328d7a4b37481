import { describe, expect, it } from "vitest";
import {
  applyHomography,
  fitHomography,
  invertHomography,
  leastSquaresHomography,
  type PointPair,
} from "./homography-fit";

/** A photo of a page: rotated 3 degrees, scaled, shifted and slightly in perspective. */
const truth = (() => {
  const a = (3 * Math.PI) / 180;
  return [0.8 * Math.cos(a), -0.8 * Math.sin(a), 60, 0.8 * Math.sin(a), 0.8 * Math.cos(a), 90, 2e-5, -1e-5, 1];
})();

function grid(n: number): { x: number; y: number }[] {
  const pts = [];
  for (let i = 0; i < n; i++) pts.push({ x: 100 + ((i * 397) % 1450), y: 120 + ((i * 613) % 2100) });
  return pts;
}

describe("homography fitting", () => {
  it("recovers a photo's perspective from exact pairs", () => {
    const pairs = grid(20).map((p) => ({ from: p, to: applyHomography(truth, p) }));
    const h = leastSquaresHomography(pairs)!;
    for (const p of grid(20)) {
      const q = applyHomography(h, p);
      const t = applyHomography(truth, p);
      expect(Math.hypot(q.x - t.x, q.y - t.y)).toBeLessThan(0.01);
    }
  });

  it("ignores wrong pairs (a label matched to the wrong place) and reports them as outliers", () => {
    const pairs: PointPair[] = grid(30).map((p) => ({ from: p, to: applyHomography(truth, p) }));
    // A third of the pairs point somewhere else entirely.
    for (let i = 0; i < 10; i++) pairs[i * 3]!.to = { x: 1500 - pairs[i * 3]!.to.x, y: 300 + i * 150 };
    const fit = fitHomography(pairs, { tolerance: 5, minInliers: 8 })!;
    expect(fit).not.toBeNull();
    expect(fit.inliers).toHaveLength(20);
    expect(fit.inliers.every((i) => i % 3 !== 0)).toBe(true);
    const q = applyHomography(fit.h, { x: 800, y: 1200 });
    const t = applyHomography(truth, { x: 800, y: 1200 });
    expect(Math.hypot(q.x - t.x, q.y - t.y)).toBeLessThan(0.5);
  });

  it("finds no fit when the pairs do not agree", () => {
    const pts = grid(12);
    const pairs = pts.map((p, i) => ({ from: p, to: pts[(i * 5 + 3) % pts.length]! }));
    expect(fitHomography(pairs, { tolerance: 5, minInliers: 8 })).toBeNull();
  });

  it("inverts", () => {
    const inv = invertHomography(truth);
    const p = { x: 321, y: 1234 };
    const back = applyHomography(inv, applyHomography(truth, p));
    expect(back.x).toBeCloseTo(p.x, 6);
    expect(back.y).toBeCloseTo(p.y, 6);
  });
});
