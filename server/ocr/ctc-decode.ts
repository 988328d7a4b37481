import { ASCII_CHARS, type CharMatrix } from "./text-recognizer";

export type DecodedChar = { char: string; prob: number; step: number };
export type Decoded = { text: string; chars: DecodedChar[]; confidence: number };

/**
 * Shapes a recogniser confuses when the true alphabet is narrower: inside a digits-only field an "O" is a 0.
 * Probability of the confusable is added to its stand-in, so restricted decoding keeps the evidence.
 */
export const CONFUSABLE: Record<string, string> = {
  "0": "OoDQ",
  // Continental handwriting: a 1 with a long flag reads as A or ^ (two of them as M: CONFUSABLE_PAIRS); a crossed 7
  // as + or F.
  "1": "Il|i!]jAV^/L",
  "2": "Zz",
  "4": "yHh",
  "5": "Ss$",
  "6": "Gb",
  "7": "T>+#Ff",
  "8": "B&",
  "9": "gqP",
  ".": ",",
  "/": "\\|",
  "-": "~_",
  O: "0",
  I: "1|",
  l: "1|",
  S: "5",
  B: "8",
};

export const columnOf = (char: string) => ASCII_CHARS.indexOf(char) + 1;

/**
 * Greedy CTC decoding over steps [from, to), choosing at each step between blank and the allowed characters only.
 * Without `allowed` every printable ASCII character competes. Confidence is the mean character probability, as
 * PaddleOCR reports it, but capped by the weakest character so one doubtful digit is not averaged away, and by
 * the strongest character the alphabet had to drop.
 */
export function ctcDecode(m: CharMatrix, allowed?: string, from = 0, to = m.steps): Decoded {
  const alphabet = allowed ?? ASCII_CHARS;
  const sources = [...alphabet].map((char) => {
    const extra = allowed ? [...(CONFUSABLE[char] ?? "")].filter((c) => !alphabet.includes(c)) : [];
    return { char, columns: [char, ...extra].map(columnOf).filter((c) => c > 0) };
  });
  const chars: DecodedChar[] = [];
  let previous = -1;
  // The strongest evidence of a character the alphabet cannot hold: "M6" read in a digits field decodes to "6",
  // and that lost "M" (really a handwritten 11) must show in the confidence.
  let lost = 0;
  for (let t = from; t < Math.min(to, m.steps); t++) {
    const row = t * 96;
    let best = -1;
    let bestProb = m.probs[row]!;
    let explained = bestProb;
    sources.forEach((s, i) => {
      let p = 0;
      for (const c of s.columns) p += m.probs[row + c]!;
      explained += p;
      if (p > bestProb) {
        best = i;
        bestProb = p;
      }
    });
    const unexplained = Math.max(0, 1 - explained);
    if (allowed && best < 0 && 1 - m.probs[row]! > m.probs[row]!) {
      // Most mass is on some character the alphabet cannot hold: a character is there, so emit the likeliest
      // allowed one (at its own low probability) rather than silently dropping a digit.
      let b = -1;
      let bp = 0;
      sources.forEach((src, i) => {
        let p = 0;
        for (const c of src.columns) p += m.probs[row + c]!;
        if (p > bp) {
          b = i;
          bp = p;
        }
      });
      if (bp > 0.02) {
        best = b;
        bestProb = bp;
      }
    }
    if (unexplained > bestProb) lost = Math.max(lost, unexplained);
    if (best >= 0 && best !== previous) chars.push({ char: sources[best]!.char, prob: bestProb, step: t });
    else if (best >= 0 && best === previous) {
      const last = chars.at(-1)!;
      last.prob = Math.max(last.prob, bestProb);
    }
    previous = best;
  }
  const text = chars.map((c) => c.char).join("");
  const mean = chars.length ? chars.reduce((s, c) => s + c.prob, 0) / chars.length : 0;
  const min = chars.length ? Math.min(...chars.map((c) => c.prob)) : 0;
  return { text, chars, confidence: Math.min(mean, Math.sqrt(min), 1 - lost) };
}
