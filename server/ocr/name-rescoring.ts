import { constrainedDecode } from "./ctc-constrained";
import type { DecodedChar } from "./ctc-decode";
import { labelLogProb } from "./ctc-forward";
import { Grammar } from "./ctc-grammar";
import { BROAD_ONLY_RANK, type NameLexicon } from "./name-lexicon";
import type { CharMatrix } from "./text-recognizer";

/** One written word of a name and the recogniser steps it was read from (its characters' own, when known). */
export type NameWord = { text: string; matrix: CharMatrix; from: number; to: number; chars?: DecodedChar[] };

/**
 * How much less likely than the raw reading (natural log) a dictionary name may be and still be taken as what the
 * recogniser saw: such a replacement keeps the confidence its competitors leave it.
 */
const SEEN_MARGIN = Math.log(20);
/**
 * Beyond this (1/1000 of the reading's probability) the recogniser did not see the name, however common. Between
 * the two margins the census carries the choice more than the image does (a scrawled "Jacksou" is Jackson), so the
 * name is taken but shown for checking; only for a reading that is no name, or a name read without confidence
 * (CONFIDENT_CHAR): a rare name read clearly ("ANDERSSON") is the patient's, not a misread "ANDERSON".
 */
const PLAUSIBLE_MARGIN = Math.log(1000);
/**
 * A reading the recogniser gave at least this probability a character (geometric mean over the word, all
 * alignments) is confident: when it is a listed name, only a name within SEEN_MARGIN may replace it.
 */
const CONFIDENT_CHAR = 0.5;
/**
 * A word read plainly: at least this probability a character (geometric mean over the word, all alignments), as
 * clean print reads. Such a reading is what is written: no lexicon name replaces it, however common and however
 * close ("LINDQVIST" is no misread "LINDQUIST"; a rare spelling is the patient's own). Handwriting the recogniser is
 * this sure of is as plain.
 */
const PLAIN_CHAR = 0.95;
/**
 * The same bound for a reading no list knows ("Thompon", "MOKKIS"): it is no name as written, so a close common
 * name the recogniser gave 1/100,000 of its probability is the better guess, still shown for checking; only a
 * name at least as long, because handwriting loses and garbles letters far more often than it adds clear ones
 * (measured on four held-out corpora: names 75 -> 80 % on two, no change on the others).
 */
const UNKNOWN_PLAUSIBLE_MARGIN = Math.log(100_000);
/**
 * How far (edits) a dictionary name may be from the reading to be considered. Two for short words too: a short
 * reading is often a name with two letters lost or garbled ("Suh" for "Susan", "lohr" for "John"); the
 * recogniser's own probability keeps the far ones out (measured: names +1 on two of five corpora, none lost). Three
 * edits for long words lost a name on seed 11 and was not taken.
 */
const MAX_EDITS = 2;
/** Confidence factor of a name the census carried: under the screen's 0.8, so the field asks to be checked. */
const CENSUS_CARRIED_FACTOR = 0.75;
/** A name this common in the census is taken as read. */
const SURE_RANK = 2000;
/** Weight of the census frequency (log rank) against the recogniser's log probability. */
const RANK_WEIGHT = 0.75;
/** The rank given to a reading no dictionary knows: far below the rarest listed name, since most patients are. */
const UNKNOWN_RANK = 1e10;
/** A word no dictionary knows and none is close to: kept as read, but doubtful. */
const UNKNOWN_FACTOR = 0.7;

/** Writes `name` in the letter case the writer used for `like` (capitals, or an initial capital). */
function caseLike(name: string, like: string): string {
  if (name.length === like.length) {
    return [...name].map((ch, i) => (like[i] === like[i]!.toUpperCase() ? ch.toUpperCase() : ch)).join("");
  }
  const letters = like.replace(/[^A-Za-z]/g, "");
  if (letters.length > 1 && letters === letters.toUpperCase()) return name.toUpperCase();
  return name[0]!.toUpperCase() + name.slice(1);
}

/**
 * Checks a name word against the lexicon with the recogniser's own probabilities: a word in the lexicon stays;
 * otherwise the dictionary names close to it or to the recogniser's next-best reading are scored by
 * P(name | output) (CTC forward) and by their census frequency; the best replaces the reading when it scores
 * higher, and is marked doubtful when the recogniser itself preferred its reading by far. `prefix` ("O'") is read
 * with the name and kept, but not checked.
 * Returns the word and a factor for the field's confidence.
 */
export function rescoreNameWord(
  word: NameWord,
  lexicon: NameLexicon,
  prefix = "",
  suffix = "",
): { text: string; factor: number } {
  const core = word.text.slice(prefix.length, word.text.length - suffix.length);
  if (!prefix && !suffix && /^[A-Za-z]+(['-][A-Za-z]+)+$/.test(core)) return joinedName(word, lexicon);
  if (!/^[A-Za-z]{3,}$/.test(core)) return { text: word.text, factor: 1 };
  if (!prefix && !suffix) {
    const restored = apostropheName(word, lexicon);
    if (restored) return rescoreNameWord({ ...word, text: restored }, lexicon, restored.slice(0, 2));
  }
  const readRank = lexicon.rank(core);
  if (readRank <= SURE_RANK) return { text: word.text, factor: 1 };
  const known = Number.isFinite(readRank);
  const initial = !known && !prefix && !suffix ? initialRunIn(core, lexicon) : null;
  if (initial) return initial;
  const kept = { text: word.text, factor: known ? 1 : UNKNOWN_FACTOR };
  const split = () => {
    const two = twoNames(core, lexicon);
    return two ? { text: prefix + two.text + suffix, factor: two.factor } : kept;
  };
  const sure = sureLetters(word, core);
  const near = candidateNames(word, core, lexicon, prefix || suffix);
  if (near.length === 0) return known ? kept : split();
  // Scored with what was read around the name ("O'" of "O'Brien", "-Jones" of "Smith-Jones").
  const logOf = (name: string) => labelLogProb(word.matrix, prefix + name + suffix, word.from, word.to);
  const readLog = logOf(core);
  if (readLog >= core.length * Math.log(PLAIN_CHAR)) return known ? kept : split();
  const confident = known && readLog >= core.length * Math.log(CONFIDENT_CHAR);
  const marginFor = (name: string) => {
    if (confident) return SEEN_MARGIN;
    return known || name.length < core.length ? PLAUSIBLE_MARGIN : UNKNOWN_PLAUSIBLE_MARGIN;
  };
  const score = (log: number, rank: number) => log - RANK_WEIGHT * Math.log(Math.min(rank, UNKNOWN_RANK));
  const scored = near
    .map((name) => ({ name, log: logOf(name), rank: lexicon.rank(name) }))
    .filter((c) => c.log >= readLog - marginFor(c.name))
    .sort((a, b) => score(b.log, b.rank) - score(a.log, a.rank));
  // Only a name that keeps the letters read surely may replace the reading; the others still share in the doubt.
  const best = scored.find((c) => keepsSureLetters(core, c.name, sure));
  const readScore = score(readLog, readRank);
  if (!best || score(best.log, best.rank) <= readScore) return known ? kept : split();
  // The replacement's share among the reading and its close names: two names almost as likely leave doubt.
  const top = score(best.log, best.rank);
  const total = Math.exp(readScore - top) + scored.reduce((s, c) => s + Math.exp(score(c.log, c.rank) - top), 0);
  const seen = best.log >= readLog - SEEN_MARGIN;
  return {
    text: prefix + caseLike(best.name, core) + suffix,
    factor: seen ? 1 / total : Math.min(1 / total, CENSUS_CARRIED_FACTOR),
  };
}

/**
 * An initial written against the surname after it ("WKAPOOR", "DR. WKaPOOR"): a capital before a capital, the
 * rest a census name, the whole no name. Without this the lexicon would take the name and drop the initial.
 */
function initialRunIn(core: string, lexicon: NameLexicon): { text: string; factor: number } | null {
  if (!/^[A-Z][A-Z][A-Za-z]{2,}$/.test(core) || lexicon.rank(core.slice(1)) >= BROAD_ONLY_RANK) return null;
  return { text: `${core[0]} ${core.slice(1)}`, factor: 1 };
}

/**
 * Two census names run together where the space was lost ("AndrewFitzgerald"), for a reading no list knows: the
 * split whose names are the most common. Each part has at least three letters.
 */
function twoNames(core: string, lexicon: NameLexicon): { text: string; factor: number } | null {
  let best: { at: number; rank: number } | null = null;
  for (let at = 3; at <= core.length - 3; at++) {
    const rank = Math.max(lexicon.rank(core.slice(0, at)), lexicon.rank(core.slice(at)));
    if (rank < BROAD_ONLY_RANK && (!best || rank < best.rank)) best = { at, rank };
  }
  return best ? { text: `${core.slice(0, best.at)} ${core.slice(best.at)}`, factor: 1 } : null;
}

/**
 * "O'Brien" and "Smith-Jones" stay as written when their parts are names; a stray stroke read as a hyphen inside
 * a name ("K-OWALSKI") is dropped when the parts are not names but the letters together are.
 */
function joinedName(word: NameWord, lexicon: NameLexicon): { text: string; factor: number } {
  const parts = word.text.split(/['-]/);
  const known = (w: string) => Number.isFinite(lexicon.rank(w));
  // "O'Brien", "D'Angelo": a single letter before an apostrophe is a prefix, not a stray stroke.
  const prefix = (p: string, i: number) => i === 0 && p.length === 1 && word.text[1] === "'";
  if (parts.every((p, i) => prefix(p, i) || (p.length >= 2 && known(p)))) return { text: word.text, factor: 1 };
  // "O'BRJEN": the name after the prefix is checked like any other, with the prefix kept.
  if (parts.length === 2 && prefix(parts[0]!, 0)) return rescoreNameWord(word, lexicon, word.text.slice(0, 2));
  const joined = parts.join("");
  if (known(joined)) return rescoreNameWord({ ...word, text: joined }, lexicon);
  // "Dubois-Sanchcz": each part checked like any other name, with the hyphen and the other part kept as read.
  // Only across a hyphen: before an apostrophe stands a prefix or a title run into one ("DrO'Neill"), no name.
  const separator = word.text[parts[0]!.length]!;
  if (parts.length !== 2 || separator !== "-" || parts.some((p) => p.length < 3)) {
    return { text: word.text, factor: UNKNOWN_FACTOR };
  }
  const first = rescoreNameWord(word, lexicon, "", separator + parts[1]);
  const second = rescoreNameWord(
    { ...word, text: first.text },
    lexicon,
    first.text.slice(0, first.text.indexOf(separator) + 1),
  );
  return { text: second.text, factor: Math.min(first.factor, second.factor) };
}

/**
 * "OBRIEN" for "O'BRIEN": the census writes such names without their apostrophe, so a reading of O or D before a
 * listed name gets its apostrophe back when the recogniser gave the apostrophe real probability (SEEN_MARGIN) where
 * it belongs. A name read without any trace of one ("OWEN") stays as read.
 */
function apostropheName(word: NameWord, lexicon: NameLexicon): string | null {
  const match = /^([OoDd])([A-Za-z]{3,})$/.exec(word.text);
  if (!match || !Number.isFinite(lexicon.rank(match[2]!))) return null;
  const withApostrophe = `${match[1]}'${match[2]}`;
  const log = labelLogProb(word.matrix, withApostrophe, word.from, word.to);
  return log >= labelLogProb(word.matrix, word.text, word.from, word.to) - SEEN_MARGIN ? withApostrophe : null;
}

const LETTERS = new Grammar([[{ chars: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min: 1, max: 40 }]]);

/**
 * A letter the recogniser read at least this surely is written: a listed name that changes or drops it is not what
 * the page shows ("Lindqvist", its v read at 0.95, is no misread "Lindquist"; "ANDERSSON" no "ANDERSON").
 */
const SURE_LETTER = 0.9;

/** Which of the reading's letters were read surely, or null when the word's characters do not spell it. */
function sureLetters(word: NameWord, core: string): boolean[] | null {
  const letters = (word.chars ?? []).filter((c) => /[A-Za-z]/.test(c.char));
  const tail = letters.slice(letters.length - core.length);
  if (tail.length !== core.length || tail.map((c) => c.char).join("") !== core) return null;
  return tail.map((c) => c.prob >= SURE_LETTER);
}

/**
 * Whether `name` is reached from the reading by editing only letters read without certainty (adding letters is
 * free: handwriting loses them), in at most one edit more than MAX_EDITS (a name near the next-best reading).
 */
function keepsSureLetters(core: string, name: string, sure: boolean[] | null): boolean {
  if (!sure) return true;
  const a = core.toLowerCase();
  const b = name.toLowerCase();
  const limit = MAX_EDITS + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [sure[i - 1] ? Number.POSITIVE_INFINITY : row[0]! + 1];
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1];
      next.push(
        Math.min(
          same ? row[j - 1]! : sure[i - 1] ? Number.POSITIVE_INFINITY : row[j - 1]! + 1,
          sure[i - 1] ? Number.POSITIVE_INFINITY : row[j]! + 1,
          next[j - 1]! + 1,
        ),
      );
    }
    row = next;
  }
  return row[b.length]! <= limit;
}

/**
 * The dictionary names near the reading and near the recogniser's next-best reading of the same steps (letters
 * only): a name can be three edits from what was read and two from what was nearly read ("fayon", next "faylon",
 * for "Taylor"). Measured on five corpora: names +5 points on one, none lost; two or three next readings brought
 * in wrong names.
 */
function candidateNames(word: NameWord, core: string, lexicon: NameLexicon, context: string): string[] {
  const read = core.toLowerCase();
  const readings = [read];
  if (!context) {
    const { candidates } = constrainedDecode(word.matrix, LETTERS, { from: word.from, to: word.to, beam: 8, nbest: 2 });
    const next = candidates.map((c) => c.text.toLowerCase()).find((text) => text !== read);
    if (next) readings.push(next);
  }
  const names = new Set(readings.flatMap((r) => lexicon.near(r, MAX_EDITS)));
  if (readings[1] && lexicon.has(readings[1])) names.add(readings[1]);
  names.delete(read);
  return [...names];
}

/** Particles that begin a name ("de Souza", "van Dyke"): never a stray fragment of the label or the dotted line. */
const PARTICLES = new Set([
  "de",
  "da",
  "di",
  "du",
  "la",
  "le",
  "el",
  "al",
  "y",
  "van",
  "von",
  "ten",
  "ter",
  "dos",
  "das",
]);

/**
 * Mends the words of a name line before each is checked: a name split in two by a gap ("WIL SON") is joined, and a
 * stray fragment read from the label or the dotted line before the name ("e WILSON", "PO MARGARET L. LEWIS") is
 * dropped. When unsure the words stay as read: a rule never adds letters of its own.
 */
export function mendNameWords(words: NameWord[], lexicon: NameLexicon): NameWord[] {
  return joinSplitNames(dropLeadingFragment(words, lexicon), lexicon);
}

const letters = (w: NameWord) => /^[A-Za-z]+$/.test(w.text);

/**
 * A first word of one or two letters, with no point of its own, before at least two more words: the label's last
 * letters ("Name" read as "e") or a leader's points read as letters. Dropped only when it cannot be a word of the
 * name: a small letter or two before a capitalised word (an initial is a capital), a capital before a surname that
 * ends with its comma or point ("O MCDONALD. BEATRICE": in Last, First order no initial comes first) and is no
 * O' name, or two capitals no common name before a listed name.
 */
function dropLeadingFragment(words: NameWord[], lexicon: NameLexicon): NameWord[] {
  const [first, next] = words;
  if (!first || !next || words.length < 3 || !/^[A-Za-z]{1,2}$/.test(first.text)) return words;
  if (PARTICLES.has(first.text.toLowerCase())) return words;
  const nextCore = next.text.replace(/[^A-Za-z]/g, "");
  const fragment = first.text;
  const stray =
    (/^[a-z]+$/.test(fragment) && /^[A-Z]/.test(next.text)) ||
    (/^[A-Z]$/.test(fragment) && /^[A-Za-z]{2,}[,.]$/.test(next.text) && !lexicon.has(fragment + nextCore)) ||
    (/^[A-Z]{2}$/.test(fragment) &&
      lexicon.rank(fragment) > SURE_RANK &&
      nextCore.length >= 3 &&
      lexicon.rank(nextCore) < BROAD_ONLY_RANK);
  return stray ? words.slice(1) : words;
}

/**
 * Two neighbouring words of letters joined when the join is a census name more common than either piece, as read
 * ("WIL SON" -> WILSON) or as the lexicon reads it ("OKA OR" -> OKAFOR): a name cut where the recogniser saw a gap.
 * Two real names side by side ("ANN MARIE", "KIM LEE") are each more common than any join of theirs. The line keeps
 * at least two words, and a word before a comma or point is not joined across it.
 */
function joinSplitNames(words: NameWord[], lexicon: NameLexicon): NameWord[] {
  const out = [...words];
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]!;
    const b = out[i + 1]!;
    if (out.length <= 2 || a.matrix !== b.matrix || !letters(a) || a.text.length < 2) continue;
    const bCore = /^([A-Za-z]{2,})[,.]?$/.exec(b.text)?.[1];
    if (!bCore) continue;
    const joined: NameWord = { text: a.text + b.text, matrix: a.matrix, from: a.from, to: b.to };
    const read = rescoreNameWord({ ...joined, text: a.text + bCore }, lexicon).text;
    const rank = lexicon.rank(read);
    if (rank >= BROAD_ONLY_RANK || rank >= lexicon.rank(a.text) || rank >= lexicon.rank(bCore)) continue;
    out.splice(i, 2, joined);
  }
  return out;
}
