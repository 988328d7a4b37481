// Printed choices with one circled by pen ("M / F"): the pen's ring can hide its letter from the text detector, so
// the text alone may show only the OTHER letter. The page's pixels tell: where along the line a ring of ink is.
import { RING, ringAround, ruledLine } from "./check-boxes";
import { matchLabel } from "./field-labels";
import type { Raster } from "./raster";
import type { ReadRegion } from "./read-region";
import type { PageFrame } from "./text-regions";

/** A ring of ink seen on a short region's line, as the span of the line it encloses (deskewed frame). */
export type ChoiceRing = { u0: number; u1: number };

/** Regions this short (characters other than spaces) may be a printed choice or a piece of "M / F". */
const SHORT = 4;
/** How far either side of the region (in its heights) rings are looked for: the pair's other letter is there. */
const REACH = 4;
/** A ring encloses one letter: a run of ringed windows wider than this (in heights) is ruling, not a ring. */
const WIDEST = 2.5;
/** How far (in heights) the ring round the pair's other, unread, choice stands from the read one's middle. */
const NEXT_CHOICE = 3.5;

const isShort = (r: ReadRegion) => r.read.text.replace(/\s+/g, "").length <= SHORT;

/**
 * The rings along a region's line, within REACH heights of it: windows one height wide, a third of a height apart,
 * scored by check-boxes' ringAround; a run of two or more ringed windows with no ink band at both its ends (a
 * table's rules run on) and no wider than WIDEST is one ring.
 */
export function ringsBeside(raster: Raster, frame: PageFrame, region: ReadRegion): ChoiceRing[] {
  const h = region.v1 - region.v0;
  const step = h / 3;
  const from = region.u0 - REACH * h;
  const to = region.u1 + REACH * h;
  const ruled = ruledLine(raster, frame, region, from, to + h);
  const scores: number[] = [];
  for (let u = from; u < to; u += step) {
    scores.push(ringAround(raster, frame, { u0: u, u1: u + h, v0: region.v0, v1: region.v1 }, ruled));
  }
  const rings: ChoiceRing[] = [];
  let start = -1;
  for (let k = 0; k <= scores.length; k++) {
    const ringed = k < scores.length && scores[k]! >= RING;
    if (ringed && start < 0) start = k;
    if (ringed || start < 0) continue;
    const touchesEnd = start === 0 || k === scores.length;
    if (!touchesEnd && k - start >= 2 && (k - start) * step <= WIDEST * h) {
      rings.push({ u0: from + start * step, u1: from + (k - 1) * step + h });
    }
    start = -1;
  }
  return rings;
}

/**
 * A sex label's region that ends in a short value ("SEX:M", "Gender: M /"): the part after the label, where the
 * choice read stands and the pen's ring round the other, unread, stands beside it. Null for any other region.
 */
export function sexValueTail(region: ReadRegion): ReadRegion | null {
  const hit = matchLabel(region);
  if (hit?.field !== "sex") return null;
  const tail = region.read.chars.filter((c) => c.step > hit.endStep && /\S/.test(c.char));
  if (tail.length === 0 || tail.length > SHORT) return null;
  const u0 = region.u0 + (tail[0]!.step / Math.max(1, region.matrix.steps)) * (region.u1 - region.u0);
  return { ...region, u0: Math.max(region.u0, u0 - 0.25 * (region.v1 - region.v0)) };
}

/**
 * Marks the rings beside every short region of a page, and beside the value's end of a sex label's region (its rings
 * then belong to that end); called once per page while the raster is at hand.
 */
export function markChoiceRings(raster: Raster, frame: PageFrame, regions: ReadRegion[]): void {
  for (const region of regions) {
    const looked = isShort(region) ? region : sexValueTail(region);
    if (looked) region.choiceRings = ringsBeside(raster, frame, looked);
  }
}

type Sex = "male" | "female" | "other";
const LETTER_SEX: Record<string, Sex> = { m: "male", f: "female" };

/** A piece of a value: a region, from a recogniser step on (the label's own region holds the value's start). */
export type ValuePiece = { region: ReadRegion; from: number };

/** The letters a piece read from its step on, each where it lies along the line. */
function lettersOf({ region: r, from }: ValuePiece) {
  const at = (step: number) => r.u0 + ((step + 0.5) / r.matrix.steps) * (r.u1 - r.u0);
  return r.read.chars
    .filter((c) => c.step >= from && /[A-Za-z]/.test(c.char))
    .map((c) => ({ char: c.char, u: at(c.step) }));
}

/**
 * Sex from the rings on its value's line, when its pieces are printed choices or a lone letter: the one ringed
 * letter wins ("M / E" with the ring on the E: the pair's second choice, female); a ring round no read letter (its
 * letter hidden by the pen) beside a lone read choice: the pair's other one (pairedWithRing); else, or two rings: no
 * answer. The first choice may be read in the label's own region ("Gender:M" then the ringed "F"): its letters count
 * from the value's step, and its rings are those looked for at that region's value end (markChoiceRings) and beside
 * the short pieces. Undefined: the rings were not looked for or the value is a word ("Female"), and the text decides
 * as before. No ring seen: the text's answer stands.
 */
export function sexByRings(pieces: ValuePiece[], fromText: Sex | null): Sex | null | undefined {
  const valueText = (p: ValuePiece) =>
    p.region.read.chars
      .filter((c) => c.step >= p.from)
      .map((c) => c.char)
      .join("")
      .replace(/\s+/g, "");
  if (pieces.length === 0 || pieces.some((p) => valueText(p).length > SHORT)) return undefined;
  // A label's region is looked along only at its value's end (markChoiceRings): its rings are that end's.
  const looked = pieces.filter((p) => p.region.choiceRings !== undefined).map((p) => p.region);
  if (looked.length === 0 || pieces.some((p) => p.from === 0 && p.region.choiceRings === undefined)) return undefined;
  const letters = withoutSlash(pieces.flatMap(lettersOf));
  if (letters.length === 0 || letters.length > 2) return undefined;
  // The letters' height, from the value's own regions when there are: a label's region may be taller than its letters.
  const own = pieces.filter((p) => p.from === 0 && p.region.choiceRings !== undefined).map((p) => p.region);
  const h = Math.max(...(own.length ? own : looked).map((r) => r.v1 - r.v0));
  // The same ring seen from several pieces: one, by its middle. A piece much smaller than the letters (a letter
  // the pen made small, "E") looks with windows too small for the ring and sees its arcs as rings of their own.
  const rings: ChoiceRing[] = [];
  for (const ring of looked.filter((r) => r.v1 - r.v0 >= 0.75 * h).flatMap((r) => r.choiceRings!)) {
    const mid = (ring.u0 + ring.u1) / 2;
    if (!rings.some((o) => Math.abs((o.u0 + o.u1) / 2 - mid) < 0.6 * h)) rings.push(ring);
  }
  // No ring seen: the text decides (a pair answers only where the circle left a bracket, field-grammars.ts).
  if (rings.length === 0) return fromText;
  if (rings.length > 1) return null;
  const ring = rings[0]!;
  const inside = letters.filter((l) => l.u >= ring.u0 && l.u <= ring.u1);
  if (inside.length === 0 && letters.length === 1) return pairedWithRing(letters[0]!, ring, h);
  if (inside.length !== 1) return null;
  const ringed = LETTER_SEX[inside[0]!.char.toLowerCase()];
  if (ringed) return ringed;
  // The pen made the ringed letter another ("F" read "E"): of "M / F", the other choice is the plain one.
  const other = letters.find((l) => l !== inside[0]);
  const plain = other && LETTER_SEX[other.char.toLowerCase()];
  if (!plain) return null;
  const ringedSecond = inside[0]!.u > other.u;
  if (plain === "male" && ringedSecond) return "female";
  if (plain === "female" && !ringedSecond) return "male";
  return null;
}

/** "M / F" read "MIF": the slash between the two choices read as a letter I or l is no choice. */
function withoutSlash<L extends { char: string }>(letters: L[]): L[] {
  return letters.length === 3 && /^[Il]$/.test(letters[1]!.char) ? [letters[0]!, letters[2]!] : letters;
}

/**
 * One choice read plain and a ring round an unread letter beside it: of "M / F", the pen hid the other choice. Only
 * the pair's order answers ("M" then a ring after it: female; a ring before "F": male) and only when the ring stands
 * in the next choice's place (within NEXT_CHOICE heights); a ring elsewhere, or on the wrong side, gives no answer.
 */
function pairedWithRing(letter: { char: string; u: number }, ring: ChoiceRing, h: number): Sex | null {
  const read = LETTER_SEX[letter.char.toLowerCase()];
  const mid = (ring.u0 + ring.u1) / 2;
  if (Math.abs(mid - letter.u) > NEXT_CHOICE * h) return null;
  if (read === "male" && mid > letter.u) return "female";
  if (read === "female" && mid < letter.u) return "male";
  return null;
}
