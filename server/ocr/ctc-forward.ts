import { columnOf } from "./ctc-decode";
import type { CharMatrix } from "./text-recognizer";

/**
 * Log probability that the recogniser's output over steps [from, to) collapses to `label` (the CTC forward
 * algorithm: the sum over every alignment, not just the best path). Letters match in either case, so
 * "JACKSON" and "Jackson" score the same: the writer's capitals are not what is being judged.
 */
export function labelLogProb(m: CharMatrix, label: string, from = 0, to = m.steps): number {
  const end = Math.min(to, m.steps);
  const columns = [...label].map((ch) =>
    [...new Set([ch.toLowerCase(), ch.toUpperCase()])].map(columnOf).filter((c) => c > 0),
  );
  // Extended label: blank, c1, blank, c2, ..., blank.
  const size = 2 * label.length + 1;
  let alpha = new Float64Array(size);
  let logScale = 0;
  const probOf = (t: number, s: number) => {
    const row = t * 96;
    if (s % 2 === 0) return m.probs[row]!;
    return columns[(s - 1) / 2]!.reduce((sum, c) => sum + m.probs[row + c]!, 0);
  };
  if (end <= from) return label.length === 0 ? 0 : Number.NEGATIVE_INFINITY;
  alpha[0] = probOf(from, 0);
  if (size > 1) alpha[1] = probOf(from, 1);
  for (let t = from + 1; t < end; t++) {
    const next = new Float64Array(size);
    let total = 0;
    for (let s = 0; s < size; s++) {
      let a = alpha[s]!;
      if (s > 0) a += alpha[s - 1]!;
      // Skipping the blank between two characters is allowed unless they are the same character.
      if (s > 1 && s % 2 === 1 && label[(s - 1) / 2]!.toLowerCase() !== label[(s - 3) / 2]!.toLowerCase()) {
        a += alpha[s - 2]!;
      }
      next[s] = a * probOf(t, s);
      total += next[s]!;
    }
    if (total <= 0) return Number.NEGATIVE_INFINITY;
    for (let s = 0; s < size; s++) next[s] = next[s]! / total;
    logScale += Math.log(total);
    alpha = next;
  }
  const last = alpha[size - 1]! + (size > 1 ? alpha[size - 2]! : 0);
  return last > 0 ? Math.log(last) + logScale : Number.NEGATIVE_INFINITY;
}
