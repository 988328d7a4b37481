import { describe, expect, it } from "vitest";
import { fromWords } from "./name-lexicon";
import { mendNameWords, type NameWord } from "./name-rescoring";
import { syntheticRegion } from "./synthetic-region";

const lexicon = fromWords(
  ["wil", "souza"],
  new Map([
    ["wilson", 8],
    ["son", 608],
    ["susan", 30],
    ["kim", 118],
    ["lee", 24],
    ["margaret", 20],
    ["lewis", 40],
    ["po", 42478],
    ["mcdonald", 300],
    ["beatrice", 400],
    ["obrien", 500],
    ["john", 5],
    ["smith", 1],
    ["maria", 50],
  ]),
);

/** The words of one read line, each over its own stretch of one recogniser matrix. */
function line(text: string): NameWord[] {
  const matrix = syntheticRegion(text, { u: 0, v: 0 }).matrix;
  let at = 0;
  return text.split(" ").map((word) => {
    const from = 2 * at;
    at += word.length + 1;
    return { text: word, matrix, from, to: 2 * (at - 1) };
  });
}
const mended = (text: string) =>
  mendNameWords(line(text), lexicon)
    .map((w) => w.text)
    .join(" ");

describe("mendNameWords", () => {
  it("joins a name split in two when the join is a commoner name than either piece", () => {
    expect(mended("WIL SON, Susan")).toBe("WILSON, Susan");
    // Two real names side by side stay apart: each is commoner than any join of theirs.
    expect(mended("KIM LEE Susan")).toBe("KIM LEE Susan");
    // A line of two words keeps both.
    expect(mended("WIL SON")).toBe("WIL SON");
  });

  it("drops stray label or leader letters before the name, and only those", () => {
    expect(mended("e WILSON Susan")).toBe("WILSON Susan");
    expect(mended("PO MARGARET L. LEWIS")).toBe("MARGARET L. LEWIS");
    expect(mended("O MCDONALD. BEATRICE")).toBe("MCDONALD. BEATRICE");
    // An O' name written without its apostrophe, an initial before a given name, a particle: kept.
    expect(mended("O BRIEN, JOHN")).toBe("O BRIEN, JOHN");
    expect(mended("J SMITH JOHN")).toBe("J SMITH JOHN");
    expect(mended("de Souza Maria")).toBe("de Souza Maria");
  });
});
