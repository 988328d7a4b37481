import { describe, expect, it } from "vitest";
import { ringsBeside, sexValueTail } from "./choice-rings";
import { extractSheetFields } from "./field-extraction";
import type { Raster } from "./raster";
import { syntheticRegion as at } from "./synthetic-region";
import type { PageFrame } from "./text-regions";

const now = new Date("2026-11-22T12:00:00Z");
const upright: PageFrame = { angle: 0, cos: 1, sin: 0 };

// A synthetic page 400 x 120: the printed choices' line is v 40-70 (30 pixels high), drawn with a round pen.
function page(draw: (ink: (x: number, y: number) => void) => void): Raster {
  const width = 400;
  const height = 120;
  const data = new Uint8Array(width * height * 3).fill(235);
  draw((x, y) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const px = Math.round(x + dx);
        const py = Math.round(y + dy);
        if (px >= 0 && py >= 0 && px < width && py < height) data.set([30, 40, 120], (py * width + px) * 3);
      }
    }
  });
  return { width, height, data };
}
const ellipse = (ink: (x: number, y: number) => void, cx: number, cy: number) => {
  for (let a = 0; a < 2 * Math.PI; a += 0.01) ink(cx + 24 * Math.cos(a), cy + 22 * Math.sin(a));
};
const letterM = at("M", { u: 150, v: 40, w: 24 });

/** One ring, round the unread letter's place at u = 240, clear of the read "M" (which ends at 174). */
function expectOneRingRoundTheF(rings: ReturnType<typeof ringsBeside>) {
  expect(rings).toHaveLength(1);
  expect(rings[0]!.u0).toBeLessThan(240);
  expect(rings[0]!.u1).toBeGreaterThan(240);
  expect(rings[0]!.u0).toBeGreaterThan(174);
}

describe("ringsBeside", () => {
  it("finds the pen's ring beside a read letter, round the place of an unread one", () => {
    const rings = ringsBeside(
      page((ink) => ellipse(ink, 240, 55)),
      upright,
      letterM,
    );
    expectOneRingRoundTheF(rings);
  });

  it("takes no table rules above and below the line for a ring", () => {
    const rules = page((ink) => {
      for (let x = 0; x < 400; x++) {
        ink(x, 27);
        ink(x, 83);
      }
    });
    expect(ringsBeside(rules, upright, letterM)).toEqual([]);
  });

  // A grid cell: its rules 4 pixels above and below the region, which the pen's ring fills (7171 sheets 029-031).
  const cell = (ink: (x: number, y: number) => void) => {
    for (let x = 0; x < 400; x++) {
      ink(x, 36);
      ink(x, 74);
    }
    // The printed letters, 12 pixels high: "M" at 150-170, "F" at 232-246.
    for (let y = 49; y <= 61; y++) for (const x of [150, 170, 232]) ink(x, y);
    for (let x = 232; x <= 246; x++) ink(x, 49);
  };

  it("finds the pen's ring inside a grid cell whose rules lie close above and below the line", () => {
    const rings = ringsBeside(
      page((ink) => {
        cell(ink);
        for (let a = 0; a < 2 * Math.PI; a += 0.01) ink(240 + 18 * Math.cos(a), 55 + 12 * Math.sin(a));
      }),
      upright,
      letterM,
    );
    expectOneRingRoundTheF(rings);
  });

  it("takes no printed letter in a grid cell for a ring, its stroke run from the cell's top to its bottom", () => {
    const tall = page((ink) => {
      cell(ink);
      // A bold letter, its ink down every column from near the cell's top to near its bottom.
      for (let y = 42; y <= 68; y++) for (let x = 150; x <= 170; x += 2) ink(x, y);
    });
    expect(ringsBeside(tall, upright, letterM)).toEqual([]);
    expect(ringsBeside(page(cell), upright, letterM)).toEqual([]);
  });
});

describe("sex printed as choices, decided by the ring on the page", () => {
  const label = () => at("Sex:", { u: 60, v: 40 });
  it("takes the pair's other choice for a ring round an unread letter in its place beside a lone read one", () => {
    const m = at("M", { u: 150, v: 40, w: 24 });
    m.choiceRings = [{ u0: 215, u1: 265 }];
    expect(extractSheetFields([label(), m], now).sex.value).toBe("female");
    const f = at("F", { u: 250, v: 40, w: 24 });
    f.choiceRings = [{ u0: 165, u1: 215 }];
    expect(extractSheetFields([label(), f], now).sex.value).toBe("male");
  });

  it("takes a slash read 'I' between the choices for no letter ('MIF' ringed at the M, 'MIE' at the E)", () => {
    // Letters at u 163 (M), 181 (I, the slash) and 198 (F or E): a grid cell's "M / F", 7171 sheets 029 and 030.
    const m = at("MIF", { u: 150, v: 40, w: 60 });
    m.choiceRings = [{ u0: 148, u1: 178 }];
    expect(extractSheetFields([label(), m], now).sex.value).toBe("male");
    const e = at("MIE", { u: 150, v: 40, w: 60 });
    e.choiceRings = [{ u0: 186, u1: 212 }];
    expect(extractSheetFields([label(), e], now).sex.value).toBe("female");
  });

  it("gives no answer for a ring on the wrong side of a lone letter, or far from it", () => {
    const before = at("M", { u: 250, v: 40, w: 24 });
    before.choiceRings = [{ u0: 165, u1: 215 }];
    expect(extractSheetFields([label(), before], now).sex.value).toBeNull();
    const far = at("M", { u: 150, v: 40, w: 24 });
    far.choiceRings = [{ u0: 300, u1: 350 }];
    expect(extractSheetFields([label(), far], now).sex.value).toBeNull();
  });

  it("judges the rings by the value's own letters' height, not by a taller label's region ('GENDER:M/' '/F')", () => {
    const labelled = at("GENDER:M/", { u: 60, v: 40, h: 40 });
    labelled.choiceRings = [];
    const slashF = at("/F", { u: 168, v: 45, w: 24, h: 29 });
    slashF.choiceRings = [{ u0: 135, u1: 165 }];
    expect(extractSheetFields([labelled, slashF], now).sex.value).toBe("male");
  });

  it("looks for the ring at the value's end of a sex label's region ('SEX:M', the ringed F unread)", () => {
    const region = at("SEX:M", { u: 60, v: 40, w: 90 });
    expect(sexValueTail(region)?.u0).toBeGreaterThan(110);
    expect(sexValueTail(at("Name:MAY", { u: 60, v: 40 }))).toBeNull();
    expect(sexValueTail(at("Gender:Female", { u: 60, v: 40 }))).toBeNull();
    // Unmarked (as before rings were looked for there), the text's "M" stood.
    expect(extractSheetFields([region], now).sex.value).toBe("male");
    region.choiceRings = [{ u0: 160, u1: 205 }];
    expect(extractSheetFields([region], now).sex.value).toBe("female");
  });

  it("takes the ringed letter, even when the pen made it read another ('M / E', the ring on the E)", () => {
    const m = at("M", { u: 150, v: 40, w: 24 });
    const slash = at("/", { u: 190, v: 40, w: 12 });
    const e = at("E", { u: 228, v: 44, w: 14, h: 18 });
    for (const r of [m, slash]) r.choiceRings = [{ u0: 212, u1: 262 }];
    // The small "E" looked with windows too small for the ring and saw its arcs as rings: not counted.
    e.choiceRings = [
      { u0: 180, u1: 195 },
      { u0: 228, u1: 243 },
    ];
    expect(extractSheetFields([label(), m, slash, e], now).sex.value).toBe("female");
    const ringedM = [{ u0: 138, u1: 188 }];
    for (const r of [m, slash, e]) r.choiceRings = ringedM;
    expect(extractSheetFields([label(), m, slash, e], now).sex.value).toBe("male");
  });

  it("gives no answer for a pair with two rings or none, and keeps a lone letter with none", () => {
    const m = at("M", { u: 150, v: 40, w: 24 });
    const slash = at("/F", { u: 190, v: 40, w: 40 });
    m.choiceRings = [];
    slash.choiceRings = [];
    expect(extractSheetFields([label(), m, slash], now).sex.value).toBeNull();
    m.choiceRings = [
      { u0: 138, u1: 188 },
      { u0: 200, u1: 250 },
    ];
    slash.choiceRings = m.choiceRings;
    expect(extractSheetFields([label(), m, slash], now).sex.value).toBeNull();
    const lone = at("F", { u: 150, v: 40, w: 24 });
    lone.choiceRings = [];
    expect(extractSheetFields([label(), lone], now).sex.value).toBe("female");
  });
});
