import { describe, expect, it } from "vitest";
import { type Conclusion, draftSchema, studySchema } from "../contracts/study";
import { criticalRuleIds, enabledRules } from "./critical-results";
import { generateDraft } from "./generate-draft";
import { draftOf, m, o } from "./testing/study-builders";

const rulesOf = (draft: { criticalResults: { rule: string }[] }) => draft.criticalResults.map((r) => r.rule);

describe("critical results: each rule on its threshold and on both sides of it", () => {
  // SRU 2003 (default set): 70-99% is PSV above 230 cm/s, so 230 is 50-69% and not critical.
  it.each([
    [229.9, false],
    [230, false],
    [230.1, true],
    [400, true],
  ])("right ICA PSV %s cm/s with plaque: critical %s", (psv, critical) => {
    const draft = draftOf(
      "Carotid Duplex",
      [m("ICA_PROX", "right", "PSV", psv)],
      [o("ICA", "right", "plaque"), o("ICA", "left", "no_plaque")],
    );
    expect(rulesOf(draft)).toEqual(critical ? ["carotid_severe"] : []);
    if (critical) {
      expect(draft.criticalResults[0]).toMatchObject({
        key: "carotid_severe|ICA|right",
        site: "ICA",
        side: "right",
        grade: "70_99",
        finding: "Right internal carotid artery: 70-99% stenosis",
        ruleName: "Internal carotid artery stenosis of 70% or more, or occlusion",
      });
    }
  });

  it.each([
    ["occluded", "occlusion", "Left internal carotid artery: occlusion"],
    ["no_flow", "occlusion", "Left internal carotid artery: occlusion"],
    ["near_occlusion", "near_occlusion", "Left internal carotid artery: near occlusion"],
  ] as const)("an ICA recorded %s is critical", (finding, grade, words) => {
    const draft = draftOf("Carotid Duplex", [], [o("ICA", "left", finding)]);
    expect(draft.criticalResults).toEqual([expect.objectContaining({ rule: "carotid_severe", grade, finding: words })]);
  });

  it.each([
    [230, false],
    [230.1, true],
  ])("under the stricter carotid set too (same 70%% bound): PSV %s critical %s", (psv, critical) => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "right", "PSV", psv)], [o("ICA", "right", "plaque")], {
      criteriaSetId: "carotid-sru-strict",
    });
    expect(draft.warnings.join(" ")).not.toMatch(/unknown/);
    expect(rulesOf(draft)).toEqual(critical ? ["carotid_severe"] : []);
  });

  it.each([
    [54.9, false],
    [55, true],
    [55.1, true],
  ])("aortic diameter %s mm: critical %s", (mm, critical) => {
    const draft = draftOf("Abdominal Aorta", [m("AO_MID", null, "DIAMETER_MM", mm)], [], { sex: "female" });
    expect(rulesOf(draft)).toEqual(critical ? ["aortic_diameter"] : []);
    if (critical) expect(draft.criticalResults[0]?.finding).toBe(`Abdominal aorta: maximum diameter ${mm} mm`);
  });

  it.each([
    ["FV", "thrombus", true],
    ["POPV", "non_compressible", true],
    ["AXV", "thrombus", true],
    ["FV", "occluded", true],
    ["FV", "compressible", false],
    ["GSV", "thrombus", false],
  ] as const)("%s %s: acute DVT %s (a superficial vein or a compressible one is not)", (site, finding, critical) => {
    const draft = draftOf("DVT Assessment", [], [o(site, "left", finding)]);
    expect(rulesOf(draft)).toEqual(critical ? ["acute_dvt"] : []);
  });

  it("a deep vein thrombosis recorded as chronic is not acute and does not fire", () => {
    const chronic = draftOf("DVT Assessment", [], [o("FV", "left", "thrombus"), o("FV", "left", "chronic")]);
    expect(rulesOf(chronic)).toEqual([]);
    const acuteBeside = draftOf(
      "DVT Assessment",
      [],
      [o("FV", "left", "thrombus"), o("FV", "left", "chronic"), o("POPV", "left", "non_compressible")],
    );
    expect(acuteBeside.criticalResults).toEqual([
      expect.objectContaining({ rule: "acute_dvt", site: "POPV", side: "left" }),
    ]);
  });

  it.each([
    ["SMA", 274],
    ["SMA", 275],
    ["CA", 400],
  ] as const)("%s PSV %s cm/s is a stenosis, not an occlusion: not critical", (site, psv) => {
    const draft = draftOf("Mesenteric Duplex", [m(site, null, "PSV", psv)]);
    expect(rulesOf(draft)).toEqual([]);
  });

  it.each([
    ["SMA", "occluded"],
    ["CA", "no_flow"],
  ] as const)("%s %s is a mesenteric occlusion", (site, finding) => {
    const draft = draftOf("Mesenteric Duplex", [], [o(site, null, finding)]);
    expect(rulesOf(draft)).toEqual(["mesenteric_occlusion"]);
  });

  it("a renal occlusion is critical, a 60% or greater stenosis is not", () => {
    const occluded = draftOf("Renal Duplex", [m("RA", "right", "PSV", 250)], [o("RA", "left", "occluded")]);
    expect(occluded.criticalResults).toEqual([
      expect.objectContaining({ rule: "renal_occlusion", side: "left", finding: "Left renal artery: occlusion" }),
    ]);
  });

  it.each([
    [49, false],
    [50, true],
    [99, true],
    [100, true],
  ])("EHIT extension %s%%: critical %s (class 3 from 50%%)", (pct, critical) => {
    const draft = draftOf("Post Endovenous Intervention", [m("SFJ", "right", "EXTENSION_PCT", pct)]);
    expect(rulesOf(draft)).toEqual(critical ? ["ehit_high"] : []);
  });
});

describe("critical results: rapid aneurysm growth since the prior study", () => {
  const study = (mm: number) =>
    studySchema.parse({ scanType: "Abdominal Aorta", measurements: [m("AO_PROX", null, "DIAMETER_MM", mm)] });
  const prior = (examDate: string, mm: number) => ({
    examDate,
    conclusions: [],
    measurements: [{ site: "AO_PROX", side: null, parameter: "DIAMETER_MM" as const, value: mm, unit: "mm" }],
  });
  const draftWith = (mm: number, examDate: string, priorDate: string, priorMm: number, off: string[] = []) =>
    generateDraft(study(mm), {
      comparison: { examDate, prior: prior(priorDate, priorMm) },
      criticalRules: enabledRules(off),
    });

  it.each([
    // Within 6 months the growth in mm decides (5 mm fires, 4.9 does not) ...
    [45, "2024-07-15", "2024-01-15", 40, true],
    [44.9, "2024-07-15", "2024-01-15", 40, false],
    // ... a day later the rate does: 5 mm is then under 10 mm/year.
    [45, "2024-07-16", "2024-01-15", 40, false],
    // 365 days: 10 mm is 10.007 mm/year and fires, 9.99 mm (9.997) does not.
    [50, "2024-02-29", "2023-03-01", 40, true],
    [49.99, "2024-02-29", "2023-03-01", 40, false],
  ])("%s mm on %s after %s mm on %s: critical %s", (mm, examDate, priorDate, priorMm, critical) => {
    const draft = draftWith(mm, examDate, priorDate, priorMm);
    expect(rulesOf(draft).includes("aortic_rapid_growth")).toBe(critical);
  });

  it("names the growth, the interval and the prior's date, and a 55 mm aorta fires both aortic rules", () => {
    const draft = draftWith(56, "2025-02-20", "2024-09-01", 48);
    expect(rulesOf(draft)).toEqual(["aortic_diameter", "aortic_rapid_growth"]);
    expect(draft.criticalResults[1]).toMatchObject({
      key: "aortic_rapid_growth|AO|-",
      site: "AO",
      side: null,
      finding: "Abdominal aorta: maximum diameter 56 mm, 8 mm more than on 2024-09-01 (172 days, 17 mm/year)",
    });
    expect(draftSchema.parse(draft)).toEqual(draft);
  });

  it("does not fire without a prior study, or when the clinic turned it off", () => {
    expect(rulesOf(generateDraft(study(50)))).toEqual([]);
    expect(rulesOf(draftWith(50, "2024-07-15", "2024-01-15", 40, ["aortic_rapid_growth"]))).toEqual([]);
  });
});

describe("critical results: a new occlusion, not one the prior study already showed", () => {
  const occludedIca = studySchema.parse({
    scanType: "Carotid Duplex",
    observations: [o("ICA", "left", "occluded")],
  });
  const priorWith = (conclusions: Conclusion[]) => ({
    comparison: { examDate: "2025-02-20", prior: { examDate: "2024-09-01", conclusions, measurements: [] } },
  });
  const ica = (side: "left" | "right", grade: string) =>
    ({ site: "ICA", side, category: "carotid_stenosis", grade, basis: "" }) as Conclusion;

  it("an ICA occlusion the prior study graded at the same side is known and does not fire", () => {
    expect(rulesOf(generateDraft(occludedIca, priorWith([ica("left", "occlusion")])))).toEqual([]);
  });

  it("fires when the prior showed a stenosis there, or the occlusion on the other side, or without a prior", () => {
    expect(rulesOf(generateDraft(occludedIca, priorWith([ica("left", "70_99")])))).toEqual(["carotid_severe"]);
    expect(rulesOf(generateDraft(occludedIca, priorWith([ica("right", "occlusion")])))).toEqual(["carotid_severe"]);
    expect(rulesOf(generateDraft(occludedIca))).toEqual(["carotid_severe"]);
  });

  it("a 70-99% stenosis fires even when the prior showed it (the rule is on the grade, not on its being new)", () => {
    const severe = studySchema.parse({
      scanType: "Carotid Duplex",
      measurements: [m("ICA_PROX", "left", "PSV", 300)],
      observations: [o("ICA", "left", "plaque")],
    });
    expect(rulesOf(generateDraft(severe, priorWith([ica("left", "70_99")])))).toEqual(["carotid_severe"]);
  });

  it("a renal artery occlusion already graded on the prior study does not fire", () => {
    const renal = studySchema.parse({ scanType: "Renal Duplex", observations: [o("RA", "right", "occluded")] });
    const known = {
      site: "RA",
      side: "right",
      category: "renal_stenosis",
      grade: "occlusion",
      basis: "",
    } as Conclusion;
    expect(rulesOf(generateDraft(renal))).toEqual(["renal_occlusion"]);
    expect(rulesOf(generateDraft(renal, priorWith([known])))).toEqual([]);
  });
});

describe("critical results: the clinic's rules and the draft contract", () => {
  it("leaves out the rules a clinic turned off, and keeps the others", () => {
    const draft = draftOf("Carotid Duplex", [], [o("ICA", "left", "occluded")]);
    expect(rulesOf(draft)).toEqual(["carotid_severe"]);
    const rules = enabledRules(["carotid_severe"]);
    expect(rules).toEqual(criticalRuleIds.filter((id) => id !== "carotid_severe"));
    expect(enabledRules()).toEqual([...criticalRuleIds]);
  });

  it("is part of the draft contract, and empty for a normal study", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "right", "PSV", 80)], [o("ICA", "right", "no_plaque")]);
    expect(draft.criticalResults).toEqual([]);
    const critical = draftOf("Carotid Duplex", [], [o("ICA", "right", "occluded")]);
    expect(draftSchema.parse(critical)).toEqual(critical);
  });
});
