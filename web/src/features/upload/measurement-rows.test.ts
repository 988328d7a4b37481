import { describe, expect, it } from "vitest";
import {
  blankRow,
  isInvalidValue,
  isLowConfidence,
  outsideLimits,
  parseValue,
  rowsFromOcr,
  siteWords,
  toStudyMeasurements,
} from "./measurement-rows";

const read = (confidence: number, value = 3500, text = "3.5") => ({
  site: "GSV_KNEE",
  side: "left" as const,
  parameter: "REFLUX_MS",
  value,
  unit: "ms",
  confidence,
  text,
  box: { page: 0, x: 10, y: 20, width: 30, height: 12 },
});

describe("measurement rows", () => {
  it("names sites in plain words, including segments the criteria do not list", () => {
    expect(siteWords("ICA")).toBe("Internal carotid artery");
    expect(siteWords("GSV_MID")).toBe("Great saphenous vein, mid");
    expect(siteWords("GSV_KNEE")).toBe("Great saphenous vein, knee");
    expect(siteWords("XYZ")).toBe("XYZ");
  });

  it("parses typed values, decimal comma included, and flags non-numbers but not blanks", () => {
    expect(parseValue("3,5")).toBe(3.5);
    expect(parseValue(" 120 ")).toBe(120);
    expect(parseValue("12a")).toBeNull();
    expect(isInvalidValue("")).toBe(false);
    expect(isInvalidValue("1.2.3")).toBe(true);
  });

  it("highlights values under 80% until the clinician corrects them", () => {
    const [low, sure] = rowsFromOcr([read(0.5), read(0.95)]);
    expect(isLowConfidence(low!)).toBe(true);
    expect(isLowConfidence(sure!)).toBe(false);
    expect(isLowConfidence({ ...low!, edited: true })).toBe(false);
    expect(isLowConfidence(blankRow())).toBe(false);
  });

  it("sends the report only valid values, as corrected", () => {
    const rows = rowsFromOcr([read(0.9), read(0.9, 800, "0.8")]);
    rows[0] = { ...rows[0]!, valueText: "4100", edited: true };
    rows[1] = { ...rows[1]!, valueText: "n/a", edited: true };
    expect(toStudyMeasurements([...rows, blankRow()])).toEqual([
      { site: "GSV_KNEE", side: "left", parameter: "REFLUX_MS", value: 4100, unit: "ms" },
    ]);
  });
});

describe("values the report will not grade (issue 31 item 4)", () => {
  const row = (parameter: string, valueText: string, unit: string, site = "ICA") => ({
    ...blankRow(),
    site,
    parameter,
    valueText,
    unit,
  });

  it("flags a value outside the engine's physiological limits, in the row's own unit", () => {
    expect(outsideLimits(row("PSV", "9000", "cm/s"))).toBe(
      "outside the physiological range (0 to 700 cm/s): the report will not grade it. Check the worksheet.",
    );
    expect(outsideLimits(row("PSV", "700", "cm/s"))).toBeNull();
    expect(outsideLimits(row("PSV", "7.01", "m/s"))).toMatch(/outside the physiological range/);
    expect(outsideLimits(row("ABI", "50", ""))).toMatch(/\(0 to 3\)/);
  });

  it("judges a diameter by its vessel: a 90 mm aorta is possible, a 90 mm vein is not", () => {
    expect(outsideLimits(row("DIAMETER_MM", "90", "mm", "AO"))).toBeNull();
    expect(outsideLimits(row("DIAMETER_MM", "90", "mm", "GSV"))).toMatch(/outside/);
  });
});
