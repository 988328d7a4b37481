import type { Raster } from "../raster";

/** A printed straight line of the form: horizontal (y fixed, x0..x1) or vertical (x fixed, y0..y1). */
export type Rule = { at: number; from: number; to: number };
export type FormRules = { horizontal: Rule[]; vertical: Rule[] };

const DARK = 140;
/** A rule is at least this share of the page's width (horizontal) or height (vertical) long. */
const MIN_LENGTH_SHARE = 0.04;
/** Ink thicker than this (pixels) is a filled area, not a rule. */
const MAX_THICKNESS = 8;
/** Gaps a printed line may have (anti-aliasing, scan noise). */
const MAX_GAP = 3;

/**
 * Finds the ruled lines of a blank form (underlines, boxes, the table grid) as runs of dark pixels along rows
 * and columns, merged across the few rows a line is thick. Meant for the blank form the clinic uploads (a scan or
 * a straight photo): a line skewed by more than its thickness over its length splits into pieces.
 */
export function findRules(raster: Raster): FormRules {
  const { width, height, data } = raster;
  const dark = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < dark.length; i++, p += 3) {
    dark[i] = (data[p]! * 299 + data[p + 1]! * 587 + data[p + 2]! * 114) / 1000 < DARK ? 1 : 0;
  }
  const runsAlong = (count: number, length: number, at: (line: number, k: number) => number) => {
    const min = MIN_LENGTH_SHARE * length;
    const runs: Rule[] = [];
    for (let line = 0; line < count; line++) {
      let start = -1;
      let gap = 0;
      for (let k = 0; k <= length; k++) {
        const on = k < length && dark[at(line, k)] === 1;
        if (on) {
          if (start < 0) start = k;
          gap = 0;
        } else if (start >= 0 && (++gap > MAX_GAP || k === length)) {
          const end = k - gap;
          if (end - start + 1 >= min) runs.push({ at: line, from: start, to: end });
          start = -1;
          gap = 0;
        }
      }
    }
    return mergeRuns(runs);
  };
  return {
    horizontal: runsAlong(height, width, (y, x) => y * width + x),
    vertical: runsAlong(width, height, (x, y) => y * width + x),
  };
}

/** Runs on neighbouring rows that overlap are one line; a line thicker than MAX_THICKNESS is not a rule. */
function mergeRuns(runs: Rule[]): Rule[] {
  type Open = { first: number; last: number; from: number; to: number };
  let open: Open[] = [];
  const closed: Open[] = [];
  for (const r of runs) {
    if (open.some((o) => r.at - o.last > 1)) {
      closed.push(...open.filter((o) => r.at - o.last > 1));
      open = open.filter((o) => r.at - o.last <= 1);
    }
    const hit = open.find((o) => r.at - o.last <= 1 && r.from <= o.to && r.to >= o.from);
    if (hit) {
      hit.last = r.at;
      hit.from = Math.min(hit.from, r.from);
      hit.to = Math.max(hit.to, r.to);
    } else open.push({ first: r.at, last: r.at, from: r.from, to: r.to });
  }
  const done: Rule[] = [];
  for (const o of [...closed, ...open]) {
    if (o.last - o.first + 1 <= MAX_THICKNESS) done.push({ at: (o.first + o.last) / 2, from: o.from, to: o.to });
  }
  return done.sort((a, b) => a.at - b.at || a.from - b.from);
}
