import { describe, expect, it } from "vitest";
import { draftOf, gradeOf, m, o } from "../testing/study-builders";

const carotid = (
  psv: number,
  extra: Parameters<typeof draftOf>[1] = [],
  observations = [o("ICA", "right", "plaque")],
) => draftOf("Carotid Duplex", [m("ICA_PROX", "right", "PSV", psv), ...extra], observations);

describe("carotid stenosis, SRU 2003 (default set)", () => {
  it.each([
    [124, "lt50"],
    [125, "50_69"],
    [126, "50_69"],
    [229, "50_69"],
    [230, "50_69"],
    [231, "70_99"],
  ])("ICA PSV %s cm/s with plaque grades %s", (psv, grade) => {
    expect(gradeOf(carotid(psv), "carotid_stenosis", "right")).toBe(grade);
  });

  it("PSV below 125 without plaque is normal, with plaque less than 50 %", () => {
    expect(gradeOf(carotid(124, [], [o("ICA", "right", "no_plaque")]), "carotid_stenosis", "right")).toBe("normal");
    expect(gradeOf(carotid(124, [], [o("BULB", "right", "plaque")]), "carotid_stenosis", "right")).toBe("lt50");
  });

  it("warns when plaque was not recorded and the grade depends on it", () => {
    const draft = carotid(100, [], []);
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("normal");
    expect(draft.warnings.join(" ")).toMatch(/Plaque was not recorded for the right internal carotid artery/);
  });

  it("the highest PSV along the ICA grades the side", () => {
    const draft = carotid(110, [m("ICA_MID", "right", "PSV", 240), m("ICA_DIST", "right", "PSV", 90)]);
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("70_99");
    expect(draft.conclusions[0]?.basis).toContain("highest ICA PSV 240 cm/s (ICA_MID)");
  });

  it("near occlusion and occlusion come from observations", () => {
    expect(gradeOf(carotid(40, [], [o("ICA", "right", "near_occlusion")]), "carotid_stenosis", "right")).toBe(
      "near_occlusion",
    );
    const occluded = draftOf("Carotid Duplex", [], [o("ICA", "right", "occluded")]);
    expect(gradeOf(occluded, "carotid_stenosis", "right")).toBe("occlusion");
    expect(gradeOf(draftOf("Carotid Duplex", [], [o("ICA_PROX", "left", "no_flow")]), "carotid_stenosis", "left")).toBe(
      "occlusion",
    );
  });

  it("an occluded ICA with a recorded PSV is graded occlusion and flagged", () => {
    const draft = carotid(80, [], [o("ICA", "right", "occluded")]);
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("occlusion");
    expect(draft.warnings.join(" ")).toMatch(/recorded as occluded but has a PSV of 80 cm\/s/);
  });

  describe("additional parameters disagree: graded by PSV with a warning naming the parameter", () => {
    it.each([
      [1.99, false],
      [2.0, true],
      [4.0, true],
      [4.01, true],
    ])("measured ICA/CCA ratio %s with PSV 124 (less than 50 %)", (ratio, warns) => {
      const draft = carotid(124, [m("ICA", "right", "RATIO_ICA_CCA", ratio)]);
      expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("lt50");
      expect(draft.warnings.some((w) => w.includes(`ICA/CCA ratio ${ratio} indicates`))).toBe(warns);
    });

    it.each([
      [1.99, "less than 50%"],
      [2.0, null],
      [4.0, null],
      [4.01, "70-99%"],
    ])("measured ICA/CCA ratio %s with PSV 200 (50-69 %)", (ratio, disagreeing) => {
      const draft = carotid(200, [m("ICA", "right", "RATIO_ICA_CCA", ratio)]);
      expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("50_69");
      const warning = draft.warnings.find((w) => w.includes("ICA/CCA ratio"));
      if (disagreeing) expect(warning).toContain(`indicates ${disagreeing} but the PSV 200 cm/s indicates 50-69%`);
      else expect(warning).toBeUndefined();
    });

    it.each([
      [39, "less than 50%"],
      [40, null],
      [100, null],
      [101, "70-99%"],
    ])("ICA EDV %s with PSV 200", (edv, disagreeing) => {
      const draft = carotid(200, [m("ICA_PROX", "right", "EDV", edv)]);
      const warning = draft.warnings.find((w) => w.includes("EDV"));
      if (disagreeing) expect(warning).toContain(`EDV ${edv} cm/s indicates ${disagreeing}`);
      else expect(warning).toBeUndefined();
    });
  });

  it("computes the ICA/CCA ratio from the distal CCA and labels it computed", () => {
    const draft = carotid(250, [m("CCA_PROX", "right", "PSV", 100), m("CCA_DIST", "right", "PSV", 80)]);
    expect(draft.findings).toContain("ICA/CCA PSV ratio 3.13 (computed)");
    expect(draft.conclusions[0]?.basis).toContain("ICA/CCA ratio 3.13 (computed: ICA PSV 250 / CCA_DIST PSV 80)");
  });

  it("uses a measured ratio rather than computing one", () => {
    const draft = carotid(250, [m("CCA_DIST", "right", "PSV", 80), m("ICA", "right", "RATIO_ICA_CCA", 4.2)]);
    expect(draft.findings).toContain("ICA/CCA PSV ratio 4.2");
    expect(draft.findings).not.toContain("(computed)");
  });

  it("states a side with no ICA data as not assessed", () => {
    const draft = carotid(150);
    expect(draft.impression).toMatch(/^Limitations: .*left internal carotid artery.* \(not assessed\)/m);
    expect(draft.findings).toContain("Left internal carotid artery: not assessed.");
  });
});

describe("carotid stenosis, stricter set (multicentre revalidation)", () => {
  const strict = (psv: number, measurements: Parameters<typeof draftOf>[1] = []) =>
    draftOf("Carotid Duplex", [m("ICA_PROX", "right", "PSV", psv), ...measurements], [o("ICA", "right", "plaque")], {
      criteriaSetId: "carotid-sru-strict",
    });

  it.each([
    [179, "lt50"],
    [180, "50_69"],
    [230, "50_69"],
    [231, "70_99"],
  ])("PSV %s alone grades %s", (psv, grade) => {
    expect(gradeOf(strict(psv, [m("ICA", "right", "RATIO_ICA_CCA", 1.5)]), "carotid_stenosis", "right")).toBe(grade);
  });

  it.each([
    [124, 2.5, "lt50"],
    [125, 1.99, "lt50"],
    [125, 2.0, "50_69"],
    [150, 2.0, "50_69"],
  ])("PSV %s with ratio %s grades %s", (psv, ratio, grade) => {
    expect(gradeOf(strict(psv, [m("ICA", "right", "RATIO_ICA_CCA", ratio)]), "carotid_stenosis", "right")).toBe(grade);
  });

  it("uses a computed ratio, and warns when no ratio can be had", () => {
    expect(gradeOf(strict(150, [m("CCA_DIST", "right", "PSV", 75)]), "carotid_stenosis", "right")).toBe("50_69");
    const draft = strict(150);
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("lt50");
    expect(draft.warnings.join(" ")).toMatch(/needs an ICA\/CCA ratio/);
    expect(draft.conclusions[0]?.basis).toContain("PMC8493430");
  });
});

describe("vertebral flow", () => {
  it.each([
    ["antegrade", "antegrade"],
    ["to_and_fro", "partial_steal"],
    ["retrograde", "retrograde"],
    ["no_flow", "absent"],
  ] as const)("%s flow grades %s", (finding, grade) => {
    const draft = draftOf("Vertebral Duplex", [], [o("VA", "left", finding)]);
    expect(gradeOf(draft, "vertebral_flow", "left")).toBe(grade);
    expect(draft.impression).toContain("Limitations: right vertebral artery (not assessed).");
  });

  it("conflicting directions grade the worse one and warn", () => {
    const draft = draftOf("Vertebral Duplex", [], [o("VA", "right", "antegrade"), o("VA", "right", "retrograde")]);
    expect(gradeOf(draft, "vertebral_flow", "right")).toBe("retrograde");
    expect(draft.warnings.join(" ")).toMatch(/Conflicting observations at the right vertebral artery/);
  });

  it("is graded inside a carotid study, and a VA without direction is said to be unassessed", () => {
    const draft = draftOf("Carotid Duplex", [m("VA", "left", "PSV", 45)], [o("VA", "right", "antegrade")]);
    expect(gradeOf(draft, "vertebral_flow", "right")).toBe("antegrade");
    expect(draft.impression).toContain("left vertebral artery (flow direction not assessed)");
  });
});
