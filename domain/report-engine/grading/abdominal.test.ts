import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m, o } from "../testing/study-builders";

describe("abdominal aorta (SVS 2018)", () => {
  it.each([
    [24.9, "normal", null],
    [25, "ectatic", "Repeat aortic ultrasound in 10 years."],
    [29.9, "ectatic", "Repeat aortic ultrasound in 10 years."],
    [30, "aneurysm_small", "Repeat aortic ultrasound every 3 years."],
    [39.9, "aneurysm_small", "Repeat aortic ultrasound every 3 years."],
    [40, "aneurysm_medium", "Repeat aortic ultrasound every 12 months."],
    [49.9, "aneurysm_medium", "Repeat aortic ultrasound every 12 months."],
    [50, "aneurysm_large", "Repeat aortic ultrasound every 6 months."],
    [54.9, "aneurysm_large", "Repeat aortic ultrasound every 6 months."],
  ])("maximum diameter %s mm grades %s", (mm, grade, recommendation) => {
    const draft = draftOf("Abdominal Aorta", [m("AO_MID", null, "DIAMETER_MM", mm)], [], { sex: "male" });
    expect(gradeOf(draft, "aortic_diameter", null)).toBe(grade);
    expect(draft.impression).toContain(`Abdominal aorta: maximum diameter ${mm} mm`);
    if (recommendation) expect(draft.impression).toContain(recommendation);
    expect(draft.impression).not.toContain("Refer to vascular surgery");
  });

  it("refers at 55 mm whatever the sex, and at 50 mm for women", () => {
    const man = draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 55)], [], { sex: "male" });
    expect(man.impression).toContain("Refer to vascular surgery");
    expect(man.impression).not.toContain("every 6 months");
    const woman = draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 50)], [], { sex: "female" });
    expect(woman.impression).toContain("Refer to vascular surgery");
    const womanBelow = draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 49.9)], [], { sex: "female" });
    expect(womanBelow.impression).not.toContain("Refer to vascular surgery");
  });

  it("gives both referral thresholds when the sex is not known", () => {
    const draft = draftOf("Abdominal Aorta", [m("AO", null, "DIAMETER_MM", 52)]);
    expect(draft.impression).toContain("Repeat aortic ultrasound every 6 months.");
    expect(draft.impression).toContain("Refer to vascular surgery if the patient is a woman");
  });

  it("grades the widest segment and ignores a side given for the aorta", () => {
    const draft = draftOf("Abdominal Aorta", [
      m("AO_PROX", "left", "DIAMETER_MM", 22),
      m("AO_DIST", null, "DIAMETER_MM", 41),
      m("CIA", "right", "DIAMETER_MM", 12),
    ]);
    const [c] = conclusionsOf(draft, "aortic_diameter");
    expect(c).toMatchObject({ site: "AO", side: null, grade: "aneurysm_medium" });
    expect(draft.findings.split("\n")[0]).toBe("Abdominal aorta: proximal diameter 22 mm; distal diameter 41 mm.");
  });

  it("says the diameter was not assessed when there is none", () => {
    const draft = draftOf("Abdominal Aorta", [m("CIA", "left", "DIAMETER_MM", 11)]);
    expect(draft.impression).toContain("Limitations: abdominal aorta (maximum diameter not assessed).");
  });
});

describe("renal artery (ACR-AIUM-SRU)", () => {
  it.each([
    [199, "lt60"],
    [200, "ge60"],
  ])("renal PSV %s grades %s", (psv, grade) => {
    const draft = draftOf("Renal Duplex", [m("RA_PROX", "right", "PSV", psv)]);
    expect(gradeOf(draft, "renal_stenosis", "right")).toBe(grade);
  });

  it.each([
    [3.49, "lt60"],
    [3.5, "ge60"],
  ])("measured RAR %s grades %s", (rar, grade) => {
    const draft = draftOf("Renal Duplex", [m("RA", "left", "PSV", 150), m("RA", "left", "RAR", rar)]);
    expect(gradeOf(draft, "renal_stenosis", "left")).toBe(grade);
  });

  it.each([
    [174, 3.48, "lt60"],
    [175, 3.5, "ge60"],
  ])("renal PSV %s over aortic PSV 50 gives RAR %s (computed) and grades %s", (psv, rar, grade) => {
    const draft = draftOf("Renal Duplex", [m("AO", null, "PSV", 50), m("RA_MID", "right", "PSV", psv)]);
    expect(gradeOf(draft, "renal_stenosis", "right")).toBe(grade);
    expect(draft.findings).toContain(`renal-aortic ratio ${rar} (computed)`);
    if (grade === "ge60") expect(draft.warnings.join(" ")).toMatch(/disagree about 60% or greater stenosis/);
  });

  it("grades occlusion and states an unexamined side", () => {
    const draft = draftOf("Renal Duplex", [], [o("RA", "left", "no_flow")]);
    expect(gradeOf(draft, "renal_stenosis", "left")).toBe("occlusion");
    expect(draft.impression.split("\n")).toEqual([
      "Left renal artery: occlusion.",
      "Limitations: right renal artery (not assessed).",
      "Criteria: ACR-AIUM-SRU renal artery duplex practice parameter; Hoffmann et al. 1991 (criteria set: Consensus criteria (SRU 2003 carotid)).",
    ]);
  });
});

describe("mesenteric arteries (Moneta 1993, fasting)", () => {
  it.each([
    ["SMA", 274, "lt70"],
    ["SMA", 275, "ge70"],
    ["CA", 199, "lt70"],
    ["CA", 200, "ge70"],
  ])("%s PSV %s grades %s", (site, psv, grade) => {
    const draft = draftOf("Mesenteric Duplex", [m(site, null, "PSV", psv)]);
    const [c] = conclusionsOf(draft, "mesenteric_stenosis").filter((x) => x.site === site);
    expect(c?.grade).toBe(grade);
  });

  it("grades occlusion, and reads the celiac artery before the SMA", () => {
    const draft = draftOf("Mesenteric Duplex", [m("SMA", null, "PSV", 120)], [o("CA", null, "occluded")]);
    expect(conclusionsOf(draft, "mesenteric_stenosis").map((c) => `${c.site}:${c.grade}`)).toEqual([
      "CA:occlusion",
      "SMA:lt70",
    ]);
  });
});
