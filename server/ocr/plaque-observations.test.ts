import { describe, expect, it } from "vitest";
import { plaqueCharacterFromLabel } from "../../domain/vocabulary/worksheet-labels";
import type { CheckMark } from "./check-boxes";
import { type LabelMark, plaqueHeading, plaqueLabels, plaqueObservations } from "./plaque-observations";
import type { ReadRegion } from "./read-region";

// A region as the recogniser gives it: one character per step, `h` pixels high, each step 10 pixels wide.
function region(text: string, u0: number, v0: number, h = 38, confidence = 0.96): ReadRegion {
  const chars = [...text].map((char, step) => ({ char, prob: confidence, step }));
  return {
    u0,
    u1: u0 + 10 * text.length,
    v0,
    v1: v0 + h,
    score: 0.9,
    box: { page: 0, x: u0, y: v0, width: 10 * text.length, height: h },
    matrix: { steps: text.length, probs: new Float32Array(0) },
    read: { text, chars, confidence },
  };
}
const marked: CheckMark = { state: "marked", confidence: 0.9, how: "box" };
const empty: CheckMark = { state: "empty", confidence: 0.9, how: null };
const unclear: CheckMark = { state: "unclear", confidence: 0, how: null };
/** A label region with its box's decision, as recognizePage leaves it. */
function label(text: string, u0: number, v0: number, mark: CheckMark): ReadRegion {
  const r = region(text, u0, v0);
  r.checkMarks = plaqueLabels(r).map((l): LabelMark => ({ ...l, mark }));
  return r;
}
const keys = (regions: ReadRegion[]) =>
  plaqueObservations(regions)
    .map((o) => `${o.site}|${o.side}|${o.finding}`)
    .sort();

describe("plaque labels through the one vocabulary", () => {
  it("maps the wordings clinics print, with one misread letter in a long word", () => {
    expect(plaqueCharacterFromLabel("Hypoechoic")).toBe("echolucent");
    expect(plaqueCharacterFromLabel("Hyperechoic")).toBe("echogenic");
    expect(plaqueCharacterFromLabel("Mixed")).toBe("heterogeneous");
    expect(plaqueCharacterFromLabel("Calcific")).toBe("calcified");
    expect(plaqueCharacterFromLabel("Ulceration")).toBe("ulcerated");
    expect(plaqueCharacterFromLabel("Smooth")).toBe("smooth_surface");
    expect(plaqueCharacterFromLabel("uicerated")).toBe("ulcerated");
    expect(plaqueCharacterFromLabel("Mixd")).toBeNull();
    expect(plaqueCharacterFromLabel("Mixed", { exact: true })).toBe("heterogeneous");
    expect(plaqueCharacterFromLabel("Calcifed", { exact: true })).toBeNull();
    expect(plaqueCharacterFromLabel("Stenosis")).toBeNull();
  });

  it("places each label where its letters are, past a box read into the region", () => {
    const [merged] = plaqueLabels(region("[]Smooth", 100, 0));
    expect(merged).toMatchObject({ finding: "smooth_surface", text: "Smooth" });
    // "S" is the third step: 100 + 2 * 10, less a quarter of the text height.
    expect(merged!.u0).toBeCloseTo(120 - 0.25 * 38);
    const ticked = plaqueLabels(region("MHeterogeneous", 100, 0));
    expect(ticked).toMatchObject([{ finding: "heterogeneous", text: "Heterogeneous" }]);
    // A word whose first letter is its own keeps it.
    expect(plaqueLabels(region("Echogenic", 100, 0))[0]!.u0).toBe(100);
    const two = plaqueLabels(region("Smooth Irregular", 100, 0));
    expect(two.map((l) => l.finding)).toEqual(["smooth_surface", "irregular_surface"]);
    expect(two[1]!.u0).toBeCloseTo(170 - 0.25 * 38);
  });

  it("reads side and vessel from the section's heading", () => {
    expect(plaqueHeading("Right ICA plaque:")).toEqual({ side: "right", site: "ICA" });
    expect(plaqueHeading("LICA:")).toEqual({ side: "left", site: "ICA" });
    expect(plaqueHeading("Lt Bulb Plaque")).toEqual({ side: "left", site: "BULB" });
    expect(plaqueHeading("RIGHT CCAPLAQUE:")).toEqual({ side: "right", site: "CCA" });
    expect(plaqueHeading("ICA plaque:")).toBeNull();
    expect(plaqueHeading("Rt PSV cm/s")).toBeNull();
    expect(plaqueHeading("Right GSV:")).toBeNull();
  });
});

describe("plaqueObservations", () => {
  // Right ICA: echogenicity on the heading's line, surface below; Left Bulb stacked under its own heading.
  const sheet = (marks: Record<string, CheckMark>) => [
    region("Right ICA plaque:", 100, 1000),
    label("Echolucent", 420, 1000, marks.rEcho ?? empty),
    label("Calcified", 640, 1000, marks.rCalc ?? empty),
    label("Smooth", 420, 1048, marks.rSmooth ?? empty),
    label("Ulcerated", 640, 1048, marks.rUlc ?? empty),
    region("Lt Bulb:", 100, 1110),
    label("Hyperechoic", 140, 1158, marks.lEcho ?? empty),
    label("Irregular", 140, 1206, marks.lIrr ?? empty),
  ];

  it("gives each marked box's character the side and vessel of the heading above or left of it", () => {
    const read = sheet({ rCalc: marked, rUlc: marked, lEcho: marked, lIrr: marked });
    expect(keys(read)).toEqual([
      "BULB|left|echogenic",
      "BULB|left|irregular_surface",
      "ICA|right|calcified",
      "ICA|right|ulcerated",
    ]);
    const first = plaqueObservations(read).find((o) => o.finding === "calcified")!;
    expect(first.text).toBe("Calcified");
    expect(first.confidence).toBeCloseTo(0.9 * 0.96);
  });

  it("emits nothing for empty or unclear boxes, nor for a label without a heading", () => {
    expect(keys(sheet({ rEcho: unclear, lIrr: unclear }))).toEqual([]);
    expect(keys([label("Calcified", 640, 1000, marked)])).toEqual([]);
    // A heading far above (another part of the page) is not this box's section.
    expect(keys([region("Right ICA plaque:", 100, 200), label("Calcified", 640, 1000, marked)])).toEqual([]);
  });
});
