/**
 * Pairs a printed label with the regions that hold its value, from the layout alone (pure: boxes in, boxes out):
 * the value written right of the label on its line (after an underline, or in the next cell of a key/value table),
 * else on the line below it (a boxed field whose label sits in the box's corner, a label over its write-on line).
 */

/** A region's extent on the deskewed page: u across, v down. */
export type Slot = { u0: number; u1: number; v0: number; v1: number };

const heightOf = (r: Slot) => r.v1 - r.v0;
const centerU = (r: Slot) => (r.u0 + r.u1) / 2;
const centerV = (r: Slot) => (r.v0 + r.v1) / 2;

/** Handwriting starts near its label and its words lie close: a longer gap is the next field of the line. */
const WORD_GAP = 6;
/**
 * The first value region may lie further from its label, as far as the next cell of a key/value table or the far
 * end of a long write-on line, as long as no other label stands between.
 */
const CELL_GAP = 25;
/** The value below a label lies within this many label heights (centre to centre). */
const BELOW_REACH = 3.6;

export type Pairing<T> = { regions: T[]; place: "right" | "below" | "none" };

/** Regions on the label's line right of it, left to right. */
function sameLineRight<T extends Slot>(label: T, regions: T[]): T[] {
  const h = heightOf(label);
  return (
    regions
      // Unclipped regions overlap their neighbours by up to about half a text height.
      .filter(
        (r) =>
          r !== label &&
          Math.abs(centerV(r) - centerV(label)) < 0.7 * h &&
          r.u0 > label.u1 - h &&
          centerU(r) > label.u1,
      )
      .sort((a, b) => a.u0 - b.u0)
  );
}

/** Following a line from `start` rightwards: the regions that continue the value, up to a gap or a label. */
function continueLine<T extends Slot>(
  start: { u1: number; h: number },
  line: T[],
  isLabel: (r: T) => boolean,
  isNoise: (r: T, line: T[]) => boolean,
  firstGap: number,
): T[] {
  const out: T[] = [];
  let right = start.u1;
  for (const r of line) {
    const gap = r.u0 - right;
    if (gap > (out.length === 0 ? firstGap : WORD_GAP) * start.h) break;
    if (isLabel(r)) break;
    if (isNoise(r, line)) continue;
    out.push(r);
    right = Math.max(right, r.u1);
  }
  return out;
}

/**
 * The value regions of `label`: right of it on its line, else on the first line below it whose left end lies under
 * the label, else (`reachFar`, a date's label) far right of it on its line (farRight). Another label in the way ends
 * the search: a label with nothing after it before the next label is an empty field, and its neighbour's value is
 * not its own.
 */
export function pairValue<T extends Slot>(
  label: T,
  regions: T[],
  isLabel: (r: T) => boolean,
  isNoise: (r: T, line: T[]) => boolean = () => false,
  reachFar = false,
): Pairing<T> {
  const h = heightOf(label);
  // A sliver between the label and its value lies under the label too.
  const noise = (r: T, line: T[]) => isNoise(r, [label, ...line]);
  const line = sameLineRight(label, regions);
  const right = continueLine({ u1: label.u1, h }, line, isLabel, noise, CELL_GAP);
  if (right.length > 0) return { regions: right, place: "right" };
  const below = linesBelow(label, regions, 1, isLabel, isNoise);
  if (below.length > 0) return { regions: below[0]!, place: "below" };
  const far = reachFar ? farRight(label, line, regions, isLabel, noise) : [];
  return far.length > 0 ? { regions: far, place: "right" } : { regions: [], place: "none" };
}

/**
 * A value written far right of its label on a long write-on line ("Date of Birth:" ........... "12/03/1961"), beyond
 * the next cell's reach, when nothing lies between them, nothing lies under the label, and the value is no other
 * label's: no label stands over it within reach (a column whose labels sit above their values).
 */
function farRight<T extends Slot>(
  label: T,
  line: T[],
  regions: T[],
  isLabel: (r: T) => boolean,
  noise: (r: T, line: T[]) => boolean,
): T[] {
  const h = heightOf(label);
  const first = line.find((r) => !noise(r, line));
  if (!first || isLabel(first)) return [];
  const overIt = regions.some(
    (r) =>
      r !== label &&
      isLabel(r) &&
      centerV(r) < first.v0 &&
      centerV(first) - centerV(r) < BELOW_REACH * h &&
      r.u0 < first.u1 &&
      r.u1 > first.u0,
  );
  if (overIt) return [];
  return continueLine({ u1: first.u0, h }, line.slice(line.indexOf(first)), isLabel, noise, 1);
}

/**
 * Up to `count` lines of text under a label (comments run over several write-on lines): each starts under the
 * label's left part and lies within reach of the line before it; a line that starts with a label ends the field.
 */
export function linesBelow<T extends Slot>(
  label: T,
  regions: T[],
  count: number,
  isLabel: (r: T) => boolean,
  isNoise: (r: T, line: T[]) => boolean = () => false,
): T[][] {
  const lines: T[][] = [];
  const h = heightOf(label);
  let above: Slot = label;
  // The next label right on the label's line starts another column: its values are not this label's.
  const columnEnd = Math.min(
    ...sameLineRight(label, regions)
      .filter(isLabel)
      .map((r) => r.u0 - 0.5 * h),
  );
  for (let k = 0; k < count; k++) {
    const reach = centerV(above) + BELOW_REACH * Math.max(h, 0.6 * heightOf(above));
    const under = regions.filter(
      (r) =>
        r !== label &&
        centerV(r) > above.v1 - 0.2 * h &&
        centerV(r) < reach &&
        r.u1 > label.u0 - h &&
        r.u0 < label.u0 + Math.max(label.u1 - label.u0, 8 * h),
    );
    if (under.length === 0) break;
    const top = Math.min(...under.map(centerV));
    const first = under.filter((r) => centerV(r) - top < 0.6 * h).sort((a, b) => a.u0 - b.u0)[0]!;
    if (isLabel(first)) break;
    // The whole line from that region rightwards, as far as its words run.
    const line = regions
      .filter(
        (r) =>
          r !== label &&
          Math.abs(centerV(r) - centerV(first)) < 0.6 * heightOf(first) &&
          r.u0 >= first.u0 &&
          r.u0 < columnEnd,
      )
      .sort((a, b) => a.u0 - b.u0);
    const run = continueLine({ u1: first.u0, h: Math.max(h, heightOf(first)) }, line, isLabel, isNoise, 1);
    if (run.length === 0) break;
    lines.push(run);
    above = {
      u0: Math.min(...run.map((r) => r.u0)),
      u1: Math.max(...run.map((r) => r.u1)),
      v0: Math.min(...run.map((r) => r.v0)),
      v1: Math.max(...run.map((r) => r.v1)),
    };
  }
  return lines;
}
