// Is the check box left of a printed label marked? Looks at the page's pixels just left of the label (a square,
// a circle, a printed "☐" or "[ ]") and around the label itself (a clinician may circle the word instead).
import type { Raster } from "./raster";
import type { PageFrame } from "./text-regions";

/** What the page shows at one label: a marked box (tick, cross, fill or a circled word), an empty one, or doubt. */
export type CheckMark = { state: "marked" | "empty" | "unclear"; confidence: number; how: "box" | "circled" | null };
type Span = { u0: number; u1: number; v0: number; v1: number };

/** Share of the box's inner half that must be ink for a mark (a tick's stroke covers 15-45 %); below EMPTY: none. */
const MARKED = 0.12;
const EMPTY = 0.045;
/** Share of the label's columns with ink both above and below the word for a ring around it. */
export const RING = 0.6;
const NO_RING = 0.25;

/**
 * A grey window of the page in the deskewed frame (one sample per page pixel), and which samples are ink. Called
 * about 2,000 times a photo page (choice-rings.ts slides a window along every short region), so the frame's
 * rotation is written out inline and paper's level is selected, not sorted for.
 */
function inkWindow(raster: Raster, frame: PageFrame, w: Span) {
  const width = Math.max(1, Math.round(w.u1 - w.u0));
  const height = Math.max(1, Math.round(w.v1 - w.v0));
  const grey = new Float32Array(width * height);
  const { cos, sin } = frame;
  const { width: rw, height: rh, data } = raster;
  for (let j = 0; j < height; j++) {
    const v = w.v0 + j;
    for (let i = 0; i < width; i++) {
      const u = w.u0 + i;
      // fromFrame (text-regions.ts), the same arithmetic.
      const px = Math.round(u * cos - v * sin);
      const py = Math.round(u * sin + v * cos);
      if (px < 0 || py < 0 || px >= rw || py >= rh) {
        grey[j * width + i] = 255;
        continue;
      }
      const k = (py * rw + px) * 3;
      grey[j * width + i] = 0.299 * data[k]! + 0.587 * data[k + 1]! + 0.114 * data[k + 2]!;
    }
  }
  // Paper is the bright end of the window (photos are shaded unevenly, so relative to the window, not the page).
  const paper = nthSmallest(Float32Array.from(grey), Math.floor(grey.length * 0.9));
  const ink = new Uint8Array(width * height);
  for (let k = 0; k < grey.length; k++) ink[k] = grey[k]! < paper * 0.6 ? 1 : 0;
  return { ink, width, height };
}

/** The value at index n of `values` sorted ascending (Hoare's selection; reorders `values`). */
export function nthSmallest(values: Float32Array, n: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (n <= j) hi = j;
    else if (n >= i) lo = i;
    else return values[n]!;
  }
  return values[n]!;
}

type Component = { i0: number; i1: number; j0: number; j1: number };

function components(ink: Uint8Array, width: number, height: number): Component[] {
  const seen = new Uint8Array(ink.length);
  const out: Component[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    const c = { i0: width, i1: -1, j0: height, j1: -1 };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const k = stack.pop()!;
      const i = k % width;
      const j = (k - i) / width;
      c.i0 = Math.min(c.i0, i);
      c.i1 = Math.max(c.i1, i);
      c.j0 = Math.min(c.j0, j);
      c.j1 = Math.max(c.j1, j);
      for (const [di, dj] of [
        [1, 0],
        [-1, 0],
        [0, 1],
        [0, -1],
      ] as const) {
        const ni = i + di;
        const nj = j + dj;
        if (ni < 0 || nj < 0 || ni >= width || nj >= height) continue;
        const n = nj * width + ni;
        if (ink[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    out.push(c);
  }
  return out;
}

/**
 * The box left of the label: the tall ink shapes within about one and a half text heights of the label's start
 * (the two halves of "[ ]" together), and how much of its inner half is ink. Null when there is no box there.
 */
export function boxFill(raster: Raster, frame: PageFrame, label: Span): number | null {
  const h = label.v1 - label.v0;
  const vc = (label.v0 + label.v1) / 2;
  const win = { u0: label.u0 - 1.6 * h, u1: label.u0, v0: vc - 0.9 * h, v1: vc + 0.9 * h };
  const { ink, width, height } = inkWindow(raster, frame, win);
  const tall = components(ink, width, height).filter((c) => {
    const ch = c.j1 - c.j0 + 1;
    return ch >= 0.4 * h && ch <= 1.5 * h && c.i1 - c.i0 + 1 <= 1.5 * h;
  });
  if (tall.length === 0) return null;
  // The shape nearest the label, and any other tall shape within a box's width left of it.
  const right = Math.max(...tall.map((c) => c.i1));
  const box = tall
    .filter((c) => c.i0 >= right - 1.1 * h)
    .reduce((a, c) => ({
      i0: Math.min(a.i0, c.i0),
      i1: Math.max(a.i1, c.i1),
      j0: Math.min(a.j0, c.j0),
      j1: Math.max(a.j1, c.j1),
    }));
  const bw = box.i1 - box.i0 + 1;
  const bh = box.j1 - box.j0 + 1;
  if (bw < 0.3 * h || bw > 1.5 * h) return null;
  let dark = 0;
  let area = 0;
  for (let j = Math.round(box.j0 + bh / 4); j <= box.j1 - bh / 4; j++) {
    for (let i = Math.round(box.i0 + bw / 4); i <= box.i1 - bw / 4; i++) {
      dark += ink[j * width + i]!;
      area++;
    }
  }
  return area > 0 ? dark / area : null;
}

/** Share of a row's ink, over a window RULE_REACH heights wider on each side, for the row to be a printed rule. */
const RULE_ROW = 0.8;
const RULE_REACH = 1.5;

/** The rows of ringAround's windows on one line (`line`: the word's span; all its windows share its rows). */
export type RuledLine = (u0: number, u1: number) => Uint8Array;

/**
 * The printed rules running along a line (a grid cell's top and bottom lines), for ringAround's windows on it between
 * `from` and `to`: a row is a rule where its ink covers RULE_ROW of the window RULE_REACH heights wider each side (a
 * pen's ring, about one letter wide, never covers that much of a row); a row next to a rule row with ink across half
 * of it is the same rule, tilted a pixel. The line's ink is taken once, not per window (they are ~2,000 a page).
 */
export function ruledLine(raster: Raster, frame: PageFrame, line: Span, from: number, to: number): RuledLine {
  const h = line.v1 - line.v0;
  const vc = (line.v0 + line.v1) / 2;
  const u0 = from - RULE_REACH * h;
  const strip = inkWindow(raster, frame, { u0, u1: to + RULE_REACH * h, v0: vc - 0.9 * h, v1: vc + 0.9 * h });
  // Ink counts along each row, cumulated: a window's share of a row is one subtraction.
  const sums = new Uint32Array(strip.height * (strip.width + 1));
  for (let j = 0; j < strip.height; j++) {
    const row = j * (strip.width + 1);
    for (let i = 0; i < strip.width; i++) sums[row + i + 1] = sums[row + i]! + strip.ink[j * strip.width + i]!;
  }
  return (wu0, wu1) => {
    const i0 = Math.max(0, Math.round(wu0 - RULE_REACH * h - u0));
    const i1 = Math.min(strip.width, Math.round(wu1 + RULE_REACH * h - u0));
    const share = new Float32Array(strip.height);
    for (let j = 0; j < strip.height; j++) {
      const row = j * (strip.width + 1);
      share[j] = i1 > i0 ? (sums[row + i1]! - sums[row + i0]!) / (i1 - i0) : 0;
    }
    const rule = new Uint8Array(strip.height);
    for (let j = 0; j < strip.height; j++) {
      const near = Math.max(share[j - 1] ?? 0, share[j + 1] ?? 0);
      if (share[j]! >= RULE_ROW || (share[j]! >= RULE_ROW / 2 && near >= RULE_ROW)) rule[j] = 1;
    }
    return rule;
  };
}

/**
 * Share of the word's middle columns with ink both in a band above the word and in one below it (a ring). With
 * `ruled` (the line's rules, ruledLine), a printed rule across the window (the word inside a grid cell, its lines
 * close above and below) is no ink: otherwise every column along the cell reads ringed and the pen's ring in it
 * cannot be told.
 */
export function ringAround(raster: Raster, frame: PageFrame, label: Span, ruled?: RuledLine): number {
  const h = label.v1 - label.v0;
  const vc = (label.v0 + label.v1) / 2;
  const w = label.u1 - label.u0;
  const win = { u0: label.u0 + 0.2 * w, u1: label.u1 - 0.2 * w, v0: vc - 0.9 * h, v1: vc + 0.9 * h };
  const { ink, width, height } = inkWindow(raster, frame, win);
  const rule = ruled?.(win.u0, win.u1) ?? null;
  const band = (from: number, to: number, i: number) => {
    for (let j = Math.round(from); j < Math.round(to); j++) if (ink[j * width + i] && !rule?.[j]) return true;
    return false;
  };
  const inCell = rule?.includes(1) ?? false;
  let both = 0;
  for (let i = 0; i < width; i++) {
    // The word's own ascenders and descenders stay within about 0.4 of the region's height from its middle.
    if (band(0, 0.42 * h, i) && band(height - 0.42 * h, height, i)) both++;
    else if (inCell && arcsApart(ink, rule!, width, height, i, h)) both++;
  }
  return width > 0 ? both / width : 0;
}

/** How far from the middle (in region heights) a ring's arc in a grid cell reaches at least. */
const CELL_ARC = 0.3;

/**
 * In a grid cell the text detector's box is the cell's inside, and a pen ring in it fills that box: the ring's top and
 * bottom lie within the bands ringAround looks at. A column is still ringed when its topmost and bottommost ink
 * (rules aside) are two runs apart, neither reaching the middle, at least CELL_ARC heights out: the ring's arcs, with
 * paper between them and any letter inside. A letter's own stroke down a column is one run through the middle.
 */
function arcsApart(ink: Uint8Array, rule: Uint8Array, width: number, height: number, i: number, h: number): boolean {
  const at = (j: number) => ink[j * width + i] === 1 && rule[j] !== 1;
  const mid = Math.round(height / 2);
  let top = 0;
  while (top < height && !at(top)) top++;
  let bottom = height - 1;
  while (bottom >= 0 && !at(bottom)) bottom--;
  if (top > mid - CELL_ARC * h || bottom < mid + CELL_ARC * h) return false;
  let topEnd = top;
  while (topEnd + 1 < height && at(topEnd + 1)) topEnd++;
  let bottomStart = bottom;
  while (bottomStart - 1 >= 0 && at(bottomStart - 1)) bottomStart--;
  return topEnd < mid && bottomStart > mid;
}

/** The mark at one label, from its box and from a ring around the word. */
export function checkMark(raster: Raster, frame: PageFrame, label: Span): CheckMark {
  const fill = boxFill(raster, frame, label);
  const ring = ringAround(raster, frame, label);
  if (fill !== null && fill >= MARKED) return { state: "marked", confidence: Math.min(0.97, 0.7 + fill), how: "box" };
  if (ring >= RING) return { state: "marked", confidence: Math.min(0.95, 0.5 + ring / 2), how: "circled" };
  if (fill === null) return { state: "unclear", confidence: 0, how: null };
  if (fill <= EMPTY && ring <= NO_RING) return { state: "empty", confidence: 0.9, how: null };
  return { state: "unclear", confidence: 0, how: null };
}
