import { describe, expect, it } from "vitest";
import { implausibleReason, physiologicalLimits } from "../measurement-ranges";
import { conclusionsOf, draftOf, gradeOf, m, o } from "./testing/study-builders";
import { shiftDecimal, toCriteriaUnit } from "./units";

// Issue 31, items 3 and 4: standard units are converted exactly; impossible values are refused with a warning, and
// no impression says "not recorded" about a value that was given.

describe("unit conversion", () => {
  it.each([
    ["PSV", 4.58, "m/s", 458],
    ["PSV", 4.58, "M/S", 458],
    ["PSV", 1.1, "m/sec", 110],
    ["PSV", 0.57, "m s-1", 57],
    ["PSV", 2500, "mm/s", 250],
    ["REFLUX_MS", 0.8, "s", 800],
    ["REFLUX_MS", 1.005, "sec", 1005],
    ["REFLUX_MS", 2, "seconds", 2000],
    ["DIAMETER_MM", 4.5, "cm", 45],
    ["DIAMETER_MM", 0.35, "centimetres", 3.5],
    ["FLOW_ML_MIN", 0.6, "L/min", 600],
    ["FLOW_ML_MIN", 1.25, "l/min", 1250],
    ["FLOW_ML_MIN", 650, "mL/min", 650],
  ] as const)("%s %s %s is exactly %s", (parameter, value, unit, expected) => {
    expect(toCriteriaUnit(parameter, value, unit)).toMatchObject({ ok: true, value: expected });
  });

  it("moves the decimal point without binary error", () => {
    expect(0.57 * 100).not.toBe(57);
    expect(shiftDecimal(0.57, 2)).toBe(57);
    expect(shiftDecimal(4.58, 2)).toBe(458);
    expect(shiftDecimal(1e-7, 3)).toBe(0.0001);
  });

  it("a converted velocity grades and the findings keep what the sheet wrote", () => {
    const draft = draftOf(
      "Carotid Duplex",
      [m("ICA_PROX", "right", "PSV", 4.58, "m/s")],
      [o("ICA", "right", "plaque")],
    );
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("70_99");
    expect(draft.findings).toContain("PSV 458 cm/s (recorded as 4.58 m/s)");
    expect(draft.impression).not.toMatch(/not recorded/);
  });

  it("an aorta in cm grades as its millimetres", () => {
    const draft = draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 4.5, "cm")]);
    expect(gradeOf(draft, "aortic_diameter", null)).toBe("aneurysm_medium");
    expect(draft.impression).not.toMatch(/not assessed/);
  });

  it("an access flow in L/min counts toward maturity", () => {
    const draft = draftOf("AV Fistula/Graft", [
      m("AVF_ARTERY", "left", "FLOW_ML_MIN", 0.6, "L/min"),
      m("AVF_VEIN", "left", "DIAMETER_MM", 6),
      m("AVF_VEIN", "left", "DEPTH_MM", 5),
    ]);
    expect(gradeOf(draft, "avf_maturity", "left")).toBe("mature");
  });
});

describe("physiological limits (shared with the OCR checking table)", () => {
  it.each([
    ["PSV", undefined, 700, 700.5],
    ["MFV", undefined, 400, 401],
    ["REFLUX_MS", undefined, 10_000, 10_001],
    ["ABI", undefined, 3, 3.01],
    ["DIAMETER_MM", "AO", 150, 151],
    ["DIAMETER_MM", "GSV", 40, 40.5],
  ] as const)("%s at %s: %s is accepted, %s refused", (parameter, site, onLimit, above) => {
    expect(implausibleReason(parameter, onLimit, site)).toBeNull();
    expect(implausibleReason(parameter, onLimit - 0.5, site)).toBeNull();
    expect(implausibleReason(parameter, above, site)).toMatch(/outside the physiological range/);
  });

  it("a PSV of 0 is a recording, not an error", () => {
    expect(physiologicalLimits("PSV").min).toBe(0);
  });

  it.each([
    ["Carotid Duplex", m("ICA", "right", "PSV", 9000), "carotid_stenosis"],
    ["Lower Limb Arterial", m("ANKLE", "right", "ABI", 50), "abi"],
    ["Abdominal Aorta", m("AO", null, "DIAMETER_MM", 900), "aortic_diameter"],
    ["Transcranial Doppler", m("MCA", "left", "MFV", 5000), "tcd_vasospasm"],
    ["Lower Limb Venous", m("GSV", "left", "REFLUX_MS", 1e7), "venous_reflux"],
  ] as const)("%s: the issue's impossible value gets no grade and a warning", (scanType, measurement, category) => {
    const draft = draftOf(scanType, [measurement]);
    expect(conclusionsOf(draft, category)).toHaveLength(0);
    expect(draft.warnings.join(" ")).toMatch(
      /is outside the physiological range \(.+\) and was not used: check the worksheet/,
    );
    expect(draft.findings).toMatch(/not used: outside the physiological range/);
    const side = "side" in measurement && measurement.side ? measurement.side : null;
    // The refused vessel's limitation says why; nothing says its value was not recorded.
    expect(draft.impression).toMatch(new RegExp(`${side ?? ""}[^;(]* \\(not graded, value not usable: `));
    expect(draft.impression).not.toMatch(/not recorded/);
  });

  it("a 60 mm aneurysm is not refused", () => {
    expect(gradeOf(draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 60)]), "aortic_diameter", null)).toBe(
      "aneurysm_large",
    );
  });
});
