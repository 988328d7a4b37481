import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cachedFile } from "./disk-cache";
import { nameLexicon } from "./name-lexicon";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "ocr-cache-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("OCR disk cache", () => {
  it("builds a file once and makes it again only when an input changed", () => {
    const dir = tempDir();
    const input = path.join(dir, "input.txt");
    writeFileSync(input, "one");
    let builds = 0;
    const build = () => {
      builds++;
      return Buffer.from(readFileSync(input, "utf8").toUpperCase());
    };
    const first = cachedFile("upper.txt", [input], build, path.join(dir, "cache"));
    const again = cachedFile("upper.txt", [input], build, path.join(dir, "cache"));
    expect(builds).toBe(1);
    expect(again.path).toBe(first.path);
    expect(first.path).toMatch(/upper-[0-9a-f]{16}\.txt$/);
    expect(readFileSync(first.path!, "utf8")).toBe("ONE");
    writeFileSync(input, "two");
    const changed = cachedFile("upper.txt", [input], build, path.join(dir, "cache"));
    expect(builds).toBe(2);
    expect(readFileSync(changed.path!, "utf8")).toBe("TWO");
  });

  it("hands the bytes back when the folder cannot be written", () => {
    const dir = tempDir();
    const input = path.join(dir, "input.txt");
    writeFileSync(input, "x");
    // A file where the folder should be: nothing can be created inside it.
    const blocked = path.join(dir, "blocked");
    writeFileSync(blocked, "");
    const result = cachedFile("x.bin", [input], () => Buffer.from("built"), path.join(blocked, "cache"));
    expect(result.path).toBeUndefined();
    expect(Buffer.from(result.bytes!).toString()).toBe("built");
  });

  it("the name list read back from its cached file answers as the lists it was built from", () => {
    const lexicon = nameLexicon();
    // The 1990 census's most common surname and given names rank first; a broad-list-only name ranks after them.
    expect(lexicon.rank("Smith")).toBe(1);
    expect(lexicon.rank("james")).toBe(1);
    expect(lexicon.has("andersson")).toBe(true);
    expect(lexicon.rank("qxzqv")).toBe(Number.POSITIVE_INFINITY);
    expect(lexicon.near("andersen", 1)).toContain("anderson");
    expect(lexicon.near("andersen", 1)).not.toContain("andersen");
  });
});
