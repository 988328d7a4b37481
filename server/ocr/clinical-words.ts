import { clinicalWords, vesselAbbreviations } from "../../domain/vocabulary/clinical-words";
import { labelLogProb } from "./ctc-forward";
import { editDistance } from "./name-lexicon";
import type { NameWord } from "./name-rescoring";

/**
 * Free text of a worksheet (indication, comments) checked word by word against the clinical vocabulary
 * (domain/vocabulary/clinical-words.ts) with the recogniser's own probabilities, as names are checked against the
 * census: a handwritten "plaqve", "stenesis" or "TORTVOUS" is the listed word when the recogniser gave that word
 * real probability over the same steps. A word read plainly, a listed word, and a word with no listed word close to
 * it stay as read: the rule never writes a word the image does not support.
 */

/**
 * How much less likely than the reading (natural log) a listed word may be and still be taken: the recogniser saw
 * it, at 1/1000 of its first choice. Handwritten free text has no census to carry a choice further.
 */
const SEEN_MARGIN = Math.log(1000);
/** Within this margin (1/20) the listed word was nearly the recogniser's choice: taken with no doubt added. */
const SURE_MARGIN = Math.log(20);
/** Confidence factor of a word taken between the two margins: under the screen's 0.8, so it is checked. */
const DOUBTFUL_FACTOR = 0.75;
/**
 * A run of this many characters or fewer has many listed neighbours ("OP": or, of, on, up): only a word the
 * recogniser nearly chose (SURE_MARGIN) is taken for it.
 */
const SHORT = 3;
/** A run read at this probability a character (geometric mean, all alignments) is what is written. */
const PLAIN_CHAR = 0.95;

/**
 * A listed word in the case the writer used for what it replaces: capitals ("VENS": VEINS), an initial capital
 * ("Syhcope": Syncope), else small letters. A letter case mixed by misreading ("aCHINGI") counts by its majority.
 */
function caseLike(word: string, like: string): string {
  const letters = like.replace(/[^A-Za-z]/g, "");
  const capitals = letters.replace(/[^A-Z]/g, "").length;
  if (letters.length > 1 && capitals > letters.length / 2) return word.toUpperCase();
  return /^[A-Z]/.test(letters) ? word[0]!.toUpperCase() + word.slice(1) : word;
}

/** A word as written: its letters and the recogniser steps [from, to) they were read from. */
type Run = { text: string; from: number; to: number; matrix: NameWord["matrix"]; joins?: Run[] };

const listed = (w: string) => clinicalWords.has(w.toLowerCase());
const letterCount = (w: string) => w.replace(/[^A-Za-z]/g, "").length;

/**
 * A run that is listed words as written: one word, or two of at least three letters run together ("legswelling"),
 * or a side against a vessel ("RICA" is R and ICA). Two letters against a word are more often a misread one
 * ("LEGIS" is no "leg is").
 */
function knownAsRead(text: string): boolean {
  const w = text.toLowerCase();
  if (listed(w)) return true;
  if (/^[rl]/.test(w) && listed(w.slice(1)) && w.length >= 3) return true;
  for (let at = 3; at <= w.length - 3; at++) if (listed(w.slice(0, at)) && listed(w.slice(at))) return true;
  return false;
}

/**
 * Listed words (or two run together, spaced) the run may be: within two edits (one for a run of three characters
 * or fewer, whose neighbours are many). A run holding a digit is the word only letter for letter ("1CA" for ICA,
 * "LE6S" for LEGS): a digit is never dropped ("GSV7" is no misread "GSV").
 */
function candidates(text: string): Candidate[] {
  const w = text.toLowerCase();
  const digits = /\d/.test(w);
  const short = w.length <= SHORT;
  const maxEdits = short ? 1 : 2;
  const out: Candidate[] = [];
  for (const word of clinicalWords) {
    if (word.length < 2 || Math.abs(word.length - w.length) > maxEdits) continue;
    // A short run loses no letter: "POP" is no misread "op".
    if (short && word.length < w.length) continue;
    // Two edits change half of a word of four letters: a short word is taken one edit from the run at most ("ppig", a
    // garbled "mapping", is no "sig" nor "pain").
    const max = Math.min(word.length, w.length) <= 4 ? 1 : maxEdits;
    const edits = digits ? lettersForDigits(w, word, max) : editDistance(w, word, max);
    if (edits <= max) out.push({ words: [word], like: [text], edits });
  }
  if (digits) return out;
  // A letter before a vessel's abbreviation is a side, or what is left of one ("LGISV": L GSV, "KGSV"): kept.
  for (const abbreviation of [w.slice(1), ...near(w.slice(1), 1, 3)]) {
    if (w.length >= 3 && vesselAbbreviations.has(abbreviation)) {
      out.push({ words: [w[0]!, abbreviation], like: [text[0]!, text.slice(1)], edits: 0 });
    }
  }
  // Two words run together, one of them misread by a letter ("legsweling"); the misread one long, since a short word
  // has many neighbours.
  if (w.length >= 7) {
    for (let at = 3; at <= w.length - 3; at++) {
      const [a, b] = [w.slice(0, at), w.slice(at)];
      const like = [text.slice(0, at), text.slice(at)];
      // The misread word lost or changed a letter, it gained none: a letter more at the join is a word of its own
      // ("refluxa SFJ" is no "reflux SFJ": the "a" of "at").
      const grown = (part: string) => near(part, 1).filter((c) => c.length >= part.length);
      for (const c of listed(a) ? grown(b) : []) out.push({ words: [a, c], like, edits: 1 });
      for (const c of listed(b) ? grown(a) : []) out.push({ words: [c, b], like, edits: 1 });
    }
  }
  return out;
}

/**
 * A run holding a digit is a word only letter for letter ("1CA" for ICA, "LE6S" for LEGS, "TH1GH"), each digit
 * standing for a letter: the number of letters changed, or more than `max` when the word would drop or move one
 * ("relux3" is no misread "reflux": its 3 is the reflux time's).
 */
function lettersForDigits(w: string, word: string, max: number): number {
  if (word.length !== w.length) return max + 1;
  let changed = 0;
  for (let i = 0; i < w.length; i++) if (w[i] !== word[i]) changed++;
  return changed;
}

/** Listed words of at least `minLength` letters within `maxEdits` of w. */
function near(w: string, maxEdits: number, minLength = 4): string[] {
  return [...clinicalWords].filter(
    (word) =>
      word.length >= minLength &&
      Math.abs(word.length - w.length) <= maxEdits &&
      editDistance(w, word, maxEdits) <= maxEdits,
  );
}

/** Listed words for a run, each written in the case of the letters it stands for (`like`). */
type Candidate = { words: string[]; like: string[]; edits: number };

/** The run as a listed word, when the recogniser's probabilities support one; null to keep it as read. */
function rescoreRun(run: Run): { text: string; factor: number } | null {
  if (letterCount(run.text) < 2 || (run.text.match(/\d/g)?.length ?? 0) > 1 || knownAsRead(run.text)) return null;
  const readLog = labelLogProb(run.matrix, run.text, run.from, run.to);
  if (readLog >= run.text.length * Math.log(PLAIN_CHAR)) return null;
  const scored = candidates(run.text)
    .map((c) => ({ ...c, log: labelLogProb(run.matrix, c.words.join(""), run.from, run.to) }))
    .filter((c) => c.log >= readLog - (run.text.length <= SHORT ? SURE_MARGIN : SEEN_MARGIN))
    .sort((a, b) => b.log - a.log || a.edits - b.edits);
  const best = scored[0];
  if (!best) return null;
  const text = best.words.map((word, i) => caseLike(word, best.like[i]!)).join(" ");
  return { text, factor: best.log >= readLog - SURE_MARGIN ? 1 : DOUBTFUL_FACTOR };
}

/** The runs of letters and digits of a word ("RICA50-69%sdenosis": RICA50, 69, sdenosis), each with its steps. */
function runsOf(word: NameWord): Run[] {
  const chars = word.chars;
  if (!chars || chars.map((c) => c.char).join("") !== word.text) {
    return /^[A-Za-z0-9]+$/.test(word.text) ? [{ ...word }] : [];
  }
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i <= chars.length; i++) {
    const inRun = i < chars.length && /[A-Za-z0-9]/.test(chars[i]!.char);
    if (inRun && start < 0) start = i;
    if (!inRun && start >= 0) {
      runs.push({
        text: chars
          .slice(start, i)
          .map((c) => c.char)
          .join(""),
        matrix: word.matrix,
        from: start > 0 ? chars[start - 1]!.step + 1 : word.from,
        to: i < chars.length ? chars[i]!.step : word.to,
      });
      start = -1;
    }
  }
  return runs;
}

/**
 * Two neighbouring runs of letters, neither a listed word, that together are one within an edit ("sicnif icant"):
 * a word cut where the recogniser saw a gap.
 */
function joinSplitRuns(runs: Run[]): Run[] {
  const out = [...runs];
  for (let i = 0; i + 1 < out.length; i++) {
    const [a, b] = [out[i]!, out[i + 1]!];
    if (a.matrix !== b.matrix || !/^[A-Za-z]{2,}$/.test(a.text) || !/^[A-Za-z]{2,}$/.test(b.text)) continue;
    if (knownAsRead(a.text) || knownAsRead(b.text)) continue;
    const joined = (a.text + b.text).toLowerCase();
    if (!listed(joined) && near(joined, 1).length === 0) continue;
    out.splice(i, 2, { text: a.text + b.text, matrix: a.matrix, from: a.from, to: b.to, joins: [a, b] });
  }
  return out;
}

/**
 * The free text `text` (as joinPieces wrote it) with each misread word put right, from the words it was read as
 * (nameWords: each with its steps), and a factor for the field's confidence.
 */
export function checkClinicalWords(text: string, words: NameWord[]): { text: string; factor: number } {
  let out = text;
  let cursor = 0;
  let factor = 1;
  /** Puts the run's word in place of its text, found after the cursor; false when it is no listed word. */
  const place = (run: Run): boolean => {
    const parts = run.joins ?? [run];
    const start = out.indexOf(parts[0]!.text, cursor);
    if (start < 0) return true;
    let end = start + parts[0]!.text.length;
    for (const part of parts.slice(1)) {
      const at = out.indexOf(part.text, end);
      // A joined word's pieces stand side by side in the text, a space between.
      if (at < 0 || out.slice(end, at).trim() !== "") return false;
      end = at + part.text.length;
    }
    const rescored = rescoreRun(run);
    if (!rescored) {
      if (run.joins) return false;
      cursor = end;
      return true;
    }
    out = out.slice(0, start) + rescored.text + out.slice(end);
    cursor = start + rescored.text.length;
    factor = Math.min(factor, rescored.factor);
    return true;
  };
  for (const run of joinSplitRuns(words.flatMap(runsOf))) {
    // Pieces that are no listed word together are checked each on its own.
    if (!place(run)) for (const part of run.joins ?? []) place(part);
  }
  return { text: out, factor };
}
