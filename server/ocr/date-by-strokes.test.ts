import { describe, expect, it } from "vitest";
import { dateCrop, parse } from "../test-support/date-crop";
import { constrainedDecode } from "./ctc-constrained";
import { DECIMAL_GRAMMAR } from "./ctc-grammar";
import { readDateOptions, weighDatesByStrokes } from "./date-reading";
import { type DateChar, segmentDate } from "./date-strokes";
import { classifyDigits } from "./digit-classifier";
import { normalizeGlyph } from "./digit-glyph";
import { dateStrokeMatrix, strokeMatrix } from "./digit-reading";

const now = new Date("2026-11-24T12:00:00Z");

/** A classifier's output sure of one digit. */
const sure = (digit: number, p = 0.96) => {
  const out = new Float32Array(10).fill((1 - p) / 9);
  out[digit] = p;
  return out;
};

/** Characters of a date as the segmenter gives them, with the classifier's probabilities of each glyph. */
function read(text: string, overrides: Record<number, { slash?: number; probs?: Float32Array }> = {}) {
  const chars: DateChar[] = [];
  const probs: (Float32Array | null)[] = [];
  [...text].forEach((c, i) => {
    const o = overrides[i];
    if (/\d/.test(c) || o) {
      chars.push({ kind: "glyph", map: { width: 1, height: 1, ink: new Float32Array(1) }, slash: o?.slash ?? 0 });
      probs.push(o?.probs ?? sure(Number(c)));
    } else {
      chars.push({ kind: c === "." ? "point" : c === "-" ? "dash" : "gap" });
      probs.push(null);
    }
  });
  return dateStrokeMatrix(chars, probs);
}

describe("dates read from their strokes", () => {
  it("reads a 1 that looks like a slash as the digit the grammar needs ('2025-0/-06')", () => {
    // The month's second stroke leans like a slash; a slash cannot follow a single month digit and a dash.
    const matrix = read("2025-01-06", { 6: { slash: 0.7, probs: sure(1, 0.6) } });
    expect(readDateOptions(matrix, now)[0]?.value).toBe("2025-01-06");
  });

  it("reads a slash that the classifier takes for a 1 as the separator the grammar needs", () => {
    // "24/11/2021": both slashes look only half like slashes, the classifier says 1 for both.
    const leaning = { slash: 0.45, probs: sure(1, 0.9) };
    const matrix = read("24/11/2021", { 2: leaning, 5: leaning });
    expect(readDateOptions(matrix, now)[0]?.value).toBe("2021-11-24");
  });

  it("reads '1/11/1957' written with the first 1 touching its slash, end to end", async () => {
    const chars = segmentDate(dateCrop([{ touchingSlash: "1" }, ...parse("11/1957")]))!;
    const glyphs = chars.flatMap((c) => (c.kind === "glyph" ? [normalizeGlyph(c.map)] : []));
    const probs = await classifyDigits(glyphs);
    let next = 0;
    const matrix = dateStrokeMatrix(
      chars,
      chars.map((c) => (c.kind === "glyph" ? probs[next++]! : null)),
    );
    expect(readDateOptions(matrix, now)[0]?.value).toBe("1957-11-01");
  });

  it("moves the recogniser's doubtful readings to the date the strokes read, and keeps a clear one", () => {
    const strokes = read("16.04.2024");
    const weighed = weighDatesByStrokes(
      [
        { value: "2024-09-16", confidence: 0.5 },
        { value: "2024-04-16", confidence: 0.4 },
      ],
      strokes,
      now,
    );
    expect(weighed[0]?.value).toBe("2024-04-16");
    expect(weighed.reduce((sum, o) => sum + o.confidence, 0)).toBeCloseTo(0.9, 5);
    // A segmentation that read something else cannot veto a clear reading on its own.
    const other = weighDatesByStrokes([{ value: "2024-04-16", confidence: 0.9 }], read("18.01.2021"), now);
    expect(other[0]?.value).toBe("2024-04-16");
    // (A strokes' date sharing two of its three numbers may take a little.)
    expect(other[0]?.confidence).toBeGreaterThan(0.85);
  });
});

describe("numbers read from their strokes", () => {
  it("keeps a decimal point joined to a digit possible between two digits, never before or after them", () => {
    // "11.4" whose point touches the second 1: the segmenter finds three glyphs and no point.
    const glyph = { kind: "glyph" as const, map: { width: 1, height: 1, ink: new Float32Array(1) } };
    const m = strokeMatrix([glyph, glyph, glyph], [sure(1), sure(1), sure(4)]);
    const texts = constrainedDecode(m, DECIMAL_GRAMMAR, { beam: 16, nbest: 8 }).candidates.map((c) => c.text);
    expect(texts[0]).toBe("114");
    expect(texts).toContain("11.4");
    expect(texts).toContain("1.14");
    expect(texts.every((t) => !t.startsWith(".") && !t.endsWith("."))).toBe(true);
  });
});
