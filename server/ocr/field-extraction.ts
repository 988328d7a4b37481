import { type Box, type OcrField, type OcrFieldName, ocrHeaderFieldNames } from "../../domain/contracts/ocr";
import { parseWorksheetDate } from "../../domain/dates";
import { sexByRings } from "./choice-rings";
import { checkClinicalWords } from "./clinical-words";
import { joinMatrices } from "./ctc-constrained";
import { ctcDecode, type Decoded, type DecodedChar } from "./ctc-decode";
import { labelLogProb } from "./ctc-forward";
import {
  choosePatientDates,
  type DateOption,
  leadsWithDate,
  MAX_AGE_YEARS,
  poolDateOptions,
  readDateOptions,
  weighDatesByStrokes,
} from "./date-reading";
import {
  cleanName,
  joinNameParts,
  parseDateText,
  parseFreeText,
  parseMrn,
  parsePersonName,
  parseSex,
} from "./field-grammars";
import {
  joinSplitLabels,
  type LabelAlias,
  type LabelField,
  type LabelHit,
  lexiconFieldOf,
  matchLabel,
  splitMergedFields,
  unknownLabel,
} from "./field-labels";
import { linesBelow, pairValue } from "./key-value-pairing";
import { BROAD_ONLY_RANK, nameLexicon } from "./name-lexicon";
import { isNameShaped } from "./name-line";
import { mendNameWords, type NameWord, rescoreNameWord } from "./name-rescoring";
import { namedMonthShape, namesMonth, readNamedMonthDate, wordInsideDate } from "./named-month-reading";
import { centerV, groupLines, heightOf, type ReadRegion } from "./read-region";
import { BOUNDARY_FACTOR, digitAtPrefixEnd, prefixFromLabel, rereadRecordNumber } from "./record-number-reading";
import type { CharMatrix } from "./text-recognizer";
import { columnFromHeader } from "./worksheet-vocabulary";

export { matchLabel } from "./field-labels";

export type PatientFieldName = "patientName" | "patientDob" | "examDate";

const NAME_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,.'-";
const DATE_CHARS = "0123456789./-";

export type Piece = { region: ReadRegion; from: number };
/** The recogniser steps [from, to) of a matrix that hold (part of) a value. */
type Span = { matrix: CharMatrix; from: number; to: number };

/**
 * The recogniser step at page position u of a region: steps cover the strip evenly. Used to cut off the characters
 * a region shares with its right neighbour, which both regions would otherwise read.
 */
function stepAt(region: ReadRegion, u: number): number {
  const fraction = (u - region.u0) / Math.max(1, region.u1 - region.u0);
  return Math.max(0, Math.min(region.matrix.steps, Math.round(fraction * region.matrix.steps)));
}

/** Where on the page a recogniser step of a region lies (the middle of the step). */
function uAt(region: ReadRegion, step: number): number {
  return region.u0 + ((step + 0.5) / Math.max(1, region.matrix.steps)) * (region.u1 - region.u0);
}

/**
 * Where a region's own first written character lies, or null when it read none: an overlapping neighbour that read
 * characters from here on read this region's letters.
 */
function firstInkU(region: ReadRegion): number | null {
  const first = region.read.chars.find((c) => /[^\s.]/.test(c.char));
  return first ? uAt(region, first.step) : null;
}

/**
 * A date's own crop cut from its label's region (recognize-page.ts) that starts or ends inside the date's first or
 * last digit reads every digit but that one ("Date of Service: 11/06/2020" whose own crop read ":1/06/2020"): the
 * label's region, which read it whole, is read instead.
 */
export function ownCropLostDigit(label: ReadRegion, own: ReadRegion, endStep: number): boolean {
  const digits = (chars: DecodedChar[]) =>
    chars
      .map((c) => c.char)
      .join("")
      .replace(/\D/g, "");
  const whole = digits(label.read.chars.filter((c) => c.step >= endStep));
  const cut = digits(own.read.chars);
  return whole.length >= 6 && (cut === whole.slice(1) || cut === whole.slice(0, -1));
}

/**
 * The regions (or the part of the label's own region) holding a label's value: written in the label's own region
 * and on after it, else right of it or on the line(s) below it (key-value-pairing.ts).
 */
function valuePieces(label: ReadRegion, hit: LabelHit, regions: ReadRegion[], isLabel: (r: ReadRegion) => boolean) {
  const pieces: Piece[] = [];
  if (hit.endStep < label.matrix.steps - 1) {
    // A value written in the label's own region: its own reading when there is one (dates), else its steps.
    const own = label.value && !ownCropLostDigit(label, label.value, hit.endStep) ? label.value : null;
    pieces.push(own ? { region: own, from: 0 } : { region: label, from: hit.endStep });
  }
  // A date's value may stand far right of its label on a long write-on line, when its own region holds none.
  const reachFar = pieces.length === 0 && (hit.field === "patientDob" || hit.field === "examDate");
  const paired = pairValue(label, regions, isLabel, isNoiseBetween, reachFar);
  if (paired.place === "right") {
    const first = paired.regions[0]!;
    const h = heightOf(label);
    // Overlapping regions read the same letters twice: the label's tail at the start of the value ("rDr Moreau"
    // after "Referring Doctor"), or the value's head at the end of the label ("Surname:E" before "BAXTER").
    if (pieces[0]?.region === label && stepAt(label, first.u0 - 0.5 * h) <= hit.endStep) pieces.pop();
    // Where the label's own writing ends (its last letter or colon, not the dots of a leader after it): what the
    // value's region holds before there the label read ("Referring Doctor" then "rDr Moreau"); after it, the value's
    // own first letters ("Medical record no...." over the "M" of "MRN807583").
    const labelInk = label.read.chars.filter((c) => c.step <= hit.endStep && /[^\s.]/.test(c.char));
    const labelEnd = labelInk.length ? uAt(label, labelInk.at(-1)!.step) + 0.25 * h : label.u1 - 0.1 * h;
    const overlap = label.u1 - first.u0;
    pieces.push(
      ...paired.regions.map((region, i) => ({
        region,
        from:
          i === 0 && overlap > 0.3 * h && pieces.length === 0
            ? stepAt(region, Math.min(labelEnd, label.u1 - 0.1 * h))
            : 0,
      })),
    );
  } else if (pieces.length === 0 && paired.place === "below") {
    // Comments run over the write-on lines under their label.
    const lines =
      hit.field === "comments" ? linesBelow(label, regions, COMMENT_LINES, isLabel, isNoiseBetween) : [paired.regions];
    pieces.push(...lines.flat().map((region) => ({ region, from: 0 })));
  }
  return pieces;
}

/**
 * Sex printed as its choices, one circled ("M / F"): the slash and the letter after it, which pairing leaves out
 * as slivers, belong to the value, so that the choices read as choices ("M / E": no answer) and not the first
 * letter as the answer.
 */
export function withOptionList(pieces: Piece[], regions: ReadRegion[]): Piece[] {
  const last = pieces.at(-1)?.region;
  if (!last || last.read.text.trim().length > 3) return pieces;
  const h = heightOf(last);
  const beside = regions
    .filter(
      (r) =>
        !pieces.some((p) => p.region === r) &&
        Math.abs(centerV(r) - centerV(last)) < 0.7 * h &&
        r.u0 >= last.u1 - 0.2 * h &&
        r.u0 - last.u1 < 4 * h,
    )
    .sort((a, b) => a.u0 - b.u0);
  const slash = beside[0]?.read.text.trim() ?? "";
  if (!/^[/|]/.test(slash)) return pieces;
  const more = beside.slice(0, /[A-Za-z]/.test(slash) ? 1 : 2).filter((r) => r.read.text.trim().length <= 3);
  return [...pieces, ...more.map((region) => ({ region, from: 0 }))];
}

/**
 * Sex printed as choices and circled by pen is decided by the ring on the page (choice-rings.ts), not by which
 * letter the text detector happened to read: a ring round an unread letter leaves no answer, never the other one.
 */
function decideSexByRings(read: OcrField, pieces: Piece[]): void {
  const byRing = sexByRings(pieces, read.value as "male" | "female" | "other" | null);
  if (byRing === undefined || byRing === read.value) return;
  read.value = byRing;
  // A letter the text did not give is as sure as the ring; no answer has no confidence.
  read.confidence = byRing ? Math.max(read.confidence, 0.85) : 0;
}

/** Fields that name people: their values have no digits. */
const PERSON_FIELDS: ReadonlySet<LabelField> = new Set([
  "patientName",
  "surname",
  "givenName",
  "referringPhysician",
  "sonographer",
]);

/**
 * A person's name ends before a region that reads as a number or a date ("FITZGERALD, Edward" then "18/04/2020",
 * the next field's value, close on the same line): read as letters, its digits would end the name as "BO Co".
 */
export function withoutOthersNumbers(field: LabelField, pieces: Piece[]): Piece[] {
  if (!PERSON_FIELDS.has(field)) return pieces;
  const numeric = (p: Piece) => {
    const text = p.region.read.text;
    const digits = text.replace(/\D/g, "").length;
    return digits >= 2 && digits > text.replace(/[^A-Za-z]/g, "").length;
  };
  const end = pieces.findIndex((p, i) => i > 0 && p.from === 0 && numeric(p));
  return end < 0 ? pieces : pieces.slice(0, end);
}

/** How many lines of a sheet's own comments are read. */
const COMMENT_LINES = 3;

/**
 * The detector sometimes adds a small region between a label and its value, over the colon's edge or the end of
 * the underline, which reads as a stray "1", "S" or ":F". Such a sliver lies mostly under its neighbours. It is
 * often flatter than the text around it (a colon and a letter's top), so its width is judged against the text it
 * overlaps too.
 */
export function isSliver(region: ReadRegion, line: ReadRegion[]): boolean {
  const width = region.u1 - region.u0;
  const neighbours = line.filter((r) => r !== region && Math.min(r.u1, region.u1) > Math.max(r.u0, region.u0));
  const textHeight = Math.max(heightOf(region), Math.min(...neighbours.map(heightOf)));
  if (width > 2 * textHeight) return false;
  const overlaps = neighbours
    .map((r) => [Math.max(r.u0, region.u0), Math.min(r.u1, region.u1)] as const)
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let end = region.u0;
  for (const [a, b] of overlaps) {
    covered += Math.max(0, b - Math.max(a, end));
    end = Math.max(end, b);
  }
  return covered >= 0.6 * width;
}

/**
 * A region that read only a leader's marks (points, dashes, underscores, a bracket or bar at its end): the printed
 * line between a label and its value ("Gender ......  Female"), never a value of its own.
 */
export function isLeaderOnly(region: ReadRegion): boolean {
  return /^[\s.\-_=~·…:;,'"`|[\]]*[.\-_=~·…|[\]][\s.\-_=~·…:;,'"`|[\]]*$/.test(region.read.text);
}

/** What lies between a label and its value and is no part of it: a sliver over the colon, a leader's run. */
const isNoiseBetween = (region: ReadRegion, line: ReadRegion[]) => isLeaderOnly(region) || isSliver(region, line);

function unionBox(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { page: boxes[0]!.page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Probability of a space the recogniser saw but did not emit, between two decoded characters. */
const SPACE_EVIDENCE = 0.15;

/**
 * Joins decoded pieces. Handwritten words often run together in the recogniser's best path ("ThomasJackson");
 * where the space still had real probability between two characters, or the gap is much wider than the
 * others, a space is put back.
 */
function joinPieces(pieces: { decoded: Decoded; matrix: CharMatrix }[], separator: string, gapSpaces = true) {
  const texts = pieces.map(({ decoded: d, matrix }) => {
    let out = "";
    const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
    const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
    d.chars.forEach((c, i) => {
      if (i > 0 && separator === " " && c.char !== " " && out.at(-1) !== " ") {
        let space = 0;
        for (let t = d.chars[i - 1]!.step + 1; t < c.step; t++) space = Math.max(space, matrix.probs[t * 96 + 1]!);
        if (space > SPACE_EVIDENCE || (gapSpaces && gaps[i - 1]! > Math.max(4, 2.2 * typical))) out += " ";
      }
      out += c.char;
    });
    return out.trim();
  });
  const scored = pieces.filter((p) => p.decoded.chars.length).map((p) => p.decoded.confidence);
  const confidence = scored.length ? Math.min(...scored) : 0;
  return { text: texts.filter(Boolean).join(separator).replace(/\s+/g, " ").trim(), confidence };
}

/**
 * The words of a name, split where joinPieces would put a space, each with the recogniser steps it came from
 * (up to its neighbours' characters), so each word can be checked against the name lexicon.
 */
function nameWords(d: Decoded, span: Span, gapSpaces = true): NameWord[] {
  const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
  const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
  const words: DecodedChar[][] = [[]];
  d.chars.forEach((c, i) => {
    if (c.char === " ") {
      words.push([]);
      return;
    }
    // A comma or an initial's point ends a word even when no space was read ("SMITH,John", "F.Thomas").
    if (i > 0 && /[.,]/.test(d.chars[i - 1]!.char) && /[A-Za-z]/.test(c.char)) words.push([]);
    else if (i > 0 && d.chars[i - 1]!.char !== " ") {
      let space = 0;
      for (let t = d.chars[i - 1]!.step + 1; t < c.step; t++) space = Math.max(space, span.matrix.probs[t * 96 + 1]!);
      if (space > SPACE_EVIDENCE || (gapSpaces && gaps[i - 1]! > Math.max(4, 2.2 * typical))) words.push([]);
    }
    words.at(-1)!.push(c);
  });
  const nonEmpty = words.filter((w) => w.length > 0).flatMap(splitInitial);
  return nonEmpty.map((w, k) => ({
    text: w.map((c) => c.char).join(""),
    chars: w,
    matrix: span.matrix,
    from: k > 0 ? nonEmpty[k - 1]!.at(-1)!.step + 1 : span.from,
    to: k + 1 < nonEmpty.length ? nonEmpty[k + 1]![0]!.step : span.to,
  }));
}

/**
 * A middle initial written against the name before it ("MICHAELB." for "MICHAEL B.") is a word of its own when the
 * letters before it are a name and the whole is not.
 */
function splitInitial(word: DecodedChar[]): DecodedChar[][] {
  const text = word.map((c) => c.char).join("");
  if (!/^[A-Za-z]{3,}[A-Z]\.$/.test(text)) return [word];
  const lexicon = nameLexicon();
  const letters = text.slice(0, -1);
  if (lexicon.has(letters) || !lexicon.has(letters.slice(0, -1))) return [word];
  return [word.slice(0, -2), word.slice(-2)];
}

/** A title, or a title with the initial after it written against it ("DrP." of "DrP.Sullivan"). */
const TITLES = /^(?:(?:dr|prof|mr|mrs|ms|miss|mx|sir|dame)|(?:dr|mr|ms)[A-Za-z])$/i;

/** "DRCHEN" -> "DR CHEN": a title, then a listed surname, the whole no name. */
function titleRunIn(core: string): string | null {
  const match = /^([Dd][Rr])([A-Za-z]{3,})$/.exec(core);
  if (!match) return null;
  const lexicon = nameLexicon();
  if (lexicon.has(core) || lexicon.rank(match[2]!) >= BROAD_ONLY_RANK) return null;
  return `${match[1]} ${match[2]}`;
}

/**
 * "IDGeorge" -> "George": a short label word printed in capitals ("ID", "UR", "MRN") read against a capitalised name
 * word, with no space or colon between. Only a word the label lexicon knows, of two to four capitals, and only before
 * a capital and small letters, so names with two capitals ("McDonald", "DeSouza") stay whole.
 */
function labelWordRunIn(core: string): string {
  const match = /^([A-Z]{2,4})([A-Z][a-z]{2,})$/.exec(core);
  if (!match || TITLES.test(match[1]!) || lexiconFieldOf(match[1]!.toLowerCase()) === undefined) return core;
  return match[2]!;
}

/** Checks every word of a name against the lexicon (punctuation around a word is kept as written). */
function checkNameWords(decoded: Decoded[], spans: Span[], gapSpaces = true, titled = false, patient = false) {
  let factor = 1;
  const read = decoded.flatMap((d, i) => nameWords(d, spans[i]!, gapSpaces));
  // The patient's name only: split names joined, stray label letters before it dropped (name-rescoring.ts).
  const words = patient ? mendNameWords(read, nameLexicon()) : read;
  const text = words
    .map((word, k) => {
      const [, before, core, after] = /^([^A-Za-z]*)(.*?)([^A-Za-z]*)$/.exec(word.text)!;
      // A title is no name ("Prof" is not a misread "Pratt"; "DrP" is no "Dry").
      if (TITLES.test(core!)) return word.text;
      // A doctor's title run into the surname ("DRCHEN"): parted, not read as a name near it ("DECHEN").
      const runIn = titled && k === 0 ? titleRunIn(core!) : null;
      if (runIn) return before + runIn + after;
      // A short label word run into the name ("IDGeorge" of "Patient name / ID"): the label's, not the name's.
      const named = k === 0 ? labelWordRunIn(core!) : core!;
      const checked = rescoreNameWord({ ...word, text: named }, nameLexicon());
      factor = Math.min(factor, checked.factor);
      return before + checked.text + after;
    })
    .join(" ");
  return { text, factor };
}

const EMPTY: OcrField = { value: null, confidence: 0, box: null };

type DateField = "patientDob" | "examDate";
type Candidate = OcrField & { regions: ReadRegion[] };

/** The recogniser steps of each piece that hold the value: up to where the next piece on the same line starts. */
function spansOf(pieces: Piece[]): Span[] {
  return pieces.map((p, i) => {
    const next = pieces[i + 1]?.region;
    const sameLine = next && Math.abs(centerV(next) - centerV(p.region)) < 0.5 * heightOf(p.region);
    if (!sameLine) return { matrix: p.region.matrix, from: p.from, to: p.region.matrix.steps };
    // Overlapping regions both read the letters they share ("Dr S" then "Sullivan"): this one stops a little before
    // the next one's first letter.
    const nextInk = firstInkU(next);
    const cut = Math.min(
      next.u0 + 0.3 * heightOf(next),
      nextInk === null ? Number.POSITIVE_INFINITY : nextInk - 0.25 * heightOf(next),
    );
    return { matrix: p.region.matrix, from: p.from, to: Math.max(p.from, stepAt(p.region, cut)) };
  });
}

/** A patient's name (or one part of it) from its spans: decoded as letters, each word checked against the lexicon. */
function readName(spans: Span[], box: Box | null, afterLeader = false): OcrField {
  let decoded = spans.map((s) => ctcDecode(s.matrix, NAME_CHARS, s.from, s.to));
  // Written over a dotted line: words are where the points run (leaderWords), not where a gap is wider.
  const leader = afterLeader || onDottedLeader(decoded);
  const gaps = gapsPartWords(decoded);
  if (leader) decoded = decoded.map((d) => leaderWords(d, true));
  const joined = joinPieces(
    decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    " ",
    gaps,
  );
  const checked = checkNameWords(decoded, spans, gaps, false, true);
  const value = cleanName(checked.text);
  return /[A-Za-z]{2}/.test(value) ? { value, confidence: joined.confidence * checked.factor, box } : EMPTY;
}

/**
 * A value written over a dotted leader line ("Patient: ....WILSON..BEAT.RICE...") reads with the dots as points:
 * two points in a row, or points inside two words of letters.
 */
export function onDottedLeader(decoded: Decoded[]): boolean {
  return onRunOfPoints(decoded) || startsOnLeader(decoded);
}

const textOf = (decoded: Decoded[]) => decoded.map((d) => d.text).join(" ");

/** Points in a run, or inside two words of letters: the dotted line shows between and inside the words. */
const onRunOfPoints = (decoded: Decoded[]) => {
  const text = textOf(decoded);
  return /\.\s*\./.test(text) || (text.match(/[A-Za-z]{2}\.(?=[A-Za-z]{2})/g)?.length ?? 0) >= 2;
};

/**
 * A value never starts with a point: one before its first letter is the dotted line showing (".Karen.Robinson.",
 * ".UR755471."). Weaker evidence than a run of points: its words are still parted where a gap is wide too.
 */
const startsOnLeader = (decoded: Decoded[]) => /^\s*\.[A-Za-z0-9]/.test(textOf(decoded));

/** Whether wide gaps between letters part words: not over a run of points, whose dots make gaps of their own. */
const gapsPartWords = (decoded: Decoded[]) => !onRunOfPoints(decoded);

/**
 * The words of a reading over a dotted leader: a run of two or more points (the gap between two words, where the
 * line shows) parts words, and so does a point after a lone letter (an initial, kept). A single point between
 * letters parts the words of free text; in a name it is dropped ("BEAT.RICE"): names run together are parted by
 * the name lexicon (twoNames), a name cut in two would not be put back.
 */
export function leaderWords(d: Decoded, joinSingle = false): Decoded {
  const chars: DecodedChar[] = [];
  for (let i = 0; i < d.chars.length; i++) {
    const c = d.chars[i]!;
    if (c.char !== ".") {
      chars.push(c);
      continue;
    }
    let j = i;
    while (j + 1 < d.chars.length && /[.\s]/.test(d.chars[j + 1]!.char)) j++;
    const points = d.chars.slice(i, j + 1).filter((x) => x.char === ".").length;
    const before = chars.at(-1)?.char ?? " ";
    const initial = /[A-Za-z]/.test(before) && !/[A-Za-z]/.test(chars.at(-2)?.char ?? " ");
    if (initial) chars.push(c);
    const spaced = d.chars.slice(i, j + 1).some((x) => x.char === " ");
    if (
      (points >= 2 || initial || spaced || !joinSingle || twoNamesAround(chars, d.chars, j)) &&
      chars.at(-1)?.char !== " "
    ) {
      chars.push({ ...c, char: " " });
    }
    i = j;
  }
  while (chars[0]?.char === " ") chars.shift();
  return {
    ...d,
    chars,
    text: chars
      .map((c) => c.char)
      .join("")
      .trim(),
  };
}

/**
 * A single point between two words of a name over a dotted line: the gap between two names ("Karen.Robinson", in
 * print the dots show only between words) when both sides are names and the letters together are none; in a name
 * the dots showed through ("BEAT.RICE") it is dropped.
 */
function twoNamesAround(before: DecodedChar[], all: DecodedChar[], pointEnd: number): boolean {
  let k = before.length;
  while (k > 0 && /[A-Za-z]/.test(before[k - 1]!.char)) k--;
  const left = before
    .slice(k)
    .map((c) => c.char)
    .join("");
  let e = pointEnd + 1;
  while (e < all.length && /[A-Za-z]/.test(all[e]!.char)) e++;
  const right = all
    .slice(pointEnd + 1, e)
    .map((c) => c.char)
    .join("");
  if (left.length < 2 || right.length < 2) return false;
  const lexicon = nameLexicon();
  const listed = (w: string) => lexicon.rank(w) < BROAD_ONLY_RANK;
  return !lexicon.has(left + right) && listed(left) && listed(right);
}

/** A header field's text from its spans (any character), through the field's own grammar. */
function readHeaderText(
  field: (typeof ocrHeaderFieldNames)[number],
  spans: Span[],
  box: Box | null,
  afterLeader = false,
): OcrField {
  // Names of people have no digits: a handwritten "S." is read among letters only, not as "8.".
  const person = field === "referringPhysician" || field === "sonographer";
  let decoded = spans.map((s) => ctcDecode(s.matrix, person ? NAME_CHARS : undefined, s.from, s.to));
  // Over a dotted leader, points are the line's, except in a record number ("123.456").
  const leader = field !== "mrn" && (afterLeader || onDottedLeader(decoded));
  const gaps = !leader || gapsPartWords(decoded);
  if (leader) decoded = decoded.map((d) => leaderWords(d));
  const joined = joinPieces(
    decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    " ",
    gaps,
  );
  // A referrer's or sonographer's surname is checked against the name lexicon like the patient's ("Huqhes").
  const checked = person
    ? checkNameWords(decoded, spans, gaps, field === "referringPhysician")
    : field === "indication" || field === "comments"
      ? checkClinicalWords(
          joined.text,
          decoded.flatMap((d, i) => nameWords(d, spans[i]!, gaps)),
        )
      : { text: joined.text, factor: 1 };
  if (field === "referringPhysician") checked.text = referrerTitle(checked.text, joinMatrices(spans));
  const value = HEADER_GRAMMARS[field](checked.text);
  return value ? { value, confidence: joined.confidence * checked.factor, box } : { value: null, confidence: 0, box };
}

/** Titles a referrer's name starts with. */
const REFERRER_TITLE =
  /^(?:[Dd][Rr]|[Pp][Rr][Oo][Ff]|[Mm][Rr][Ss]?|[Mm][Ss]|[Mm]iss|MISS|[Mm][Xx]|Sir|SIR|Dame|DAME)(?![a-z])/;
/** How much less likely than the reading (natural log) "Dr" may be and still be taken for its garbled first word. */
const TITLE_MARGIN = Math.log(100);

/**
 * A referrer's value starts with the doctor's title more often than not, and handwriting garbles it: "Dn. H Novak",
 * "br K Osei", "DA Chen" (the "r" lost), or only its "r" left after the label ("r T Hughes"). A first word of one or
 * two letters that is no title becomes "Dr" when the recogniser gave "Dr" there at least 1/100 of its reading's
 * probability; a lone small "r" before more words is what is left of one. An initial read plainly ("D. Osei") stays.
 */
export function referrerTitle(text: string, matrix: CharMatrix): string {
  if (REFERRER_TITLE.test(text)) return text;
  // A first word of its own: a point or a space after it ("Donald" holds no "Do" to mend).
  const match = /^([A-Za-z]{1,2})(\.\s*|\s+)(?=[A-Za-z])(.*)$/.exec(text);
  if (!match) return text;
  const [, first, sep, rest] = match as unknown as [string, string, string, string];
  if (!/[A-Za-z]{2}/.test(rest)) return text;
  if (first === "r") return `Dr ${rest}`;
  if (!/^[Dd]|[rR]$/.test(first)) return text;
  const bare = (t: string) => t.replace(/\s+/g, "");
  const readLog = labelLogProb(matrix, bare(text));
  const candidates = [`Dr${sep}${rest}`];
  if (first.length === 2 && /^[Dd]/.test(first)) candidates.push(`Dr ${first[1]!.toUpperCase()}${sep}${rest}`);
  const best = candidates.map((c) => ({ c, log: labelLogProb(matrix, bare(c)) })).sort((a, b) => b.log - a.log)[0]!;
  return best.log >= readLog - TITLE_MARGIN ? best.c : text;
}

const HEADER_GRAMMARS: Record<(typeof ocrHeaderFieldNames)[number], (text: string) => string | null> = {
  indication: parseFreeText,
  comments: parseFreeText,
  referringPhysician: parsePersonName,
  sonographer: parsePersonName,
  mrn: parseMrn,
  sex: parseSex,
};

/** A read field replaces the one kept when it has a value and more confidence; a box alone marks an unread field. */
function better(current: OcrField | undefined, found: OcrField): boolean {
  if (!current) return true;
  if (found.value && (!current.value || found.confidence > current.confidence)) return true;
  return !current.value && !current.box && !!found.box;
}

export type SheetFields = Record<OcrFieldName, OcrField> & { labelTop: number | null };

/**
 * Reads the patient and header fields of a page: labels recognised by meaning (field-labels.ts), their values found
 * by layout (key-value-pairing.ts) and read with each field's grammar; dates no label claimed are placed by type.
 */
export function extractSheetFields(
  pageRegions: ReadRegion[],
  now: Date,
  aliases: readonly LabelAlias[] = [],
): SheetFields {
  const regions = joinSplitLabels(splitMergedFields(pageRegions, aliases), aliases);
  const monthFirst = pageWritesMonthFirst(regions);
  const hits = new Map<ReadRegion, LabelHit>();
  for (const region of regions) {
    const hit = matchLabel(region, aliases) ?? unknownLabel(region);
    if (hit) hits.set(region, hit);
  }
  const isLabel = (r: ReadRegion) => hits.has(r);
  // A value that starts with its field's own label word ("MRN383901" after "MRN:") is the value, not a new label.
  const sameFieldWithValue = (r: ReadRegion, field: LabelField) => {
    const hit = hits.get(r);
    return hit?.field === field && hit.endStep < r.matrix.steps - 1;
  };
  const found: Partial<Record<LabelField, Candidate>> = {};
  const dates: Record<DateField, { options: DateOption[]; box: Box | null } | null> = {
    patientDob: null,
    examDate: null,
  };
  const claimed = new Set<ReadRegion>(hits.keys());
  let labelTop: number | null = null;
  const claimedValues = new Set<ReadRegion>();
  // In reading order: a region already taken as a label's value is not a label of its own ("MRN:" then
  // "MRN383901", "UR:" then "UR 4392").
  for (const [region, hit] of [...hits].sort(([a], [b]) => readingOrder(a, b))) {
    const field = hit.field;
    if (!field || claimedValues.has(region)) continue;
    labelTop = labelTop === null ? region.v0 : Math.min(labelTop, region.v0);
    const isDate = field === "patientDob" || field === "examDate";
    // A date run into the next field's label ("7.06.2005 Sex:F") is the date's value (date-reading.ts cuts it).
    const runIntoLabel = (r: ReadRegion) => isDate && hits.get(r)?.field !== field && leadsWithDate(r.read.text);
    const paired = withoutOthersNumbers(
      field,
      valuePieces(region, hit, regions, (r) => isLabel(r) && !sameFieldWithValue(r, field) && !runIntoLabel(r)),
    );
    const pieces = field === "sex" ? withOptionList(paired, regions) : paired;
    if (pieces.length === 0) continue;
    for (const p of pieces) {
      claimed.add(p.region);
      if (p.region !== region) claimedValues.add(p.region);
    }
    const spans = spansOf(pieces);
    const box = unionBox(pieces.map((p) => p.region.box));
    if (field === "patientDob" || field === "examDate") {
      const stretched = [cropSpans(pieces, spans, (r) => r.stretched), cropSpans(pieces, spans, (r) => r.wide)];
      const options = dateOptions(
        spans,
        stretched.filter((s) => s !== null),
        now,
        cropSpans(pieces, spans, (r) => r.dateStrokes ?? undefined, false) ?? runOnStrokes(pieces),
        monthFirst,
      );
      const current = dates[field];
      if (!current || (options[0]?.confidence ?? 0) > (current.options[0]?.confidence ?? 0)) {
        dates[field] = { options, box };
      }
      continue;
    }
    const read =
      field === "patientName" || field === "surname" || field === "givenName"
        ? readName(spans, box, hit.leader)
        : readHeaderText(field, spans, box, hit.leader);
    if (field === "sex") decideSexByRings(read, pieces);
    // A record number's digits are chosen again with the digit classifier's reading of their strokes.
    if (field === "mrn" && read.value) {
      const reread = rereadRecordNumber(
        read.value,
        pieces.map((p, i) => ({ region: p.region, from: spans[i]!.from, to: spans[i]!.to })),
      );
      read.value = prefixFromLabel(reread, region.read.text);
      const mended = digitAtPrefixEnd(read.value);
      if (mended) {
        read.value = mended;
        read.confidence *= BOUNDARY_FACTOR;
      }
    }
    if (better(found[field], read)) found[field] = { ...read, regions: pieces.map((p) => p.region) };
  }

  const fields = Object.fromEntries(
    ["patientName", "patientDob", "examDate", ...ocrHeaderFieldNames].map((k) => [k, EMPTY]),
  ) as Record<OcrFieldName, OcrField>;
  for (const key of ocrHeaderFieldNames) if (found[key]) fields[key] = strip(found[key]);
  fields.patientName = found.patientName ? strip(found.patientName) : EMPTY;
  if (!fields.patientName.value && (found.surname?.value || found.givenName?.value)) {
    // A name written in two fields: "SURNAME, Given".
    const parts = [found.surname, found.givenName].filter((p) => p?.value) as Candidate[];
    fields.patientName = {
      value: joinNameParts(found.surname?.value ?? null, found.givenName?.value ?? null),
      confidence: Math.min(...parts.map((p) => p.confidence)),
      box: unionBox(parts.map((p) => p.box).filter((b): b is Box => b !== null)),
    };
  }

  const nameLabel = [...hits.values()].some(
    (h) => h.field === "patientName" || h.field === "surname" || h.field === "givenName",
  );
  if (!nameLabel) {
    fields.patientName = nameLineNearTop(regions, claimed) ?? EMPTY;
  }

  placeDatesByType(regions, claimed, dates, now, monthFirst);
  const chosen = choosePatientDates(dates.patientDob?.options ?? [], dates.examDate?.options ?? [], now);
  for (const key of ["patientDob", "examDate"] as const) {
    const pick = key === "patientDob" ? chosen.dob : chosen.exam;
    const box = dates[key]?.box ?? null;
    fields[key] = pick ? { value: pick.value, confidence: pick.confidence, box } : { value: null, confidence: 0, box };
  }
  return { ...fields, labelTop };
}

/** How far down the page an unlabelled name is looked for (share of the page's text height). */
const NAME_LINE_REACH = 0.4;

/**
 * A page with no name label at all: the one line near the top (above the table, in the top part of the page) that
 * is a name and nothing else (name-line.ts), read as a name and shown for checking. None, or two such lines (which
 * is the patient's?): no name.
 */
function nameLineNearTop(regions: ReadRegion[], claimed: Set<ReadRegion>): OcrField | null {
  const tableTop = Math.min(...regions.filter((r) => columnFromHeader(r.read.text)).map((r) => r.v0));
  const top = Math.min(...regions.map((r) => r.v0));
  const bottom = Math.max(...regions.map((r) => r.v1));
  const limit = Math.min(tableTop, top + NAME_LINE_REACH * (bottom - top));
  const candidates = groupLines(regions.filter((r) => r.v1 <= limit)).filter(
    (line) => line.every((r) => !claimed.has(r)) && isNameShaped(line.map((r) => r.read.text).join(" ")),
  );
  if (candidates.length !== 1) return null;
  const pieces = candidates[0]!.map((region) => ({ region, from: 0 }));
  const read = readName(spansOf(pieces), unionBox(pieces.map((p) => p.region.box)));
  if (!read.value || !isNameShaped(read.value)) return null;
  return { ...read, confidence: read.confidence * TYPE_ONLY_FACTOR };
}

/** Top to bottom by line, then left to right. */
function readingOrder(a: ReadRegion, b: ReadRegion): number {
  const h = Math.min(heightOf(a), heightOf(b));
  return Math.abs(centerV(a) - centerV(b)) < 0.5 * h ? a.u0 - b.u0 : centerV(a) - centerV(b);
}

const strip = ({ value, confidence, box }: Candidate): OcrField => ({ value, confidence, box });

/**
 * A region that reads as a date on its own: digits in three groups, perhaps behind a label too misread to be known
 * ("D.0.8:1995-11-16"; the date's reading starts after the colon, date-reading.ts).
 */
const DATE_SHAPE = /^(?:[^:]{1,8}:)?\D{0,2}\d{1,4}\s?[./-]\s?\d{1,2}\s?[./-]\s?\d{2,4}\D{0,2}$/;
/** A date placed by its type alone is shown for checking. */
const TYPE_ONLY_FACTOR = 0.6;

/**
 * Dates the page carries without a label that claims them (a label the lexicon does not know, or none): above the
 * measurement table, the older of two is the date of birth and the newer the exam date; a lone date fills the one
 * missing when it fits the other (an exam after the birth).
 */
function placeDatesByType(
  regions: ReadRegion[],
  claimed: Set<ReadRegion>,
  dates: Record<DateField, { options: DateOption[]; box: Box | null } | null>,
  now: Date,
  monthFirst: boolean,
) {
  const missing = (["patientDob", "examDate"] as const).filter((k) => !dates[k]?.options.length);
  if (missing.length === 0) return;
  // Dates in the table's rows are no patient's; without a table header the whole page is looked at.
  const tableTop = Math.min(...regions.filter((r) => columnFromHeader(r.read.text)).map((r) => r.v0));
  const loose = regions
    .filter((r) => !claimed.has(r) && r.v1 <= tableTop && DATE_SHAPE.test(r.read.text.trim()))
    .map((r) => {
      const strokes = r.dateStrokes ? [{ matrix: r.dateStrokes, from: 0, to: r.dateStrokes.steps }] : null;
      const options = dateOptions([{ matrix: r.matrix, from: 0, to: r.matrix.steps }], [], now, strokes, monthFirst);
      return { r, options: options.map((o) => ({ ...o, confidence: o.confidence * TYPE_ONLY_FACTOR })) };
    })
    .filter((d) => d.options.length > 0)
    .sort((a, b) => a.options[0]!.value.localeCompare(b.options[0]!.value));
  const place = (key: DateField, d: (typeof loose)[number]) => {
    dates[key] = { options: d.options, box: d.r.box };
  };
  if (missing.length === 2 && loose.length === 2) {
    place("patientDob", loose[0]!);
    place("examDate", loose[1]!);
  } else if (missing.length === 1 && loose.length === 1) {
    const known = dates[missing[0] === "patientDob" ? "examDate" : "patientDob"]!.options[0]!.value;
    const date = loose[0]!.options[0]!.value;
    if (missing[0] === "patientDob" ? date < known : date > known) place(missing[0]!, loose[0]!);
  }
}

/** The three patient fields (and the others): kept for callers that ask for the patient's. */
export const extractPatientFields = extractSheetFields;

/**
 * The same spans in another reading of each piece (a stretched crop), when every piece is a value region of its
 * own: a stretched label and value ("DOB:12/11/1996" in one region) read worse than the two unstretched (measured).
 */
function cropSpans(
  pieces: Piece[],
  spans: Span[],
  crop: (r: ReadRegion) => CharMatrix | undefined,
  scaled = true,
): Span[] | null {
  if (!pieces.every((p) => crop(p.region) && p.from === 0)) return null;
  return spans.map((s, i) => {
    const matrix = crop(pieces[i]!.region)!;
    // A matrix of other steps (the strokes' one per character) is read whole.
    if (!scaled) return { matrix, from: 0, to: matrix.steps };
    const scale = matrix.steps / s.matrix.steps;
    return { matrix, from: Math.round(s.from * scale), to: Math.round(s.to * scale) };
  });
}

/**
 * The dates the value pieces may hold: the date grammar's readings of the pieces joined, pooled with those of
 * their stretched readings; when the grammar finds no real date, the repairs of the greedy reading (lost or
 * mixed-up separators).
 */
function dateOptions(
  allSpans: Span[],
  allStretched: Span[][],
  now: Date,
  allStrokes: Span[] | null,
  monthFirst = false,
): DateOption[] {
  // An age beside the date ("08/14/1953 Age 72", "DOB/Age: ... (68y)") is no part of it: the date's spans end before
  // it (and start after "/ Age:", the label's tail); other crops of the same pieces would still hold it.
  const spans = withoutAge(allSpans);
  const trimmed = spans !== allSpans;
  const stretched = trimmed ? [] : allStretched;
  const strokes = trimmed ? null : allStrokes;
  // "03-APR-1956", "12 Nov 2026": a month written as its name, which the digit grammar would read as a number.
  const free = spans.map((s) => ctcDecode(s.matrix, undefined, s.from, s.to));
  const freeText = joinPieces(
    free.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    " ",
  );
  const named = /[A-Za-z]/.test(freeText.text) ? readNamedMonthDate(freeText.text, now) : null;
  if (named) return [{ value: named.value, confidence: freeText.confidence * (named.repaired ? REPAIRED_FACTOR : 1) }];
  // A month written by its name that could not be read is no date: its letters are not to be read as digits.
  if (namesMonth(freeText.text) || wordInsideDate(freeText.text) || namedMonthShape(freeText.text)) return [];
  if (monthFirst) return monthFirstOptions(spans, [spans, ...stretched], now);
  const readings = [spans, ...stretched].map((s) => readDateOptions(joinMatrices(s), now));
  const pooled = readings.length > 1 ? poolDateOptions(readings) : readings[0]!;
  // The digit classifier's reading of the same strokes weighs them (date-reading.ts).
  const options = strokes ? weighDatesByStrokes(pooled, joinMatrices(strokes), now) : pooled;
  if (options.length) return options;
  const decoded = spans.map((s) => ctcDecode(s.matrix, DATE_CHARS, s.from, s.to));
  const joined = joinPieces(
    decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    "",
  );
  const { value, factor } = parseDateText(joined.text, now);
  return value ? [{ value, confidence: joined.confidence * factor }] : [];
}

/**
 * The strokes of a date run into the next field's label ("7.06.2005 Sex:" then "M"): those of the date's part of
 * its strip (recognize-page.ts), the pieces after it being the other field's.
 */
function runOnStrokes(pieces: Piece[]): Span[] | null {
  const first = pieces[0]!;
  const strokes = first.region.dateStrokes;
  if (!strokes || first.from !== 0 || !leadsWithDate(first.region.read.text)) return null;
  return [{ matrix: strokes, from: 0, to: strokes.steps }];
}

/** A named-month date that needed repairs (separators, look-alike digits, the month's letters) is shown for checking. */
const REPAIRED_FACTOR = 0.6;

/** An age after a date ("Age 72", "(68y)", "68 yrs") and the label's own "/ Age:" before it, as read. */
const AGE_AFTER =
  /\s*(?:\(\s*\d{1,3}\s*(?:y|yo|yrs?|years?)?\.?\s*\)?|\bage\s*:?\s*\d{1,3}\s*(?:y|yrs?|years?)?|\d{1,3}\s*(?:y|yo|yrs?|years?)\.?)\s*$/i;
const AGE_BEFORE = /^.{0,4}?\/\s*age\s*(?:\([^)0-9]*\))?\s*:?\s*|^[\s.|-]*age\s*:?\s*/i;
/** A region that holds the age alone (")(70y)", "Age 72"), after the date's own region. */
const AGE_ALONE = /^[^0-9A-Za-z]*(?:age\s*:?\s*\d{1,3}|\d{1,3}\s*(?:y|yo|yrs?|years?))\.?[^0-9A-Za-z]*$/i;
/** A whole date with a four-digit year: numbers, or a month's name ("17 DECEMBER 2003", "Dec 17, 1963"). */
const HOLDS_DATE =
  /\d{1,2}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{4}|[A-Za-z]{3}\D{0,3}\d{1,2}\D{1,3}\d{4}|\d{1,2}\D{0,3}[A-Za-z]{3,}\D{0,3}\d{4}/;

/**
 * A piece of an age the photo's detector cut into regions of its own ("(56", "2Aqe" then "78"): age words, brackets
 * and at most three digits, no date.
 */
function isAgePart(text: string): boolean {
  const rest = text.replace(/a[gq]e|y(?:rs?|ears?|o)?|[\s().:,[\]]/gi, "");
  return /^\d{0,3}$/.test(rest) && /\d|a[gq]e/i.test(text);
}

/**
 * How many of the last spans are an age after the date: one region of the age alone, or pieces of an age after
 * regions that hold a whole date (read to their ends: an age region overlapping the date's end cuts its span).
 */
function trailingAgeSpans(spans: Span[]): number {
  const read = (s: Span, to = s.to) => ctcDecode(s.matrix, undefined, s.from, to).text;
  let k = 0;
  while (k < spans.length - 1 && isAgePart(read(spans[spans.length - 1 - k]!))) k++;
  const dateRegions = spans.slice(0, spans.length - k).map((s) => read(s, s.matrix.steps));
  if (k > 0 && HOLDS_DATE.test(dateRegions.join(" "))) return k;
  return spans.length > 1 && AGE_ALONE.test(read(spans.at(-1)!).trim()) ? 1 : 0;
}

/**
 * The spans without an age written after the date (in its region or ones of its own) or the label's "/ Age:" (and
 * its format remark) before it; the same array if none.
 */
export function withoutAge(allSpans: Span[]): Span[] {
  const decoded = (s: Span) => ctcDecode(s.matrix, undefined, s.from, s.to);
  const ageSpans = trailingAgeSpans(allSpans);
  const kept = allSpans.slice(0, allSpans.length - ageSpans);
  const spans = ageSpans ? [...kept.slice(0, -1), throughCutDigits(kept.at(-1)!)] : allSpans;
  const out = [...spans];
  const first = decoded(out[0]!);
  const before = AGE_BEFORE.exec(first.text);
  if (before && before[0].length < first.chars.length) {
    out[0] = { ...out[0]!, from: first.chars[before[0].length]!.step };
  }
  const lastIndex = out.length - 1;
  const last = decoded(out[lastIndex]!);
  const after = AGE_AFTER.exec(last.text);
  // The date must keep its digits: "12/03/1961" alone is no "age" of 61; nor is a year whose 1 was read as a bracket
  // ("21.5.(929") an age of 929.
  if (
    after &&
    Number(/\d+/.exec(after[0])![0]) <= MAX_AGE_YEARS &&
    /\d.*(?:[./\s-]|[A-Za-z]{3}).*\d/.test(last.text.slice(0, after.index))
  ) {
    out[lastIndex] = { ...out[lastIndex]!, to: last.chars[after.index]!.step };
  }
  return ageSpans || before || (after && out[lastIndex] !== spans[lastIndex]) ? out : allSpans;
}

/**
 * A date's span cut where an overlapping age region starts (spansOf) may have lost its year's last digit
 * ("05/10/195" of "05/10/1950" under ")(70y)"): with the age dropped, the span runs on over the digits that follow
 * the cut, up to the first other character (the space or bracket before the age).
 */
function throughCutDigits(span: Span): Span {
  const whole = ctcDecode(span.matrix, undefined, span.from, span.matrix.steps).chars;
  const first = whole.findIndex((c) => c.step >= span.to);
  let k = first;
  while (k >= 0 && k < whole.length && /\d/.test(whole[k]!.char)) k++;
  if (k === first) return span;
  return { ...span, to: k < whole.length ? whole[k]!.step : span.matrix.steps };
}

/** Month first ("MM/DD/YYYY" on the form, a US address): the typed digits read plainly, then as month-day-year. */
function monthFirstOptions(spans: Span[], readings: Span[][], now: Date): DateOption[] {
  const decoded = spans.map((s) => ctcDecode(s.matrix, DATE_CHARS, s.from, s.to));
  const joined = joinPieces(
    decoded.map((d, i) => ({ decoded: d, matrix: spans[i]!.matrix })),
    "",
  );
  const value = swapDayMonth(joined.text.trim(), now);
  if (value) return [{ value, confidence: joined.confidence }];
  // Otherwise the grammar's day-first readings with day and month swapped, where that is a date.
  const options = poolDateOptions(readings.map((s) => readDateOptions(joinMatrices(s), now)));
  return options.flatMap((o) => {
    const [y, m, d] = o.value.split("-");
    const swapped = parseWorksheetDate(`${y}-${d}-${m}`, now);
    return swapped ? [{ ...o, value: swapped }] : [];
  });
}

/** "08/22/2020" read month first, as ISO; null when it is not a month-first date. */
export function swapDayMonth(text: string, now: Date): string | null {
  const m = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})$/.exec(text);
  return m ? parseWorksheetDate(`${m[3]}${m[2]}${m[1]}${m[2]}${m[4]}`, now) : null;
}

/** US state codes, for an address "Springfield, IL 62704". */
const US_STATES =
  "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC";
const US_ADDRESS = new RegExp(`,\\s*(?:${US_STATES.split(" ").join("|")})\\s+\\d{5}(?:-\\d{4})?\\b`);

/**
 * Whether the page writes its dates month first: a label's format says so ("DOB (MM/DD/YYYY)"), or, when no label
 * says either way, the letterhead's address is American. A format that says day first wins.
 */
export function pageWritesMonthFirst(regions: ReadRegion[]): boolean {
  const texts = regions.map((r) => r.read.text);
  if (texts.some((t) => /\bdd\s*[./-]\s*mm\b/i.test(t))) return false;
  if (texts.some((t) => /\bmm\s*[./-]\s*dd\b/i.test(t))) return true;
  return texts.some((t) => US_ADDRESS.test(t));
}
