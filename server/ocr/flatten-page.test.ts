import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { findSheet, flattenPage, homography, keystone, type Quad } from "./flatten-page";

/** A white sheet with a black bar across its top third, drawn as `sheet` on a dark desk of 800 x 1000 pixels. */
function photo(sheet: Quad): Promise<Buffer> {
  const points = sheet.map((p) => `${p.x},${p.y}`).join(" ");
  const bar = [sheet[0], sheet[1]].map((p, i) => {
    const below = sheet[i === 0 ? 3 : 2];
    return { x: p.x + (below.x - p.x) * 0.3, y: p.y + (below.y - p.y) * 0.3 };
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000">
    <rect width="800" height="1000" fill="#5a4a3a"/>
    <polygon points="${points}" fill="#f4f1ea"/>
    <line x1="${bar[0]!.x + 60}" y1="${bar[0]!.y}" x2="${bar[1]!.x - 60}" y2="${bar[1]!.y}"
      stroke="#000" stroke-width="20"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const quad = (...xy: number[]): Quad => [0, 2, 4, 6].map((i) => ({ x: xy[i]!, y: xy[i + 1]! })) as Quad;

describe("homography", () => {
  it("maps each corner onto its counterpart", () => {
    const from = quad(0, 0, 100, 0, 100, 140, 0, 140);
    const to = quad(20, 10, 90, 12, 110, 150, 0, 145);
    const h = homography(from, to);
    from.forEach((p, i) => {
      const d = h[6]! * p.x + h[7]! * p.y + 1;
      expect((h[0]! * p.x + h[1]! * p.y + h[2]!) / d).toBeCloseTo(to[i]!.x, 6);
      expect((h[3]! * p.x + h[4]! * p.y + h[5]!) / d).toBeCloseTo(to[i]!.y, 6);
    });
  });
});

describe("flattenPage", () => {
  it("finds the corners of a sheet seen at an angle and warps it back to an upright sheet", async () => {
    // Tilted back: the far (top) edge 71 % of the near one.
    const sheet = quad(200, 120, 600, 120, 680, 900, 120, 900);
    const image = await photo(sheet);
    const found = await findSheet(image);
    expect(found).not.toBeNull();
    found!.forEach((p, i) => {
      expect(Math.abs(p.x - sheet[i]!.x)).toBeLessThan(12);
      expect(Math.abs(p.y - sheet[i]!.y)).toBeLessThan(12);
    });
    expect(keystone(found!)).toBeGreaterThan(0.25);
    const flat = await flattenPage(image);
    const { width, height } = await sharp(flat).metadata();
    // The sheet alone, desk cropped away: as wide as its near edge, as tall as its sides.
    expect(width).toBeGreaterThan(540);
    expect(width).toBeLessThan(620);
    expect(height).toBeGreaterThan(760);
    expect(height).toBeLessThan(840);
    // The bar, level across the sheet again: its darkest row is the same near the left edge as near the right.
    const { data, info } = await sharp(flat).greyscale().raw().toBuffer({ resolveWithObject: true });
    const darkestRow = (share: number) => {
      const x = Math.round(share * info.width);
      let best = { y: 0, v: 255 };
      for (let y = Math.round(0.1 * info.height); y < 0.6 * info.height; y++) {
        const v = data[y * info.width + x]!;
        if (v < best.v) best = { y, v };
      }
      return best;
    };
    const [left, right] = [darkestRow(0.2), darkestRow(0.8)];
    // Paper right up to the left edge, at the top as at the bottom: the sheet's sides are upright.
    expect(data[Math.round(0.08 * info.height) * info.width + Math.round(0.04 * info.width)]).toBeGreaterThan(200);
    expect(data[Math.round(0.92 * info.height) * info.width + Math.round(0.04 * info.width)]).toBeGreaterThan(200);
    expect(left.v).toBeLessThan(80);
    expect(right.v).toBeLessThan(80);
    expect(Math.abs(left.y - right.y)).toBeLessThan(0.02 * info.height);
  });

  it("leaves a sheet photographed square on, or one filling the photo, as it is", async () => {
    const square = await photo(quad(120, 100, 680, 100, 680, 900, 120, 900));
    expect(await flattenPage(square)).toBe(square);
    const filling = await photo(quad(0, 0, 800, 0, 800, 1000, 0, 1000));
    expect(await flattenPage(filling)).toBe(filling);
  });

  it("leaves a sheet the frame cut off as it is: its corners are not in the photo", async () => {
    const cut = await photo(quad(220, 120, 580, 120, 900, 1100, -100, 1100));
    expect(await flattenPage(cut)).toBe(cut);
  });
});
