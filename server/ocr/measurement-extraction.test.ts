import { describe, expect, it } from "vitest";
import { extractMeasurements } from "./measurement-extraction";
import type { ReadRegion } from "./read-region";
import { syntheticRegion as at } from "./synthetic-region";

/** A table as the recogniser reports it: header line, vessel labels, handwritten values slightly off-centre. */
function table(headers: string[], rows: [string, ...(string | null)[]][]): ReadRegion[] {
  const regions: ReadRegion[] = [at("Vessel", { u: 100, v: 600 })];
  headers.forEach((h, i) => {
    regions.push(at(h, { u: 330 + i * 220, v: 600, w: 140 }));
  });
  rows.forEach(([label, ...cells], r) => {
    const v = 650 + r * 46;
    regions.push(at(label, { u: 100, v }));
    cells.forEach((cell, c) => {
      if (!cell) return;
      // Handwriting is about 0.4 text heights per digit, plus the detector's margin.
      const w = 12 * cell.length + 10;
      regions.push(at(cell, { u: 350 + c * 220 + ((r * 7) % 30), v: v + ((r * 5) % 8) - 4, w }));
    });
  });
  return regions;
}

describe("extractMeasurements", () => {
  it("maps a carotid table to site, side and parameter codes", () => {
    const regions = table(
      ["Rt PSV cm/s", "Rt EDV cm/s", "Lt PSV cm/s", "Lt EDV cm/s"],
      [
        ["CCA Prox", "95", "22", "116", "12"],
        ["Bulb", "59", "9", null, null],
        ["ICA Prox", "347", "119", "118", "18"],
        ["VA", "-", "-", "52", "8"],
      ],
    );
    const found = extractMeasurements(regions);
    const keys = found.map((m) => `${m.site} ${m.side} ${m.parameter} ${m.value} ${m.unit}`).sort();
    expect(keys).toEqual(
      [
        "CCA_PROX right PSV 95 cm/s",
        "CCA_PROX right EDV 22 cm/s",
        "CCA_PROX left PSV 116 cm/s",
        "CCA_PROX left EDV 12 cm/s",
        "BULB right PSV 59 cm/s",
        "BULB right EDV 9 cm/s",
        "ICA_PROX right PSV 347 cm/s",
        "ICA_PROX right EDV 119 cm/s",
        "ICA_PROX left PSV 118 cm/s",
        "ICA_PROX left EDV 18 cm/s",
        "VA left PSV 52 cm/s",
        "VA left EDV 8 cm/s",
      ].sort(),
    );
    expect(found.every((m) => m.confidence > 0.8 && m.box !== null)).toBe(true);
  });

  it("converts venous reflux seconds to ms and keeps the text as written", () => {
    const regions = table(
      ["Rt reflux s", "Rt diam mm", "Lt reflux s", "Lt diam mm"],
      [
        ["CFV", "3.5", "10.8", "2.1", "4.5"],
        ["GSV Mid Thigh", "0.5", "4.0", null, null],
        ["Pop V", "0.0", "9.9", "0.3", "3.8"],
      ],
    );
    const found = extractMeasurements(regions);
    expect(found).toContainEqual(
      expect.objectContaining({
        site: "CFV",
        side: "right",
        parameter: "REFLUX_MS",
        value: 3500,
        unit: "ms",
        text: "3.5",
      }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({ site: "GSV_MID", side: "right", parameter: "DIAMETER_MM", value: 4, unit: "mm" }),
    );
    expect(found).toContainEqual(
      expect.objectContaining({ site: "POPV", side: "left", parameter: "REFLUX_MS", value: 300 }),
    );
    expect(found).toHaveLength(10);
  });

  it("gives implausible and contradictory values a low confidence", () => {
    const regions = table(
      ["Rt PSV cm/s", "Rt EDV cm/s"],
      [
        ["ICA Prox", "14", "32"],
        ["CCA Mid", "980", "20"],
      ],
    );
    const found = extractMeasurements(regions);
    // A value too doubtful is not emitted at all: that counts as a low confidence here.
    const confidence = (site: string, parameter: string) =>
      found.find((m) => m.site === site && m.parameter === parameter)?.confidence ?? 0;
    // EDV above PSV: one of the two is misread (here the PSV lost its leading 1).
    expect(confidence("ICA_PROX", "PSV")).toBeLessThan(0.5);
    expect(confidence("ICA_PROX", "EDV")).toBeLessThan(0.5);
    expect(confidence("CCA_MID", "PSV")).toBeLessThan(0.5);
    expect(confidence("CCA_MID", "EDV")).toBeGreaterThan(0.9);
  });

  it("doubts a cell much wider than what was read in it (a digit the recogniser did not see)", () => {
    const regions = table(
      ["Rt PSV cm/s", "Rt EDV cm/s"],
      [
        ["CCA Prox", "104", "24"],
        ["CCA Mid", "98", "21"],
        ["CCA Dist", "87", "19"],
        ["ICA Prox", "75", "22"],
      ],
    );
    // "27" written, only the 7 read: the region keeps the width of two digits.
    const lost = regions.find((r) => r.read.text === "21")!;
    const seven = at("7", { u: lost.u0, v: lost.v0, w: lost.u1 - lost.u0 }, 0.98);
    regions.splice(regions.indexOf(lost), 1, seven);
    const found = extractMeasurements(regions);
    const mid = found.find((m) => m.site === "CCA_MID" && m.parameter === "EDV");
    expect(mid?.confidence ?? 0).toBeLessThan(0.3);
    expect(found.find((m) => m.site === "CCA_DIST" && m.parameter === "EDV")!.confidence).toBeGreaterThan(0.9);
  });

  it("restores a PSV's leading 1 that only the strokes show, which clears its EDV too (issue 24)", () => {
    const regions = table(
      ["Rt PSV cm/s", "Rt EDV cm/s"],
      [
        ["ICA Prox", "14", "32"],
        ["CCA Mid", "98", "21"],
      ],
    );
    for (const r of regions) if (/^\d+$/.test(r.read.text)) r.strokes = r.matrix;
    // The recogniser lost the thin 1 of "114"; the digit classifier's segmentation of the strokes has it.
    regions.find((r) => r.read.text === "14")!.strokes = at("114", { u: 0, v: 0 }).matrix;
    const found = extractMeasurements(regions);
    const psv = found.find((m) => m.site === "ICA_PROX" && m.parameter === "PSV");
    const edv = found.find((m) => m.site === "ICA_PROX" && m.parameter === "EDV");
    expect(psv).toMatchObject({ value: 114, text: "114" });
    // Doubtful (checked against its crop), never sure: the recogniser did not read the 1.
    expect(psv!.confidence).toBeGreaterThanOrEqual(0.4);
    expect(psv!.confidence).toBeLessThan(0.8);
    expect(psv!.doubt).toContain("the recogniser read 14");
    // 32 is no longer above its PSV: nothing speaks against it.
    expect(edv).toMatchObject({ value: 32, doubt: null });
    expect(edv!.confidence).toBeGreaterThan(0.8);
  });

  it("does not doubt a PSV for an EDV above it only by a 1 the strokes put before it", () => {
    const regions = table(
      ["Lt PSV cm/s", "Lt EDV cm/s"],
      [
        ["Bulb", "58", "11"],
        ["CCA Mid", "98", "21"],
      ],
    );
    for (const r of regions) if (/^\d+$/.test(r.read.text)) r.strokes = r.matrix;
    // The strokes' segmentation split the EDV's "11" into three glyphs.
    regions.find((r) => r.read.text === "11")!.strokes = at("111", { u: 0, v: 0 }).matrix;
    const found = extractMeasurements(regions);
    const psv = found.find((m) => m.site === "BULB" && m.parameter === "PSV");
    expect(psv).toMatchObject({ value: 58, doubt: null });
    expect(psv!.confidence).toBeGreaterThan(0.8);
    // The EDV stays unemitted or doubtful.
    expect(found.find((m) => m.site === "BULB" && m.parameter === "EDV")?.confidence ?? 0).toBeLessThan(0.8);
  });

  it("returns nothing without a recognisable table", () => {
    expect(
      extractMeasurements([at("Impression / Comments:", { u: 100, v: 900 }), at("R ICA PSV 347", { u: 100, v: 950 })]),
    ).toEqual([]);
  });
});
