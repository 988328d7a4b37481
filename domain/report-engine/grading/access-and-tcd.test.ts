import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m } from "../testing/study-builders";

const access = (flow: number | null, diameter: number | null, depth: number | null) =>
  draftOf("AV Fistula/Graft", [
    ...(flow === null ? [] : [m("AVF_ARTERY", "left", "FLOW_ML_MIN", flow)]),
    ...(diameter === null ? [] : [m("AVF_VEIN", "left", "DIAMETER_MM", diameter)]),
    ...(depth === null ? [] : [m("AVF_VEIN", "left", "DEPTH_MM", depth)]),
  ]);

describe("AV fistula maturity, KDOQI rule of 6s", () => {
  it.each([
    [600, 6, 6, "mature"],
    [599, 6, 6, "immature"],
    [600, 5.9, 6, "immature"],
    [600, 6, 6.1, "immature"],
    [900, 7.5, 3, "mature"],
  ])("flow %s mL/min, diameter %s mm, depth %s mm: %s", (flow, diameter, depth, grade) => {
    expect(gradeOf(access(flow, diameter, depth), "avf_maturity", "left")).toBe(grade);
  });

  it("names each failed criterion", () => {
    const draft = access(450, 5, 7);
    expect(draft.impression).toContain("volume flow 450 mL/min below the minimum");
    expect(draft.impression).toContain("outflow vein diameter 5 mm below the minimum");
    expect(draft.impression).toContain("outflow vein depth 7 mm beyond the maximum");
  });

  it("counts a missing value as failed and warns", () => {
    const draft = access(700, 6.5, null);
    expect(gradeOf(draft, "avf_maturity", "left")).toBe("immature");
    expect(draft.impression).toContain("outflow vein depth not recorded");
    expect(draft.warnings.join(" ")).toMatch(/outflow vein depth was not recorded/);
  });

  it("accepts an access recorded without a side", () => {
    const draft = draftOf("AV Fistula/Graft", [
      m("AVF_VEIN", null, "FLOW_ML_MIN", 800),
      m("AVF_VEIN", null, "DIAMETER_MM", 6),
      m("AVF_VEIN", null, "DEPTH_MM", 4),
    ]);
    expect(gradeOf(draft, "avf_maturity", null)).toBe("mature");
  });
});

describe("transcranial Doppler", () => {
  it.each([
    [119, "none"],
    [120, "mild"],
    [159, "mild"],
    [160, "moderate"],
    [199, "moderate"],
    [200, "severe"],
  ])("MCA mean flow velocity %s cm/s grades %s", (mfv, grade) => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "right", "MFV", mfv)]);
    expect(gradeOf(draft, "tcd_vasospasm", "right")).toBe(grade);
  });

  it.each([
    [2.99, "hyperemia"],
    [3, "vasospasm"],
    [6, "vasospasm"],
    [6.01, "severe_vasospasm"],
  ])("measured Lindegaard ratio %s grades %s", (ratio, grade) => {
    const draft = draftOf("Transcranial Doppler", [
      m("MCA", "left", "MFV", 150),
      m("MCA", "left", "LINDEGAARD", ratio),
    ]);
    expect(gradeOf(draft, "lindegaard", "left")).toBe(grade);
  });

  it.each([
    [149.5, 2.99, "hyperemia"],
    [150, 3, "vasospasm"],
    [300, 6, "vasospasm"],
    [300.5, 6.01, "severe_vasospasm"],
  ])("MCA MFV %s over extracranial ICA MFV 50 gives %s (computed): %s", (mfv, ratio, grade) => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "right", "MFV", mfv), m("ICA_EXTRA", "right", "MFV", 50)]);
    expect(gradeOf(draft, "lindegaard", "right")).toBe(grade);
    expect(draft.findings).toContain(`Lindegaard ratio ${ratio} (computed)`);
  });

  it("never pairs an MCA with the other side's ICA", () => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "right", "MFV", 150), m("ICA_EXTRA", "left", "MFV", 40)]);
    expect(conclusionsOf(draft, "lindegaard")).toHaveLength(0);
    expect(draft.impression).toContain("Lindegaard ratio not assessed");
  });

  it("does not grade vasospasm from a PSV", () => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "left", "PSV", 250)]);
    expect(conclusionsOf(draft, "tcd_vasospasm")).toHaveLength(0);
    expect(draft.impression).toContain(
      "left middle cerebral artery (vasospasm not graded, mean flow velocity not recorded)",
    );
  });
});
