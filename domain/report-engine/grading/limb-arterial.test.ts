import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m, o } from "../testing/study-builders";

describe("limb arterial stenosis by PSV ratio", () => {
  it.each([
    [1.99, "lt50"],
    [2.0, "50_74"],
    [3.99, "50_74"],
    [4.0, "75_99"],
    [4.01, "75_99"],
  ])("measured PSVR %s grades %s", (psvr, grade) => {
    const draft = draftOf("Lower Limb Arterial", [m("SFA_MID", "left", "PSVR", psvr)]);
    expect(gradeOf(draft, "arterial_stenosis", "left")).toBe(grade);
  });

  it.each([
    [199, "lt50"],
    [200, "50_74"],
    [399, "50_74"],
    [400, "75_99"],
    [401, "75_99"],
  ])("computed PSVR from 100 cm/s proximally to %s cm/s grades %s", (psv, grade) => {
    const draft = draftOf("Lower Limb Arterial", [
      m("SFA_PROX", "right", "PSV", 100),
      m("SFA_MID", "right", "PSV", psv),
    ]);
    const [c] = conclusionsOf(draft, "arterial_stenosis", "right");
    expect(c?.grade).toBe(grade);
    expect(c?.site).toBe("SFA_MID");
    expect(draft.findings).toContain(`PSV ratio ${psv / 100} (computed)`);
  });

  it("is none when PSVR < 2 with no plaque and a triphasic waveform, otherwise less than 50 %", () => {
    const measurements = [m("POPA_PROX", "right", "PSV", 80), m("POPA_DIST", "right", "PSV", 90)];
    const clean = draftOf("Lower Limb Arterial", measurements, [
      o("POPA", "right", "no_plaque"),
      o("POPA_DIST", "right", "triphasic"),
    ]);
    expect(gradeOf(clean, "arterial_stenosis", "right")).toBe("none");
    const biphasic = draftOf("Lower Limb Arterial", measurements, [
      o("POPA", "right", "no_plaque"),
      o("POPA_DIST", "right", "biphasic"),
    ]);
    expect(gradeOf(biphasic, "arterial_stenosis", "right")).toBe("lt50");
    const conflicting = draftOf("Lower Limb Arterial", measurements, [
      o("POPA", "right", "no_plaque"),
      o("POPA_DIST", "right", "triphasic"),
      o("POPA_DIST", "right", "monophasic"),
    ]);
    expect(gradeOf(conflicting, "arterial_stenosis", "right")).toBe("lt50");
    const plaque = draftOf("Lower Limb Arterial", measurements, [o("POPA_DIST", "right", "triphasic")]);
    expect(gradeOf(plaque, "arterial_stenosis", "right")).toBe("lt50");
  });

  it("grades an occluded segment as occlusion and does not use it as a reference", () => {
    const draft = draftOf(
      "Lower Limb Arterial",
      [m("SFA_PROX", "left", "PSV", 90), m("SFA_DIST", "left", "PSV", 30)],
      [o("SFA_MID", "left", "occluded")],
    );
    const grades = conclusionsOf(draft, "arterial_stenosis", "left").map((c) => `${c.site}:${c.grade}`);
    expect(grades).toEqual(["SFA_MID:occlusion"]);
    expect(draft.impression).toContain("Left superficial femoral artery (mid): occlusion.");
  });

  it("never computes a ratio across two arteries, and says when an artery could not be graded", () => {
    const draft = draftOf("Lower Limb Arterial", [m("CFA", "right", "PSV", 100), m("SFA_PROX", "right", "PSV", 300)]);
    expect(conclusionsOf(draft, "arterial_stenosis")).toHaveLength(0);
    expect(draft.impression).toContain("stenosis not graded, no PSV ratio recorded");
    expect(draft.findings).not.toContain("(computed)");
  });

  it("reads proximal to distal whatever the input order", () => {
    const draft = draftOf("Upper Limb Arterial", [
      m("BA_ARM_DIST", "right", "PSV", 60),
      m("BA_ARM_PROX", "right", "PSV", 70),
      m("BA_ARM_MID", "right", "PSV", 150),
    ]);
    expect(draft.findings).toContain(
      "Right brachial artery: proximal PSV 70 cm/s; mid PSV 150 cm/s, PSV ratio 2.14 (computed)",
    );
    expect(conclusionsOf(draft, "arterial_stenosis").map((c) => `${c.site}:${c.grade}`)).toEqual([
      "BA_ARM_MID:50_74",
      "BA_ARM_DIST:lt50",
    ]);
  });
});

describe("ankle-brachial index (AHA/ACC)", () => {
  it.each([
    [0.4, "severe"],
    [0.41, "mild_moderate"],
    [0.9, "mild_moderate"],
    [0.91, "borderline"],
    [0.99, "borderline"],
    [1.0, "normal"],
    [1.4, "normal"],
    [1.41, "noncompressible"],
  ])("ABI %s grades %s", (abi, grade) => {
    const draft = draftOf("Lower Limb Arterial", [m("ANKLE", "right", "ABI", abi)]);
    expect(gradeOf(draft, "abi", "right")).toBe(grade);
    expect(draft.findings).toContain(`Right ankle: ABI ${abi}.`);
  });

  it("uses the lower of two differing values and warns", () => {
    const draft = draftOf("Lower Limb Arterial", [m("ANKLE", "left", "ABI", 0.95), m("ANKLE", "left", "ABI", 0.85)]);
    expect(gradeOf(draft, "abi", "left")).toBe("mild_moderate");
    expect(draft.warnings.join(" ")).toMatch(/Different values were recorded for the left ankle: ABI 0.95 and 0.85/);
  });

  it("does not accept an ABI at an artery", () => {
    const draft = draftOf("Lower Limb Arterial", [m("POPA", "right", "ABI", 0.7)]);
    expect(conclusionsOf(draft, "abi")).toHaveLength(0);
    expect(draft.warnings.join(" ")).toMatch(/not a valid site for ABI/);
  });
});
