import { type ReadRegion, toReadRegion } from "./read-region";
import type { CharMatrix } from "./text-recognizer";
import { ASCII_CHARS } from "./text-recognizer";

/**
 * Builds a ReadRegion as the recogniser would report it for `text` written at (u, v): each character one time
 * step at probability `prob`, blanks between. Lets unit tests exercise extraction without images or models.
 * `alternatives` puts probability on a second character at a position (e.g. "O" where a digit was written).
 */
export function syntheticRegion(
  text: string,
  at: { u: number; v: number; w?: number; h?: number },
  prob = 0.95,
  alternatives: Record<number, { char: string; prob: number }> = {},
): ReadRegion {
  const steps = text.length * 2 + 1;
  const probs = new Float32Array(steps * 96);
  probs[0] = 1;
  [...text].forEach((char, i) => {
    const t = 2 * i + 1;
    const alt = alternatives[i];
    probs[t * 96 + ASCII_CHARS.indexOf(char) + 1] = prob;
    if (alt) probs[t * 96 + ASCII_CHARS.indexOf(alt.char) + 1] = alt.prob;
    probs[t * 96] = Math.max(0, 1 - prob - (alt?.prob ?? 0));
    probs[(t + 1) * 96] = 1;
  });
  const matrix: CharMatrix = { steps, probs };
  const w = at.w ?? text.length * 12;
  const h = at.h ?? 30;
  return toReadRegion(
    {
      u0: at.u,
      u1: at.u + w,
      v0: at.v,
      v1: at.v + h,
      score: 0.9,
      box: { page: 0, x: at.u, y: at.v, width: w, height: h },
    },
    matrix,
  );
}
