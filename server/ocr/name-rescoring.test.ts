import { describe, expect, it } from "vitest";
import { labelLogProb } from "./ctc-forward";
import { editDistance, fromWords } from "./name-lexicon";
import { rescoreNameWord } from "./name-rescoring";
import { syntheticRegion } from "./synthetic-region";
import { ASCII_CHARS } from "./text-recognizer";

const lexicon = fromWords(
  ["gallagher", "smith", "jones"],
  new Map([
    ["jackson", 20],
    ["thomas", 9],
    ["jacks", 30000],
  ]),
);

/** "Jacksou" where the last letter was an "n" the recogniser also saw, less strongly. */
const jacksou = () => syntheticRegion("Jacksou", { u: 0, v: 0 }, 0.6, { 6: { char: "n", prob: 0.3 } });

describe("name lexicon", () => {
  it("finds names within a few edits only", () => {
    expect(editDistance("gallgher", "gallagher", 2)).toBe(1);
    expect(lexicon.near("Gallgher", 2)).toEqual(["gallagher"]);
    expect(lexicon.near("Gxllxghxr", 2)).toEqual([]);
    expect(lexicon.rank("Jackson")).toBe(20);
    expect(lexicon.rank("Smith")).toBeGreaterThan(1000);
    expect(lexicon.rank("Zqwx")).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("labelLogProb", () => {
  it("scores a label by all its alignments, in either case", () => {
    const m = syntheticRegion("Ann", { u: 0, v: 0 }, 0.9).matrix;
    expect(labelLogProb(m, "ANN")).toBeCloseTo(labelLogProb(m, "Ann"), 6);
    expect(labelLogProb(m, "Ann")).toBeGreaterThan(labelLogProb(m, "An"));
    // The doubled n needs the blank between them: one alignment, the product of the three characters.
    expect(labelLogProb(m, "Ann")).toBeCloseTo(Math.log(0.9 ** 3), 4);
  });
});

describe("rescoreNameWord", () => {
  it("accepts a close dictionary name the recogniser also saw", () => {
    const m = jacksou().matrix;
    const result = rescoreNameWord({ text: "Jacksou", matrix: m, from: 0, to: m.steps }, lexicon);
    expect(result.text).toBe("Jackson");
    expect(result.factor).toBeGreaterThan(0.5);
  });

  it("considers names two edits away from a short reading too", () => {
    const names = fromWords([], new Map([["john", 5]]));
    const m = syntheticRegion("Jahr", { u: 0, v: 0 }, 0.6, {
      1: { char: "o", prob: 0.3 },
      3: { char: "n", prob: 0.3 },
    }).matrix;
    expect(rescoreNameWord({ text: "Jahr", matrix: m, from: 0, to: m.steps }, names).text).toBe("John");
  });

  it("considers names near the recogniser's next-best reading too", () => {
    const names = fromWords([], new Map([["taylor", 10]]));
    // Three edits from "Faylan", two from the next reading "Faylar": the last letter's step also holds an "r".
    const m = syntheticRegion("Faylan", { u: 0, v: 0 }, 0.9, {
      0: { char: "T", prob: 0.05 },
      4: { char: "o", prob: 0.05 },
    }).matrix;
    const last = 11 * 96;
    m.probs[last + ASCII_CHARS.indexOf("n") + 1] = 0.6;
    m.probs[last + ASCII_CHARS.indexOf("r") + 1] = 0.35;
    m.probs[last] = 0.05;
    expect(rescoreNameWord({ text: "Faylan", matrix: m, from: 0, to: m.steps }, names).text).toBe("Taylor");
  });

  it("keeps the writer's capitals", () => {
    const m = syntheticRegion("JACKSOU", { u: 0, v: 0 }, 0.6, { 6: { char: "N", prob: 0.3 } }).matrix;
    expect(rescoreNameWord({ text: "JACKSOU", matrix: m, from: 0, to: m.steps }, lexicon).text).toBe("JACKSON");
  });

  it("refuses a dictionary name the recogniser did not see, and doubts the raw reading", () => {
    const m = syntheticRegion("Jacksou", { u: 0, v: 0 }, 0.99).matrix;
    const result = rescoreNameWord({ text: "Jacksou", matrix: m, from: 0, to: m.steps }, lexicon);
    expect(result.text).toBe("Jacksou");
    expect(result.factor).toBeLessThan(1);
  });

  it("keeps hyphenated and apostrophe names whose parts are names, and drops a stray hyphen", () => {
    const names = fromWords(["brien", "smith", "jones", "kowalski"], new Map([["o", 1]]));
    const m = syntheticRegion("x", { u: 0, v: 0 }).matrix;
    const word = (text: string) => ({ text, matrix: m, from: 0, to: m.steps });
    expect(rescoreNameWord(word("Smith-Jones"), names).text).toBe("Smith-Jones");
    expect(rescoreNameWord(word("K-OWALSKI"), names).text).toBe("KOWALSKI");
    expect(rescoreNameWord(word("Ab-Cd"), names)).toEqual({ text: "Ab-Cd", factor: 0.7 });
  });

  it("keeps a one-letter prefix before an apostrophe", () => {
    const names = fromWords(["brien", "angelo"], new Map());
    const m = syntheticRegion("x", { u: 0, v: 0 }).matrix;
    expect(rescoreNameWord({ text: "O'Brien", matrix: m, from: 0, to: m.steps }, names)).toEqual({
      text: "O'Brien",
      factor: 1,
    });
  });

  it("checks the name after a one-letter prefix, keeping the prefix", () => {
    const names = fromWords([], new Map([["brien", 500]]));
    // "O'BRJEN" where the recogniser also saw the "I".
    const m = syntheticRegion("O'BRJEN", { u: 0, v: 0 }, 0.6, { 4: { char: "I", prob: 0.3 } }).matrix;
    expect(rescoreNameWord({ text: "O'BRJEN", matrix: m, from: 0, to: m.steps }, names).text).toBe("O'BRIEN");
  });

  it("checks each part of a hyphenated name and keeps the hyphen", () => {
    const names = fromWords(
      [],
      new Map([
        ["dubois", 1248],
        ["sanchez", 52],
      ]),
    );
    // "Dubois-Sanchcz" where the recogniser also saw the "e".
    const m = syntheticRegion("Dubois-Sanchcz", { u: 0, v: 0 }, 0.6, { 12: { char: "e", prob: 0.3 } }).matrix;
    expect(rescoreNameWord({ text: "Dubois-Sanchcz", matrix: m, from: 0, to: m.steps }, names).text).toBe(
      "Dubois-Sanchez",
    );
  });

  it("checks no part before an apostrophe as a name of its own ('DrO'Neill' is no 'Do'Neill')", () => {
    const names = fromWords(
      [],
      new Map([
        ["neill", 3000],
        ["do", 9000],
        ["dre", 9000],
      ]),
    );
    const m = syntheticRegion("DrO'Neill", { u: 0, v: 0 }, 0.6, { 2: { char: "e", prob: 0.3 } }).matrix;
    expect(rescoreNameWord({ text: "DrO'Neill", matrix: m, from: 0, to: m.steps }, names).text).toBe("DrO'Neill");
  });

  it("puts back an apostrophe after O the recogniser saw, and none it did not", () => {
    const names = fromWords(
      [],
      new Map([
        ["obrien", 281],
        ["brien", 6278],
        ["owen", 300],
        ["wen", 5000],
      ]),
    );
    const read = (text: string, apostrophe: number) => {
      const m = syntheticRegion(text, { u: 0, v: 0 }, 0.9).matrix;
      // The step between the "O" and the next letter: a faint apostrophe beside the blank.
      m.probs[2 * 96] = 1 - apostrophe;
      m.probs[2 * 96 + ASCII_CHARS.indexOf("'") + 1] = apostrophe;
      return rescoreNameWord({ text, matrix: m, from: 0, to: m.steps }, names).text;
    };
    expect(read("OBRIEN", 0.3)).toBe("O'BRIEN");
    expect(read("OWEN", 0.0001)).toBe("OWEN");
  });

  it("parts an initial written against the surname instead of dropping it", () => {
    const names = fromWords([], new Map([["kapoor", 5000]]));
    const m = syntheticRegion("WKAPOOR", { u: 0, v: 0 }, 0.9).matrix;
    expect(rescoreNameWord({ text: "WKAPOOR", matrix: m, from: 0, to: m.steps }, names).text).toBe("W KAPOOR");
  });

  it("puts back the space between two names read as one word", () => {
    const names = fromWords(
      ["andrewfitz"],
      new Map([
        ["andrew", 40],
        ["fitzgerald", 900],
        ["gerald", 300],
      ]),
    );
    const word = (text: string) => {
      const m = syntheticRegion(text, { u: 0, v: 0 }).matrix;
      return rescoreNameWord({ text, matrix: m, from: 0, to: m.steps }, names);
    };
    expect(word("AndrewFitzgerald")).toEqual({ text: "Andrew Fitzgerald", factor: 1 });
    // Only a reading no list knows is split, and only into two listed names.
    expect(word("Andrewfitz").text).toBe("Andrewfitz");
    expect(word("Andrewxyzgerald")).toEqual({ text: "Andrewxyzgerald", factor: 0.7 });
  });

  it("takes a common name the recogniser saw only faintly, but marks it for checking", () => {
    const m = syntheticRegion("Jacksou", { u: 0, v: 0 }, 0.9, { 6: { char: "n", prob: 0.005 } }).matrix;
    const result = rescoreNameWord({ text: "Jacksou", matrix: m, from: 0, to: m.steps }, lexicon);
    expect(result.text).toBe("Jackson");
    expect(result.factor).toBeLessThan(0.8);
  });

  it("guesses further for a reading no list knows, but never by dropping clear letters", () => {
    // The "n" got 1/9,000 of the "u": beyond what a known reading allows, within what an unknown one does.
    const m = syntheticRegion("Jacksou", { u: 0, v: 0 }, 0.9, { 6: { char: "n", prob: 0.0001 } }).matrix;
    const result = rescoreNameWord({ text: "Jacksou", matrix: m, from: 0, to: m.steps }, lexicon);
    expect(result.text).toBe("Jackson");
    expect(result.factor).toBeLessThan(0.8);
    // "Jacks" would need the clear "o" and "u" to be nothing.
    const clear = syntheticRegion("Jacksou", { u: 0, v: 0 }, 0.99).matrix;
    expect(rescoreNameWord({ text: "Jacksou", matrix: clear, from: 0, to: clear.steps }, lexicon).text).toBe("Jacksou");
  });

  it("changes no letter the recogniser read surely ('Lindqvist' is no 'Lindquist')", () => {
    const names = fromWords([], new Map([["lindquist", 50]]));
    // Every letter at 0.92 (sure, but the word is no plain print), the "v" with a faint "u" behind it.
    const region = syntheticRegion("Lindqvist", { u: 0, v: 0 }, 0.92, { 5: { char: "u", prob: 0.005 } });
    const word = { text: "Lindqvist", matrix: region.matrix, from: 0, to: region.matrix.steps };
    // Without the letters' own probabilities the census carries the choice, as before.
    expect(rescoreNameWord(word, names).text).toBe("Lindquist");
    expect(rescoreNameWord({ ...word, chars: region.read.chars }, names).text).toBe("Lindqvist");
    // The same letter read without certainty may still be the listed name's.
    const doubtful = syntheticRegion("Lindqvist", { u: 0, v: 0 }, 0.85, { 5: { char: "u", prob: 0.05 } });
    const unsure = { text: "Lindqvist", matrix: doubtful.matrix, from: 0, to: doubtful.matrix.steps };
    expect(rescoreNameWord({ ...unsure, chars: doubtful.read.chars }, names).text).toBe("Lindquist");
  });

  it("keeps a rare listed surname read clearly instead of a common one an edit away", () => {
    const names = fromWords(
      [],
      new Map([
        ["anderson", 11],
        ["andersson", 24941],
      ]),
    );
    // Every letter at 0.99: "ANDERSON" would need one clear "S" to be a blank (about 1/50 of the reading).
    const m = syntheticRegion("ANDERSSON", { u: 0, v: 0 }, 0.99).matrix;
    expect(rescoreNameWord({ text: "ANDERSSON", matrix: m, from: 0, to: m.steps }, names)).toEqual({
      text: "ANDERSSON",
      factor: 1,
    });
  });

  it("still corrects a listed name read without confidence to a common name the recogniser also saw", () => {
    const names = fromWords(
      [],
      new Map([
        ["anderson", 11],
        ["andersson", 24941],
      ]),
    );
    // A scrawl: every letter at 0.45, the second "S" as likely a blank.
    const m = syntheticRegion("ANDERSSON", { u: 0, v: 0 }, 0.45).matrix;
    expect(rescoreNameWord({ text: "ANDERSSON", matrix: m, from: 0, to: m.steps }, names).text).toBe("ANDERSON");
  });

  it("never replaces a surname read plainly by a lexicon name, listed or not", () => {
    // Clean print: every letter at 0.97, the "V" also a little like a "U" (2 %).
    const plain = (names: ReturnType<typeof fromWords>) => {
      const m = syntheticRegion("LINDQVIST", { u: 0, v: 0 }, 0.97, { 5: { char: "U", prob: 0.02 } }).matrix;
      return rescoreNameWord({ text: "LINDQVIST", matrix: m, from: 0, to: m.steps }, names).text;
    };
    // Not listed: before, the common "LINDQUIST" (1/50 of the reading's probability) replaced it.
    expect(plain(fromWords([], new Map([["lindquist", 3000]])))).toBe("LINDQVIST");
    // Listed but rare, the common spelling one edit away.
    expect(
      plain(
        fromWords(
          [],
          new Map([
            ["lindquist", 3000],
            ["lindqvist", 90000],
          ]),
        ),
      ),
    ).toBe("LINDQVIST");
    // The same letters read without confidence (a scrawl at 0.6 a letter, the "U" at 0.3) are still corrected.
    const m = syntheticRegion("LINDQVIST", { u: 0, v: 0 }, 0.6, { 5: { char: "U", prob: 0.3 } }).matrix;
    const names = fromWords([], new Map([["lindquist", 3000]]));
    expect(rescoreNameWord({ text: "LINDQVIST", matrix: m, from: 0, to: m.steps }, names).text).toBe("LINDQUIST");
  });

  it("leaves a common name as read", () => {
    const m = syntheticRegion("Thomas", { u: 0, v: 0 }).matrix;
    expect(rescoreNameWord({ text: "Thomas", matrix: m, from: 0, to: m.steps }, lexicon)).toEqual({
      text: "Thomas",
      factor: 1,
    });
  });
});
