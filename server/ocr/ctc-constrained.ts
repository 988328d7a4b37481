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

type Hyp = { text: string; state: string; blank: number; char: number };

/**
 * Prefix beam search over steps [from, to) that only grows prefixes the grammar allows, so a date keeps its
 * three groups even where greedy decoding dropped a thin "1": the search puts the digit at the step where a
 * digit was most probable. Each allowed character also takes the probability of the look-alikes the grammar
 * cannot hold ("O" in a date is a 0). Returns the n best accepted texts.
 */
export function constrainedDecode(
  m: CharMatrix,
  grammar: Grammar,
  options: { from?: number; to?: number; beam?: number; nbest?: number } = {},
): ConstrainedResult {
  const from = options.from ?? 0;
  const to = Math.min(options.to ?? m.steps, m.steps);
  const width = options.beam ?? 24;
  const alphabet = [...grammar.alphabet];
  const sources = alphabet.map((char) =>
    [char, ...(CONFUSABLE[char] ?? "")]
      .filter((c, i) => i === 0 || !alphabet.includes(c))
      .map(columnOf)
      .filter((c) => c > 0),
  );
  let beam: Hyp[] = [{ text: "", state: grammar.start, blank: 1, char: 0 }];
  // Probabilities are rescaled every step (all hypotheses by the same factor) so long strips do not underflow.
  let logScale = 0;
  let freeLogProb = 0;
  for (let t = from; t < to; t++) {
    const row = t * 96;
    let freeBest = 0;
    for (let k = 0; k < 96; k++) freeBest = Math.max(freeBest, m.probs[row + k]!);
    freeLogProb += Math.log(Math.max(freeBest, 1e-30));
    const blankP = m.probs[row]!;
    const charP = sources.map((cols) => cols.reduce((s, c) => s + m.probs[row + c]!, 0));
    const next = new Map<string, Hyp>();
    const add = (text: string, state: string, blank: number, char: number) => {
      const h = next.get(text);
      if (h) {
        h.blank += blank;
        h.char += char;
      } else next.set(text, { text, state, blank, char });
    };
    for (const h of beam) {
      const total = h.blank + h.char;
      add(h.text, h.state, total * blankP, 0);
      const last = h.text.at(-1);
      alphabet.forEach((ch, k) => {
        const p = charP[k]!;
        if (p <= 0) return;
        if (ch === last) {
          // A repeat without a blank between is the same character continuing; after a blank it is a new one.
          add(h.text, h.state, 0, h.char * p);
          if (h.blank > 0) {
            const state = grammar.step(h.state, ch);
            if (state) add(h.text + ch, state, 0, h.blank * p);
          }
          return;
        }
        const state = grammar.step(h.state, ch);
        if (state) add(h.text + ch, state, 0, total * p);
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
  const candidates = beam
    .filter((h) => grammar.accepts(h.state))
    .map((h) => ({ text: h.text, logProb: Math.log(h.blank + h.char) + logScale }))
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
