import { describe, expect, it } from "vitest";
import { checkMark, nthSmallest } from "./check-boxes";
import type { Raster } from "./raster";
import type { PageFrame } from "./text-regions";

// Small synthetic pages: a 24-pixel box 12 pixels left of a label region 38 pixels high (a printed 24-pixel label
// at 200 dpi), drawn with round pens as a clinician's marks are.
const upright: PageFrame = { angle: 0, cos: 1, sin: 0 };
const label = { u0: 100, u1: 220, v0: 40, v1: 78 };
const box = { x: 64, y: 47, size: 24 };

function page(draw: (ink: (x: number, y: number, pen?: number) => void) => void): Raster {
  const width = 260;
  const height = 120;
  const data = new Uint8Array(width * height * 3).fill(235);
  const ink = (x: number, y: number, pen = 1) => {
    for (let dy = -pen; dy <= pen; dy++) {
      for (let dx = -pen; dx <= pen; dx++) {
        const px = Math.round(x + dx);
        const py = Math.round(y + dy);
        if (px < 0 || py < 0 || px >= width || py >= height || dx * dx + dy * dy > pen * pen + 1) continue;
        data.set([30, 40, 120], (py * width + px) * 3);
      }
    }
  };
  draw(ink);
  return { width, height, data };
}
const line = (
  ink: (x: number, y: number, pen?: number) => void,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  pen = 1,
) => {
  const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0));
  for (let k = 0; k <= n; k++) ink(x0 + ((x1 - x0) * k) / n, y0 + ((y1 - y0) * k) / n, pen);
};
const square = (ink: (x: number, y: number, pen?: number) => void) => {
  const { x, y, size } = box;
  line(ink, x, y, x + size, y);
  line(ink, x + size, y, x + size, y + size);
  line(ink, x + size, y + size, x, y + size);
  line(ink, x, y + size, x, y);
};
const circle = (ink: (x: number, y: number, pen?: number) => void, cx: number, cy: number, rx: number, ry: number) => {
  for (let a = 0; a < 2 * Math.PI; a += 0.02) ink(cx + rx * Math.cos(a), cy + ry * Math.sin(a));
};
const tick = (ink: (x: number, y: number, pen?: number) => void) => {
  const { x, y, size } = box;
  line(ink, x + 3, y + 13, x + 10, y + size - 2, 2);
  line(ink, x + 10, y + size - 2, x + size + 4, y - 6, 2);
};

describe("checkMark", () => {
  it("reads an empty square, circle and bracket pair as empty", () => {
    expect(checkMark(page(square), upright, label).state).toBe("empty");
    expect(
      checkMark(
        page((ink) => circle(ink, 76, 59, 12, 12)),
        upright,
        label,
      ).state,
    ).toBe("empty");
    const brackets = page((ink) => {
      line(ink, 64, 47, 64, 71);
      line(ink, 64, 47, 69, 47);
      line(ink, 64, 71, 69, 71);
      line(ink, 88, 47, 88, 71);
      line(ink, 83, 47, 88, 47);
      line(ink, 83, 71, 88, 71);
    });
    expect(checkMark(brackets, upright, label).state).toBe("empty");
  });

  it("reads a tick, a cross and a filled box as marked", () => {
    expect(
      checkMark(
        page((ink) => {
          square(ink);
          tick(ink);
        }),
        upright,
        label,
      ),
    ).toMatchObject({ state: "marked", how: "box" });
    const cross = page((ink) => {
      square(ink);
      line(ink, 67, 50, 85, 68, 2);
      line(ink, 85, 50, 67, 68, 2);
    });
    expect(checkMark(cross, upright, label)).toMatchObject({ state: "marked", how: "box" });
    const filled = page((ink) => {
      square(ink);
      for (let y = 51; y <= 67; y++) line(ink, 68, y, 84, y);
    });
    expect(checkMark(filled, upright, label)).toMatchObject({ state: "marked", how: "box" });
  });

  it("reads a tick in a bracket pair as marked", () => {
    const ticked = page((ink) => {
      line(ink, 64, 47, 64, 71);
      line(ink, 88, 47, 88, 71);
      tick(ink);
    });
    expect(checkMark(ticked, upright, label).state).toBe("marked");
  });

  it("reads a ring around the word, its box empty or absent, as circled", () => {
    const ringed = page((ink) => {
      square(ink);
      circle(ink, 160, 59, 58, 24);
    });
    expect(checkMark(ringed, upright, label)).toMatchObject({ state: "marked", how: "circled" });
    expect(
      checkMark(
        page((ink) => circle(ink, 160, 59, 58, 24)),
        upright,
        label,
      ),
    ).toMatchObject({
      state: "marked",
      how: "circled",
    });
    // A line under the word alone is no ring.
    expect(
      checkMark(
        page((ink) => {
          square(ink);
          line(ink, 100, 78, 220, 78);
        }),
        upright,
        label,
      ).state,
    ).toBe("empty");
  });

  it("gives no decision where there is no box, or a speck in it", () => {
    expect(
      checkMark(
        page(() => {}),
        upright,
        label,
      ).state,
    ).toBe("unclear");
    const speck = page((ink) => {
      square(ink);
      ink(76, 59, 1);
    });
    expect(checkMark(speck, upright, label).state).toBe("unclear");
  });

  it("finds the box on a page turned a few degrees", () => {
    const angle = (3 * Math.PI) / 180;
    const turned: PageFrame = { angle, cos: Math.cos(angle), sin: Math.sin(angle) };
    // The same marks drawn in the turned frame: page point = fromFrame(u, v).
    const rotate = (ink: (x: number, y: number, pen?: number) => void) => (u: number, v: number, pen?: number) =>
      ink(u * turned.cos - v * turned.sin, u * turned.sin + v * turned.cos, pen);
    expect(
      checkMark(
        page((ink) => {
          square(rotate(ink));
          tick(rotate(ink));
        }),
        turned,
        label,
      ).state,
    ).toBe("marked");
    expect(
      checkMark(
        page((ink) => square(rotate(ink))),
        turned,
        label,
      ).state,
    ).toBe("empty");
  });
});

describe("nthSmallest", () => {
  it("selects what sorting would put at that index, ties and all", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let t = 0; t < 2000; t++) {
      const n = 1 + Math.floor(random() * 200);
      // Half the values from a few levels (paper and ink repeat exactly), half anywhere.
      const values = Float32Array.from({ length: n }, () =>
        random() < 0.5 ? Math.floor(random() * 5) * 50 : random() * 255,
      );
      const k = Math.floor(random() * n);
      expect(nthSmallest(Float32Array.from(values), k)).toBe(Float32Array.from(values).sort()[k]);
    }
  });
});
