import type { Decoded } from "../ctc-decode";
import type { CharMatrix } from "../text-recognizer";

/** Probability of a space the recogniser saw but did not emit, between two decoded characters. */
const SPACE_EVIDENCE = 0.15;

/**
 * Puts back the spaces handwriting loses: the recogniser's best path often runs words together
 * ("DrL.Moreau"); where a space still had real probability between two characters, or the gap is much wider
 * than the others, a space is inserted (as the general reader's name joining does, field-extraction.ts).
 */
export function withSpaces(d: Decoded, matrix: CharMatrix): Decoded {
  const gaps = d.chars.slice(1).map((c, i) => c.step - d.chars[i]!.step);
  const typical = gaps.length ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 0;
  const chars: Decoded["chars"] = [];
  d.chars.forEach((c, i) => {
    const prev = d.chars[i - 1];
    if (prev && c.char !== " " && prev.char !== " ") {
      let space = 0;
      for (let t = prev.step + 1; t < c.step; t++) space = Math.max(space, matrix.probs[t * 96 + 1]!);
      if (space > SPACE_EVIDENCE || gaps[i - 1]! > Math.max(4, 2.2 * typical)) {
        chars.push({ char: " ", prob: space, step: Math.round((prev.step + c.step) / 2) });
      }
    }
    chars.push(c);
  });
  return { ...d, chars, text: chars.map((c) => c.char).join("") };
}
