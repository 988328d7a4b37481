import { describe, expect, it } from "vitest";
import { checkClinicalWords } from "./clinical-words";
import { ctcDecode } from "./ctc-decode";
import { extractSheetFields } from "./field-extraction";
import type { NameWord } from "./name-rescoring";
import { syntheticRegion } from "./synthetic-region";
import { ASCII_CHARS, type CharMatrix } from "./text-recognizer";

/**
 * The words of a synthetic reading, as field-extraction's nameWords gives them: split at spaces, each with its
 * characters and the steps up to its neighbours'.
 */
function wordsOf(matrix: CharMatrix): NameWord[] {
  const chars = ctcDecode(matrix).chars;
  const groups: (typeof chars)[] = [[]];
  for (const c of chars) {
    if (c.char === " ") groups.push([]);
    else groups.at(-1)!.push(c);
  }
  const words = groups.filter((g) => g.length);
  return words.map((w, k) => ({
    text: w.map((c) => c.char).join(""),
    chars: w,
    matrix,
    from: k > 0 ? words[k - 1]!.at(-1)!.step + 1 : 0,
    to: k + 1 < words.length ? words[k + 1]![0]!.step : matrix.steps,
  }));
}

/** The text as read and checked against the clinical vocabulary. */
function check(text: string, prob: number, alternatives: Record<number, { char: string; prob: number }> = {}) {
  const { matrix } = syntheticRegion(text, { u: 0, v: 0 }, prob, alternatives);
  return checkClinicalWords(text, wordsOf(matrix));
}

/** Puts probability on a character at the blank step after character `index` (a letter the reading lost). */
function lostAfter(matrix: CharMatrix, index: number, char: string, prob: number) {
  const row = (2 * index + 2) * 96;
  matrix.probs[row + ASCII_CHARS.indexOf(char) + 1] = prob;
  matrix.probs[row] = 1 - prob;
}

describe("checkClinicalWords", () => {
  it("reads a misread word as the listed word the recogniser also saw", () => {
    // "plaqve": the recogniser gave the u a fifth of the v's probability.
    const read = check("Heterogeneous plaqve", 0.7, { 18: { char: "u", prob: 0.15 } });
    expect(read.text).toBe("Heterogeneous plaque");
    expect(read.factor).toBe(1);
  });

  it("keeps a word the recogniser did not see as a listed word, and a word read plainly", () => {
    // No probability on the u: "plaque" would need a letter the image does not hold.
    expect(check("Heterogeneous plaqve", 0.7).text).toBe("Heterogeneous plaqve");
    // Clean print: read at 0.99 a letter, "plaqve" is what is written even though "u" had some probability.
    expect(check("plaqve", 0.99, { 4: { char: "u", prob: 0.009 } }).text).toBe("plaqve");
  });

  it("marks a listed word taken at well under the reading's probability as doubtful", () => {
    const read = check("stenesis", 0.8, { 4: { char: "o", prob: 0.002 } });
    expect(read.text).toBe("stenosis");
    expect(read.factor).toBeLessThan(0.8);
  });

  it("reads a digit in a word as the letter only letter for letter, never dropping it", () => {
    expect(check("plaque 1CA", 0.7, { 7: { char: "I", prob: 0.3 } }).text).toBe("plaque ICA");
    // "GSV7": no listed word of its length; "GSV" would drop the digit.
    expect(check("GSV7 mm", 0.7, { 3: { char: "V", prob: 0.01 } }).text).toBe("GSV7 mm");
  });

  it("keeps listed words and a side against a vessel as read", () => {
    expect(check("RICA stenosis", 0.7).text).toBe("RICA stenosis");
    expect(check("No DVT seen", 0.6).text).toBe("No DVT seen");
  });

  it("keeps a letter before a vessel's abbreviation: a side, or what is left of one", () => {
    // "LGISV": GSV alone would drop the L (and the stray I); the side stays.
    expect(check("LGISV reflux", 0.7).text).toBe("L GSV reflux");
  });

  it("drops no letter of a short word, nor one at the join of two words run together, nor takes a short word far off", () => {
    // "XOR" is no "or", "RefluxaSFJ" no "reflux SFJ" (the "a" of "at"), however faint the letter.
    expect(check("XOR", 0.7).text).toBe("XOR");
    // Nor is a short word taken two edits away: "ppig" (a garbled "mapping") is no "sig" nor "pain".
    expect(check("ppig", 0.7, { 1: { char: "s", prob: 0.3 } }).text).toBe("ppig");
    expect(check("ppig", 0.7, { 1: { char: "a", prob: 0.3 }, 3: { char: "n", prob: 0.3 } }).text).toBe("ppig");
    expect(check("RefluxaSFJ", 0.7).text).toBe("RefluxaSFJ");
  });

  it("takes a short word only when the recogniser nearly chose it", () => {
    // "SS": the V lost after it had a third of the blank's probability there: SSV.
    const { matrix } = syntheticRegion("SS competent", { u: 0, v: 0 }, 0.7);
    lostAfter(matrix, 1, "V", 0.3);
    expect(checkClinicalWords("SS competent", wordsOf(matrix)).text).toBe("SSV competent");
    // "OQ" is two edits or more from every listed word but "op" (one), seen at 1/50 of its reading only.
    expect(check("pre-OQ", 0.7, { 5: { char: "P", prob: 0.014 } }).text).toBe("pre-OQ");
  });

  it("joins a word the recogniser cut in two, and parts two run together", () => {
    expect(check("sicnif icant stenosis", 0.7, { 2: { char: "g", prob: 0.2 } }).text).toBe("significant stenosis");
    const { matrix } = syntheticRegion("legswellng", { u: 0, v: 0 }, 0.7);
    lostAfter(matrix, 7, "i", 0.2);
    expect(checkClinicalWords("legswellng", wordsOf(matrix)).text).toBe("leg swelling");
  });

  it("is what the indication and comments fields are read through", () => {
    const indication = syntheticRegion("VARICOSE VENS", { u: 300, v: 300 }, 0.7);
    lostAfter(indication.matrix, 10, "I", 0.3);
    const fields = extractSheetFields(
      [syntheticRegion("Indication:", { u: 100, v: 300 }), indication],
      new Date("2026-11-22T12:00:00Z"),
    );
    expect(fields.indication.value).toBe("VARICOSE VEINS");
  });
});
