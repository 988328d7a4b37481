import { type Blob, inkStrokes, splitWide } from "./cell-strokes";
import type { InkMap } from "./digit-glyph";

/**
 * Splits a handwritten date's crop into digits and separators, for the digit classifier and the date grammar
 * (digit-reading.ts): a small blot low in the line is a point, a short flat stroke at mid-height a dash, a wide gap
 * between digits a space; a tall straight stroke leaning right may be a slash or a "1", so it carries how much it
 * looks like a slash and the grammar decides (a slash is only possible between the day, month and year groups).
 * Separators are found before strokes are joined into characters: a slanted digit's top often overhangs the point
 * or the slash after it, which the cells' overlap rule would join.
 */
export type DateChar =
  | { kind: "point" | "dash" | "gap" }
  | {
      kind: "glyph";
      map: InkMap;
      /** 0..1: how much the glyph looks like a slash (one straight stroke leaning right) rather than a digit. */
      slash: number;
    };

/** A stroke's straightness and lean, from the principal axes of its pixels. */
type Line = {
  /** Horizontal run per unit of height, positive when the top is further right (a slash). */
  lean: number;
  /** Spread across the main axis over spread along it: near 0 for a straight stroke. */
  thickness: number;
};

function lineOf(pixels: number[], width: number): Line {
  let n = 0;
  let mx = 0;
  let my = 0;
  for (const p of pixels) {
    mx += p % width;
    my += Math.floor(p / width);
    n++;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of pixels) {
    const dx = (p % width) - mx;
    const dy = Math.floor(p / width) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const mean = (sxx + syy) / 2;
  const spread = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
  const major = mean + spread;
  const minor = Math.max(0, mean - spread);
  // y grows downwards: a slash's x falls as y grows.
  return { lean: syy > 0 ? -sxy / syy : 0, thickness: major > 0 ? Math.sqrt(minor / major) : 1 };
}

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/**
 * How much a stroke of this shape looks like a slash: straight (thin across its axis), leaning right at least as
 * much as a hand's slash does (its width is a third to two thirds of its height, a writer's slant aside), and not
 * much shorter than the digits. An upright "1" scores 0, a slanted "1" in between: the grammar weighs it.
 */
export function slashLikeness(line: Line, height: number, digitHeight: number): number {
  const straight = clamp01((0.32 - line.thickness) / 0.14);
  const leaning = clamp01((line.lean - 0.12) / 0.25);
  const tall = clamp01((height / digitHeight - 0.6) / 0.25);
  return straight * leaning * tall;
}

const widthOf = (b: Blob) => b.x1 - b.x0 + 1;
const heightOfBlob = (b: Blob) => b.y1 - b.y0 + 1;

/** A gap between two glyphs this much wider than the digit height (and than the usual gaps) is a written space. */
const SPACE_GAP = 0.55;

/** The digits and separators of a grey date crop, left to right; null when it does not look like a written date. */
export function segmentDate(grey: InkMap): DateChar[] | null {
  const found = inkStrokes(grey, true);
  if (!found) return null;
  const { ink, strokes } = found;
  const { width } = grey;
  const tallest = Math.max(...strokes.map(heightOfBlob));
  const tall = strokes.map(heightOfBlob).filter((h) => h >= 0.5 * tallest);
  const digitHeight = tall.sort((a, b) => a - b)[Math.floor(tall.length / 2)]!;
  if (digitHeight < 8) return null;
  const big = strokes.filter((b) => heightOfBlob(b) >= 0.5 * digitHeight);
  const top = Math.min(...big.map((b) => b.y0));
  const bottom = Math.max(...big.map((b) => b.y1));
  const span = Math.max(1, bottom - top);

  type Item = { x0: number; x1: number; char: DateChar | null; blob: Blob | null; line: boolean };
  const items: Item[] = [];
  for (const b of [...strokes].sort((p, q) => p.x0 - q.x0)) {
    const w = widthOf(b);
    const h = heightOfBlob(b);
    const cy = (b.y0 + b.y1) / 2;
    if (h < 0.4 * digitHeight) {
      if (w < 0.45 * digitHeight && cy > top + 0.6 * span) {
        items.push({ x0: b.x0, x1: b.x1, char: { kind: "point" }, blob: null, line: false });
        continue;
      }
      if (w >= 0.25 * digitHeight && w >= 1.3 * h && cy > top + 0.2 * span && cy < top + 0.8 * span) {
        items.push({ x0: b.x0, x1: b.x1, char: { kind: "dash" }, blob: null, line: false });
        continue;
      }
    }
    const line = lineOf(b.pixels, width);
    const slashy = slashLikeness(line, h, digitHeight) > 0.5;
    items.push({ x0: b.x0, x1: b.x1, char: null, blob: { ...b, pixels: [...b.pixels] }, line: slashy });
  }
  // Strokes of one digit overlap horizontally (a "5" whose flag is apart); a slash-like stroke is a character alone.
  const joined: Item[] = [];
  for (const it of items) {
    const last = joined.at(-1);
    if (last?.blob && it.blob && !last.line && !it.line) {
      const overlap = Math.min(last.x1, it.x1) - Math.max(last.x0, it.x0) + 1;
      if (overlap >= 0.5 * Math.min(widthOf(last.blob), widthOf(it.blob))) {
        const b = last.blob;
        b.x0 = Math.min(b.x0, it.blob.x0);
        b.x1 = Math.max(b.x1, it.blob.x1);
        b.y0 = Math.min(b.y0, it.blob.y0);
        b.y1 = Math.max(b.y1, it.blob.y1);
        b.pixels.push(...it.blob.pixels);
        last.x0 = b.x0;
        last.x1 = b.x1;
        continue;
      }
    }
    joined.push(it);
  }
  const out: DateChar[] = [];
  let lastGlyphEnd: number | null = null;
  const gaps: number[] = [];
  for (let k = 1; k < joined.length; k++) {
    if (joined[k]!.blob && joined[k - 1]!.blob) gaps.push(joined[k]!.x0 - joined[k - 1]!.x1);
  }
  const usualGap = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
  for (const it of joined) {
    if (!it.blob) {
      out.push(it.char!);
      lastGlyphEnd = null;
      continue;
    }
    const b = it.blob;
    const h = heightOfBlob(b);
    // A speck, or what is left of an underline: no digit is that low.
    if (h < 0.4 * digitHeight) continue;
    if (lastGlyphEnd !== null) {
      const gap = b.x0 - lastGlyphEnd;
      if (gap > SPACE_GAP * digitHeight && gap > 1.8 * usualGap) out.push({ kind: "gap" });
    }
    lastGlyphEnd = b.x1;
    for (const piece of peelDashes(b, width, digitHeight, top, span)) {
      if (piece === "dash") out.push({ kind: "dash" });
      else if (heightOfBlob(piece) >= 0.4 * digitHeight) out.push(...glyphParts(piece, ink, width, digitHeight));
    }
  }
  const glyphs = out.filter((c) => c.kind === "glyph").length;
  return glyphs >= 4 && out.length <= 14 ? out : null;
}

/**
 * A dash written touching the digits beside it ("2-0" in one stroke of ink): a run of columns whose only ink is a
 * thin band at mid-height, as long as a dash, is cut out; the parts on either side are read on their own.
 */
function peelDashes(b: Blob, width: number, digitHeight: number, top: number, span: number): (Blob | "dash")[] {
  const w = widthOf(b);
  if (w < 0.6 * digitHeight) return [b];
  const lo = new Int32Array(w).fill(1 << 30);
  const hi = new Int32Array(w).fill(-1);
  for (const p of b.pixels) {
    const x = (p % width) - b.x0;
    const y = Math.floor(p / width);
    lo[x] = Math.min(lo[x]!, y);
    hi[x] = Math.max(hi[x]!, y);
  }
  const dashy = (x: number) => {
    if (hi[x]! < 0) return false;
    const mid = (lo[x]! + hi[x]!) / 2;
    return hi[x]! - lo[x]! + 1 <= 0.22 * digitHeight && mid > top + 0.3 * span && mid < top + 0.75 * span;
  };
  const runs: [number, number][] = [];
  for (let x = 0; x < w; x++) {
    if (!dashy(x)) continue;
    let end = x;
    while (end + 1 < w && dashy(end + 1)) end++;
    if (end - x + 1 >= 0.25 * digitHeight) runs.push([x, end]);
    x = end;
  }
  if (runs.length === 0) return [b];
  const out: (Blob | "dash")[] = [];
  let from = 0;
  const part = (x0: number, x1: number) => {
    const pixels = b.pixels.filter((p) => {
      const x = (p % width) - b.x0;
      return x >= x0 && x <= x1;
    });
    if (pixels.length === 0) return;
    const ys = pixels.map((p) => Math.floor(p / width));
    out.push({ x0: b.x0 + x0, x1: b.x0 + x1, y0: Math.min(...ys), y1: Math.max(...ys), pixels });
  };
  for (const [x0, x1] of runs) {
    part(from, x0 - 1);
    out.push("dash");
    from = x1 + 1;
  }
  part(from, w - 1);
  return out;
}

/**
 * One joined character as glyphs: digits written touching are cut at the thinnest columns; a slash written
 * touching a digit ("1/" in one stroke of ink) is peeled off when one side of a cut is a straight leaning stroke.
 */
function glyphParts(b: Blob, ink: Float32Array, width: number, digitHeight: number): DateChar[] {
  const whole = lineOf(b.pixels, width);
  const w = widthOf(b);
  if (w > 0.55 * digitHeight && w < 1.4 * digitHeight) {
    const peeled = peelSlash(b, ink, width, digitHeight);
    if (peeled) return peeled;
  }
  const parts = splitWide(b, ink, width, digitHeight);
  if (parts.length === 1) {
    return [{ kind: "glyph", map: parts[0]!, slash: slashLikeness(whole, heightOfBlob(b), digitHeight) }];
  }
  return parts.map((map) => ({ kind: "glyph", map, slash: 0 }));
}

function peelSlash(b: Blob, ink: Float32Array, width: number, digitHeight: number): DateChar[] | null {
  const w = widthOf(b);
  let best: { cut: number; score: number; side: "left" | "right" } | null = null;
  for (let cut = b.x0 + Math.round(0.3 * w); cut <= b.x0 + Math.round(0.7 * w); cut++) {
    const left = b.pixels.filter((p) => p % width < cut);
    const right = b.pixels.filter((p) => p % width >= cut);
    if (left.length < 0.15 * b.pixels.length || right.length < 0.15 * b.pixels.length) continue;
    for (const [side, pixels] of [
      ["left", left],
      ["right", right],
    ] as const) {
      const ys = pixels.map((p) => Math.floor(p / width));
      const h = Math.max(...ys) - Math.min(...ys) + 1;
      const score = slashLikeness(lineOf(pixels, width), h, digitHeight);
      if (score > 0.6 && (!best || score > best.score)) best = { cut, score, side };
    }
  }
  if (!best) return null;
  const pieces = [b.pixels.filter((p) => p % width < best.cut), b.pixels.filter((p) => p % width >= best.cut)];
  // The other side must be a digit of its own, not the bar of a "7" or a "4" whose stem leans.
  const other = pieces[best.side === "left" ? 1 : 0]!.map((p) => Math.floor(p / width));
  if (Math.max(...other) - Math.min(...other) + 1 < 0.6 * digitHeight) return null;
  return pieces.map((pixels, k) => {
    const isSlash = (k === 0) === (best.side === "left");
    return { kind: "glyph", map: inkMapOf(pixels, ink, width), slash: isSlash ? best.score : 0 };
  });
}

function inkMapOf(pixels: number[], ink: Float32Array, width: number): InkMap {
  const xs = pixels.map((p) => p % width);
  const ys = pixels.map((p) => Math.floor(p / width));
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const w = Math.max(...xs) - x0 + 1;
  const h = Math.max(...ys) - y0 + 1;
  const out = new Float32Array(w * h);
  pixels.forEach((p, i) => {
    out[(ys[i]! - y0) * w + xs[i]! - x0] = ink[p]!;
  });
  return { width: w, height: h, ink: out };
}
