import { CONFUSABLE, columnOf } from "./ctc-decode";
import type { Grammar } from "./ctc-grammar";
import type { CharMatrix } from "./text-recognizer";

/** One complete reading the grammar accepts, with the log probability of all CTC paths that collapse to it. */
export type GrammarCandidate = { text: string; logProb: number };

export type ConstrainedResult = {
  /** Best first; only texts the grammar accepts. */
  candidates: GrammarCandidate[];
  /** Log probability of the unconstrained best path: how far the grammar had to push the reading. */
  freeLogProb: number;
};

/** A hypothesis: the paths that collapse to `text` and last emitted `symbol`, ending in a blank or in it. */
type Hyp = { text: string; state: string; symbol: number; blank: number; char: number };

/**
 * Single recogniser glyphs that stand for two strokes of a field's alphabet: a continental "11" written as two
 * flagged strokes reads as one "M" or a double quote, which a one-character look-alike could only make a 1.
 */
export const CONFUSABLE_PAIRS: Record<string, string> = { "11": 'M"' };

type SourceSymbol = { text: string; columns: number[] };

/** The grammar's characters, each with its look-alikes the grammar cannot hold, then the look-alike pairs. */
function sourceSymbols(alphabet: string[]): SourceSymbol[] {
  const single = alphabet.map((char) => ({
    text: char,
    columns: [char, ...(CONFUSABLE[char] ?? "")]
      .filter((c, i) => i === 0 || !alphabet.includes(c))
      .map(columnOf)
      .filter((c) => c > 0),
  }));
  const pairs = Object.entries(CONFUSABLE_PAIRS)
    .filter(([text]) => [...text].every((c) => alphabet.includes(c)))
    .map(([text, glyphs]) => ({
      text,
      columns: [...glyphs].filter((c) => !alphabet.includes(c)).map(columnOf),
    }));
  return [...single, ...pairs];
}

/**
 * Prefix beam search over steps [from, to) that only grows prefixes the grammar allows, so a date keeps its
 * three groups even where greedy decoding dropped a thin "1": the search puts the digit at the step where a
 * digit was most probable. Each allowed character also takes the probability of the look-alikes the grammar
 * cannot hold ("O" in a date is a 0), and a look-alike pair emits both its characters ("M" in a number is 11).
 * Returns the n best accepted texts.
 */
export function constrainedDecode(
  m: CharMatrix,
  grammar: Grammar,
  options: { from?: number; to?: number; beam?: number; nbest?: number } = {},
): ConstrainedResult {
  const from = options.from ?? 0;
  const to = Math.min(options.to ?? m.steps, m.steps);
  const width = options.beam ?? 24;
  const symbols = sourceSymbols([...grammar.alphabet]);
  let beam: Hyp[] = [{ text: "", state: grammar.start, symbol: -1, blank: 1, char: 0 }];
  // Probabilities are rescaled every step (all hypotheses by the same factor) so long strips do not underflow.
  let logScale = 0;
  let freeLogProb = 0;
  for (let t = from; t < to; t++) {
    const row = t * 96;
    let freeBest = 0;
    for (let k = 0; k < 96; k++) freeBest = Math.max(freeBest, m.probs[row + k]!);
    freeLogProb += Math.log(Math.max(freeBest, 1e-30));
    const blankP = m.probs[row]!;
    const symbolP = symbols.map((s) => s.columns.reduce((sum, c) => sum + m.probs[row + c]!, 0));
    const next = new Map<string, Hyp>();
    const add = (text: string, state: string, symbol: number, blank: number, char: number) => {
      const key = `${symbol}:${text}`;
      const h = next.get(key);
      if (h) {
        h.blank += blank;
        h.char += char;
      } else next.set(key, { text, state, symbol, blank, char });
    };
    const emit = (h: Hyp, k: number, mass: number) => {
      let state: string | null = h.state;
      for (const ch of symbols[k]!.text) state = state && grammar.step(state, ch);
      if (state) add(h.text + symbols[k]!.text, state, k, 0, mass);
    };
    for (const h of beam) {
      const total = h.blank + h.char;
      add(h.text, h.state, h.symbol, total * blankP, 0);
      symbols.forEach((_, k) => {
        const p = symbolP[k]!;
        if (p <= 0) return;
        if (k === h.symbol) {
          // A repeat without a blank between is the same symbol continuing; after a blank it is a new one.
          add(h.text, h.state, h.symbol, 0, h.char * p);
          if (h.blank > 0) emit(h, k, h.blank * p);
          return;
        }
        emit(h, k, total * p);
      });
    }
    beam = [...next.values()].sort((a, b) => b.blank + b.char - (a.blank + a.char)).slice(0, width);
    const top = beam[0] ? beam[0].blank + beam[0].char : 0;
    if (top <= 0) return { candidates: [], freeLogProb };
    for (const h of beam) {
      h.blank /= top;
      h.char /= top;
    }
    logScale += Math.log(top);
  }
  // Paths that end in different symbols but read the same text are one reading.
  const byText = new Map<string, number>();
  for (const h of beam) {
    if (grammar.accepts(h.state)) byText.set(h.text, (byText.get(h.text) ?? 0) + h.blank + h.char);
  }
  const candidates = [...byText]
    .map(([text, p]) => ({ text, logProb: Math.log(p) + logScale }))
    .sort((a, b) => b.logProb - a.logProb)
    .slice(0, options.nbest ?? 8);
  return { candidates, freeLogProb };
}

/** Each candidate's share of the probability of all accepted candidates (a posterior among the readings). */
export function shares(candidates: GrammarCandidate[]): number[] {
  if (candidates.length === 0) return [];
  const top = Math.max(...candidates.map((c) => c.logProb));
  const weights = candidates.map((c) => Math.exp(c.logProb - top));
  const total = weights.reduce((s, w) => s + w, 0);
  return weights.map((w) => w / total);
}

/**
 * How well the grammar's reading fits what the recogniser saw: 1 when it is (close to) the recogniser's own best
 * path, falling with the square root of the probability ratio when characters had to be forced in or out.
 */
export function grammarFit(candidate: GrammarCandidate, freeLogProb: number): number {
  return Math.min(1, Math.exp((candidate.logProb - freeLogProb) / 2));
}

/** The rows [from, to) of several matrices one after another, a blank step between, as one matrix. */
export function joinMatrices(parts: { matrix: CharMatrix; from: number; to: number }[]): CharMatrix {
  const rows = parts.reduce((s, p) => s + Math.max(0, Math.min(p.to, p.matrix.steps) - p.from) + 1, 0);
  const probs = new Float32Array(rows * 96);
  let at = 0;
  for (const p of parts) {
    const to = Math.min(p.to, p.matrix.steps);
    if (to > p.from) probs.set(p.matrix.probs.subarray(p.from * 96, to * 96), at * 96);
    at += Math.max(0, to - p.from);
    probs[at * 96] = 1;
    at++;
  }
  return { steps: rows, probs };
}
