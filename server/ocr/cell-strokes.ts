import type { InkMap } from "./digit-glyph";
import type { Raster } from "./raster";
import type { PageFrame, TextRegion } from "./text-regions";

/**
 * Splits a handwritten number's crop into its characters by connected strokes, for the digit classifier: the ink
 * is told from the paper by Otsu's threshold over the crop, strokes that overlap horizontally are one character
 * (a "5" whose flag is apart), a small blot low in the line is a decimal point, and a blob wider than a digit is cut
 * at its thinnest column (digits written touching).
 */
export type CellChar = { kind: "point" } | { kind: "glyph"; map: InkMap; wide?: WideGlyph };

/**
 * A glyph at least WIDE_GLYPH digit heights wide (upright): its width, and the two halves it falls into at each of its
 * likeliest cuts (the lightest columns of its middle), for the classifier to judge whether it is two touching
 * digits (digit-reading.ts).
 */
export type WideGlyph = { width: number; halves: [InkMap, InkMap][] };

/** The region's pixels along the page's skew, grey 0 (black) .. 255, a little taller than the region. */
export function cropGrey(image: Raster, frame: PageFrame, r: TextRegion, grow = 0.12): InkMap {
  const h0 = r.v1 - r.v0;
  const v0 = r.v0 - grow * h0;
  const v1 = r.v1 + grow * h0;
  const width = Math.max(1, Math.round(r.u1 - r.u0));
  const height = Math.max(1, Math.round(v1 - v0));
  const ink = new Float32Array(width * height);
  const { cos, sin } = frame;
  for (let j = 0; j < height; j++)
    for (let i = 0; i < width; i++) {
      const u = r.u0 + i + 0.5;
      const v = v0 + j + 0.5;
      const x = Math.round(u * cos - v * sin);
      const y = Math.round(u * sin + v * cos);
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) {
        ink[j * width + i] = 255;
        continue;
      }
      const p = (y * image.width + x) * 3;
      ink[j * width + i] = 0.299 * image.data[p]! + 0.587 * image.data[p + 1]! + 0.114 * image.data[p + 2]!;
    }
  return { width, height, ink };
}

export function otsu(values: Float32Array): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

export type Blob = { x0: number; x1: number; y0: number; y1: number; pixels: number[] };

/**
 * The ink of a grey crop (0 paper .. 1 ink, Otsu's threshold, rulings erased) and its pen strokes: connected
 * components that are not what is left of a ruling nor dust (`keepMarks`: a date's marks are kept, flat strokes
 * inside the crop, its dashes, and small blots at its edges, its points). Null when the crop has too little contrast to hold ink.
 */
export function inkStrokes(grey: InkMap, keepMarks = false): { ink: Float32Array; strokes: Blob[] } | null {
  const { width, height, ink: g } = grey;
  const threshold = otsu(g);
  const sorted = Float32Array.from(g).sort();
  const paper = sorted[Math.floor(sorted.length * 0.9)]!;
  const dark = sorted[Math.floor(sorted.length * 0.02)]!;
  // Too little contrast: no ink, nothing to read.
  if (paper - dark < 40) return null;
  const ink = new Float32Array(width * height);
  for (let i = 0; i < ink.length; i++)
    ink[i] = g[i]! > threshold ? 0 : Math.min(1, Math.max(0, (paper - g[i]!) / Math.max(1, paper - dark)));
  eraseRulings(ink, width, height);
  const blobs = components(ink, width, height);
  // Ruling lines of the table: as wide as most of the crop and thin, or crossing it from edge to edge.
  const strokes = blobs.filter((b) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    if (w > 0.7 * width && h < 0.25 * height) return false;
    // What is left of a ruling beside an erased row: flat, or entirely in the crop's top or bottom fifth.
    const flat = w > 3 * h && h < 0.12 * height;
    if (!keepMarks && flat) return false;
    if ((b.y1 < 0.2 * height || b.y0 > 0.8 * height) && (flat || !keepMarks || w > 0.15 * height)) return false;
    if (h > 0.95 * height && w < 0.06 * height) return false;
    return b.pixels.length >= Math.max(4, 0.002 * height * height);
  });
  return strokes.length > 0 ? { ink, strokes } : null;
}

/** The characters of a grey crop, left to right; null when it does not look like a handwritten number. */
export function segmentCell(grey: InkMap, touching = false, splitWidth = CELL_SPLIT_WIDTH): CellChar[] | null {
  // A cell's marks are kept (a point at the crop's lower edge, a digit's flag written apart); flat ones that are no
  // point are dropped below unless they join a digit.
  const found = inkStrokes(grey, true);
  if (!found) return null;
  const { ink, strokes } = found;
  const { width } = grey;
  const heights = strokes.map((b) => b.y1 - b.y0 + 1);
  const tallest = Math.max(...heights);
  const tall = heights.filter((h) => h >= 0.5 * tallest).sort((a, b) => a - b);
  const digitHeight = tall[Math.floor(tall.length / 2)]!;
  if (digitHeight < 8) return null;
  const big = strokes.filter((b) => b.y1 - b.y0 + 1 >= 0.5 * digitHeight);
  const skew = slantOf(big, width);
  const top = Math.min(...big.map((c) => c.y0));
  const bottom = Math.max(...big.map((c) => c.y1));
  // Decimal points are found before strokes are joined into characters: a slanted digit's foot or top often
  // overhangs the point beside it, which the overlap rule would join into the digit ("9.1" read "91").
  const isPoint = (b: Blob) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    return (
      h < 0.35 * digitHeight && w < 0.45 * digitHeight && w < 2 * h && (b.y0 + b.y1) / 2 > top + 0.6 * (bottom - top)
    );
  };
  type Item = { blob: Blob; point: boolean };
  const items: Item[] = [...strokes]
    .sort((a, b) => a.x0 - b.x0)
    .map((b) => ({ blob: { ...b, pixels: [...b.pixels] }, point: isPoint(b) }));
  // Strokes that overlap horizontally by half the narrower one are one character (a "5" whose flag is apart).
  const chars: Item[] = [];
  for (const it of items) {
    const last = chars.findLast((c) => !c.point);
    const s = it.blob;
    const l = last?.blob;
    const overlap = l ? Math.min(l.x1, s.x1) - Math.max(l.x0, s.x0) + 1 : 0;
    if (l && !it.point && overlap >= 0.5 * Math.min(l.x1 - l.x0 + 1, s.x1 - s.x0 + 1)) {
      l.x0 = Math.min(l.x0, s.x0);
      l.x1 = Math.max(l.x1, s.x1);
      l.y0 = Math.min(l.y0, s.y0);
      l.y1 = Math.max(l.y1, s.y1);
      l.pixels.push(...s.pixels);
    } else chars.push(it);
  }
  const faint = faintPoints(grey, strokes, digitHeight, top, bottom);
  const out: CellChar[] = [];
  chars.forEach(({ blob: c, point }, k) => {
    const prev = chars[k - 1];
    // A point too faint or small for Otsu's threshold (a dot the photo's blur lightened) between two digits.
    if (!point && prev && !prev.point && out.at(-1)?.kind === "glyph") {
      const left = prev.blob;
      const found = faint.some((p) => {
        const u = (p.x0 + p.x1) / 2;
        return u > (left.x0 + left.x1) / 2 && u < (c.x0 + c.x1) / 2 && p.x0 > left.x0 + 0.5 * (left.x1 - left.x0);
      });
      if (found) out.push({ kind: "point" });
    }
    if (point) {
      // Two points in a row, or one before any digit, is dust.
      if (out.length > 0 && out.at(-1)!.kind !== "point") out.push({ kind: "point" });
      return;
    }
    const w = c.x1 - c.x0 + 1;
    const h = c.y1 - c.y0 + 1;
    // A small blot high in the line, or a flat mark that joined no digit: noise.
    if (h < 0.35 * digitHeight && w < 0.45 * digitHeight) return;
    if (h < 0.4 * digitHeight) return;
    for (const part of splitCell(c, ink, width, digitHeight, skew, touching, splitWidth)) out.push(part);
  });
  while (out.at(-1)?.kind === "point") out.pop();
  return out.length > 0 && out.length <= 6 ? out : null;
}

/**
 * How much darker than the paper a faint point must be, as a share of the ink's contrast (paper to darkest ink):
 * Otsu's threshold over the crop is set by the digits' strokes, and a dot a few pixels across that the photo's blur
 * lightened falls under it (seed 101: 70 of the 79 points the segmentation lost were such dots, apart from the digits).
 */
const FAINT_POINT_CONTRAST = 0.25;

/**
 * Dots too faint for Otsu's threshold that may be decimal points: blobs of the crop's ink at a lower threshold that
 * hold no pixel of a stroke already found (not a digit's edge), shaped like a dot, in the lower part of the digits'
 * band and not below it.
 */
function faintPoints(grey: InkMap, strokes: Blob[], digitHeight: number, top: number, bottom: number): Blob[] {
  const { width, height, ink: g } = grey;
  const sorted = Float32Array.from(g).sort();
  const paper = sorted[Math.floor(sorted.length * 0.9)]!;
  const dark = sorted[Math.floor(sorted.length * 0.02)]!;
  const level = paper - FAINT_POINT_CONTRAST * (paper - dark);
  const taken = new Uint8Array(width * height);
  for (const s of strokes) for (const p of s.pixels) taken[p] = 1;
  const lenient = new Float32Array(width * height);
  for (let i = 0; i < lenient.length; i++) lenient[i] = g[i]! < level ? 1 : 0;
  eraseRulings(lenient, width, height);
  return components(lenient, width, height).filter((b) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    if (b.pixels.some((p) => taken[p])) return false;
    if (b.pixels.length < 3 || w > 0.35 * digitHeight || h > 0.35 * digitHeight || w > 2.5 * h || h > 2.5 * w)
      return false;
    const v = (b.y0 + b.y1) / 2;
    return v > top + 0.6 * (bottom - top) && b.y1 <= bottom + 0.15 * digitHeight;
  });
}

/**
 * Table rulings that cross the crop (rows or columns mostly inked) are erased, so that digits touching them do not
 * become one blob; a digit cut by the erased band is joined again by the horizontal overlap rule.
 */
export function eraseRulings(ink: Float32Array, width: number, height: number) {
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) n += Number(ink[y * width + x]! > 0);
    if (n > 0.6 * width) for (let x = 0; x < width; x++) ink[y * width + x] = 0;
  }
  for (let x = 0; x < width; x++) {
    let n = 0;
    for (let y = 0; y < height; y++) n += Number(ink[y * width + x]! > 0);
    if (n > 0.8 * height) for (let y = 0; y < height; y++) ink[y * width + x] = 0;
  }
}

/**
 * Width (in digit heights) a touching digit takes when a wide blob is cut into digits (cells and dates). 0.9 rather
 * than 0.75: real handwritten digits are often wider than tall (a "2" of 1.3 digit heights was cut in two);
 * measured on seed 101, values read right 874 -> 881 of 1,020 (1.05: 880), and with the rest of issue 24's third
 * session dates of birth 83 -> 87 %, exam dates 73 -> 83 %.
 */
export const SPLIT_WIDTH = 0.9;

/** A character's own ink, cut into as many digits as its width holds (touching digits), at the thinnest columns. */
export function splitWide(
  c: Blob,
  ink: Float32Array,
  width: number,
  digitHeight: number,
  splitWidth = SPLIT_WIDTH,
): InkMap[] {
  const w = c.x1 - c.x0 + 1;
  const h = c.y1 - c.y0 + 1;
  const own = new Float32Array(w * h);
  for (const p of c.pixels) {
    const x = (p % width) - c.x0;
    const y = Math.floor(p / width) - c.y0;
    own[y * w + x] = ink[p]!;
  }
  const count = Math.max(1, Math.min(3, Math.round(w / (splitWidth * digitHeight))));
  if (count === 1) return [{ width: w, height: h, ink: own }];
  const column = new Float32Array(w);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) column[x] = column[x]! + own[y * w + x]!;
  const cuts: number[] = [];
  for (let k = 1; k < count; k++) {
    const centre = Math.round((k * w) / count);
    const reach = Math.round(w / count / 3);
    let best = centre;
    for (let x = centre - reach; x <= centre + reach; x++) if (column[x]! < column[best]!) best = x;
    cuts.push(best);
  }
  const bounds = [0, ...cuts, w];
  return bounds.slice(1).map((end, k) => {
    const start = bounds[k]!;
    const pw = end - start;
    const part = new Float32Array(pw * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < pw; x++) part[y * pw + x] = own[y * w + start + x]!;
    return { width: pw, height: h, ink: part };
  });
}

/**
 * The writer's slant over a cell's digits: horizontal run per unit of height of their ink (the second moments of each
 * stroke about its own centre, pooled), negative when the tops lean right (y grows downwards). Clamped: a cell's
 * digits rarely lean more than 35 degrees.
 */
export function slantOf(strokes: Blob[], width: number): number {
  let sxy = 0;
  let syy = 0;
  for (const b of strokes) {
    let mx = 0;
    let my = 0;
    for (const p of b.pixels) {
      mx += p % width;
      my += Math.floor(p / width);
    }
    mx /= b.pixels.length;
    my /= b.pixels.length;
    for (const p of b.pixels) {
      const dy = Math.floor(p / width) - my;
      sxy += ((p % width) - mx) * dy;
      syy += dy * dy;
    }
  }
  return syy > 0 ? Math.max(-0.7, Math.min(0.7, sxy / syy)) : 0;
}

/** Width (in digit heights, upright) a touching digit takes when a cell's wide blob is cut into digits. */
export const CELL_SPLIT_WIDTH = 1.2;
/** A column with at most this much ink (in digit heights of one-pixel ink) between two tall parts is where they touch. */
const TOUCH_MASS = 0.2;
/** One side of such a column is a "1": at most this wide (digit heights, upright). */
const ONE_WIDTH = 0.45;
/** How tall (in digit heights) both sides of such a column must be: two digits, not a digit's bar or flag. */
const TOUCH_EXTENT = 0.85;

/**
 * A cell's character cut into the digits it holds, along the writer's slant (`skew`, slantOf): first where a column
 * holds almost no ink between two parts that each stand nearly a digit tall (a thin "1" touching the digit beside it
 * is too narrow for the width rule), then each part as many digits as its upright width holds, at its thinnest
 * columns.
 */
export function splitCell(
  c: Blob,
  ink: Float32Array,
  width: number,
  digitHeight: number,
  skew: number,
  touching = false,
  splitWidth = CELL_SPLIT_WIDTH,
): Extract<CellChar, { kind: "glyph" }>[] {
  const yc = (c.y0 + c.y1) / 2;
  const xs = c.pixels.map((p) => Math.round((p % width) - skew * (Math.floor(p / width) - yc)));
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const n = hi - lo + 1;
  const mass = new Float32Array(n);
  const top = new Float32Array(n).fill(Number.POSITIVE_INFINITY);
  const bottom = new Float32Array(n).fill(Number.NEGATIVE_INFINITY);
  c.pixels.forEach((p, k) => {
    const i = xs[k]! - lo;
    const y = Math.floor(p / width);
    mass[i]! += ink[p]!;
    top[i] = Math.min(top[i]!, y);
    bottom[i] = Math.max(bottom[i]!, y);
  });
  // Ink runs down each upright column: a ring's top and bottom are two, a point where two digits touch one.
  const rows: number[][] = Array.from({ length: n }, () => []);
  c.pixels.forEach((p, k) => {
    rows[xs[k]! - lo]!.push(Math.floor(p / width));
  });
  const runs = rows.map((ys) => {
    const sorted = [...new Set(ys)].sort((a, b) => a - b);
    return sorted.filter((y, k) => k === 0 || y - sorted[k - 1]! > 1).length;
  });
  const extent = (a: number, b: number) => {
    let t = Number.POSITIVE_INFINITY;
    let d = Number.NEGATIVE_INFINITY;
    for (let i = a; i < b; i++) {
      t = Math.min(t, top[i]!);
      d = Math.max(d, bottom[i]!);
    }
    return d - t + 1;
  };
  // Cuts where two tall parts touch: the lightest column of each run of light columns.
  const cuts: number[] = [];
  let start = 0;
  const minPart = Math.max(2, Math.round(0.1 * digitHeight));
  for (let i = minPart; touching && i < n - minPart; i++) {
    const light = (x: number) => mass[x]! <= TOUCH_MASS * digitHeight && runs[x]! <= 1;
    if (!light(i)) continue;
    let best = i;
    let j = i;
    while (j < n - minPart && light(j)) {
      if (mass[j]! < mass[best]!) best = j;
      j++;
    }
    if (
      best - start >= minPart &&
      Math.min(best - start, n - best - 1) <= ONE_WIDTH * digitHeight &&
      extent(start, best) >= TOUCH_EXTENT * digitHeight &&
      extent(best + 1, n) >= TOUCH_EXTENT * digitHeight
    ) {
      cuts.push(best);
      start = best + 1;
    }
    i = j;
  }
  // Then each part by its width.
  const bounds = [0, ...cuts.map((x) => x + 1), n];
  const all: number[] = [0];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const a = bounds[k]!;
    const b = bounds[k + 1]!;
    const count = Math.max(1, Math.min(3, Math.round((b - a) / (splitWidth * digitHeight))));
    for (let m = 1; m < count; m++) {
      const centre = a + Math.round((m * (b - a)) / count);
      const reach = Math.round((b - a) / count / 3);
      let best = centre;
      for (let x = Math.max(a + 1, centre - reach); x <= Math.min(b - 1, centre + reach); x++)
        if (mass[x]! < mass[best]!) best = x;
      all.push(best);
    }
    if (b < n) all.push(b);
  }
  all.push(n);
  const parts: Extract<CellChar, { kind: "glyph" }>[] = [];
  const between = (a: number, b: number) => c.pixels.filter((_, q) => xs[q]! - lo >= a && xs[q]! - lo < b);
  for (let k = 0; k + 1 < all.length; k++) {
    const a = all[k]!;
    const b = all[k + 1]!;
    const own = between(a, b);
    if (own.length === 0) continue;
    const map = pixelMap(own, ink, width);
    if (b - a < WIDE_GLYPH * digitHeight) {
      parts.push({ kind: "glyph", map });
      continue;
    }
    const halves = lightCuts(mass, a, b, minPart).flatMap((x): [InkMap, InkMap][] => {
      const left = between(a, x);
      const right = between(x, b);
      return left.length > 0 && right.length > 0 ? [[pixelMap(left, ink, width), pixelMap(right, ink, width)]] : [];
    });
    parts.push({ kind: "glyph", map, wide: { width: (b - a) / digitHeight, halves } });
  }
  return parts;
}

/**
 * Width (in digit heights, upright) from which a glyph may be two digits written touching ("24", "68"). Many real
 * touching pairs are narrower than 1.3 digit heights (a "10", "28" or "147" merged at 1.0-1.3); the cut is weighed
 * only where the recogniser read its value (cell-reading.ts), so a single wide digit costs nothing. Tuning seeds
 * 101/131/151, values right and emitted: 1.3 +4 / +1 / 0, 0.95 +7 / +2 / 0, 0.8 +6 / +2 and one more wrong at
 * >= 0.8 on seed 101.
 */
export const WIDE_GLYPH = 0.95;
/** How many cuts of a wide glyph are offered to the classifier. */
const WIDE_CUTS = 3;

/**
 * The likeliest places a wide glyph's two digits touch: the columns of least ink in its middle (a third of its width
 * either side of its centre), local minima at least a few columns apart, lightest first.
 */
function lightCuts(mass: Float32Array, a: number, b: number, apart: number): number[] {
  const from = Math.max(a + apart, Math.round(a + (b - a) / 6));
  const to = Math.min(b - apart, Math.round(b - (b - a) / 6));
  const order: number[] = [];
  for (let x = from; x <= to; x++) order.push(x);
  order.sort((p, q) => mass[p]! - mass[q]!);
  const cuts: number[] = [];
  for (const x of order) {
    if (cuts.length >= WIDE_CUTS) break;
    if (cuts.every((y) => Math.abs(x - y) >= apart)) cuts.push(x);
  }
  return cuts;
}

/** The ink map of some pixels of a crop, cut to their bounding box. */
function pixelMap(pixels: number[], ink: Float32Array, width: number): InkMap {
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = -1;
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = -1;
  for (const p of pixels) {
    const x = p % width;
    const y = Math.floor(p / width);
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const map = new Float32Array(w * h);
  for (const p of pixels) map[(Math.floor(p / width) - y0) * w + (p % width) - x0] = ink[p]!;
  return { width: w, height: h, ink: map };
}

/** 8-connected components of the pixels with ink. */
export function components(ink: Float32Array, width: number, height: number): Blob[] {
  const seen = new Uint8Array(ink.length);
  const blobs: Blob[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (seen[start] || ink[start]! <= 0) continue;
    const blob: Blob = { x0: width, x1: -1, y0: height, y1: -1, pixels: [] };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop()!;
      blob.pixels.push(p);
      const x = p % width;
      const y = Math.floor(p / width);
      blob.x0 = Math.min(blob.x0, x);
      blob.x1 = Math.max(blob.x1, x);
      blob.y0 = Math.min(blob.y0, y);
      blob.y1 = Math.max(blob.y1, y);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const q = ny * width + nx;
          if (!seen[q] && ink[q]! > 0) {
            seen[q] = 1;
            stack.push(q);
          }
        }
    }
    blobs.push(blob);
  }
  return blobs;
}
