import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m, o } from "../testing/study-builders";

describe("deep vein thrombosis by compression", () => {
  it.each([
    ["compressible", "absent"],
    ["non_compressible", "present"],
    ["thrombus", "present"],
  ] as const)("%s grades %s", (finding, grade) => {
    const draft = draftOf("DVT Assessment", [], [o("POPV", "left", finding)]);
    expect(gradeOf(draft, "dvt", "left")).toBe(grade);
  });

  it("a compressible segment with thrombus is thrombosis, with a warning", () => {
    const draft = draftOf(
      "DVT Assessment",
      [],
      [o("FV_MID", "right", "compressible"), o("FV_MID", "right", "thrombus")],
    );
    expect(gradeOf(draft, "dvt", "right")).toBe("present");
    expect(draft.warnings.join(" ")).toMatch(/Conflicting observations at the right mid femoral vein/);
  });

  it("names deep and superficial thrombosis, and the deep veins not examined", () => {
    const draft = draftOf(
      "DVT Assessment",
      [],
      [o("CFV", "right", "compressible"), o("FV", "right", "non_compressible"), o("GSV", "right", "thrombus")],
    );
    expect(draft.impression).toContain("Right femoral vein: thrombosis (deep vein thrombosis).");
    expect(draft.impression).toContain("Right great saphenous vein: thrombosis (superficial vein thrombosis).");
    expect(draft.impression).toContain(
      "Limitations: right popliteal vein, posterior tibial veins and peroneal veins (compression not assessed).",
    );
    expect(draft.findings).toContain("Right popliteal vein: not assessed.");
  });

  it("uses the arm's deep veins as key vessels for an arm study", () => {
    const draft = draftOf("DVT Assessment", [], [o("AXV", "left", "compressible")]);
    expect(draft.impression).toContain(
      "Limitations: left internal jugular vein, subclavian vein and brachial veins (compression not assessed).",
    );
    expect(draft.impression).not.toContain("femoral");
  });
});

describe("venous reflux (Labropoulos 2003)", () => {
  it.each([
    ["CFV", 1000, "absent"],
    ["CFV", 1001, "present"],
    ["FV", 1000, "absent"],
    ["FV_MID", 1001, "present"],
    ["PFV", 1001, "present"],
    ["POPV", 1000, "absent"],
    ["POPV", 1001, "present"],
    ["GSV_PROX", 500, "absent"],
    ["GSV_PROX", 501, "present"],
    ["SSV", 500, "absent"],
    ["SSV", 501, "present"],
    ["SFJ", 501, "present"],
    ["SPJ", 500, "absent"],
    ["PTV", 501, "present"],
  ])("%s reflux %s ms grades %s", (site, ms, grade) => {
    const draft = draftOf("Lower Limb Venous", [m(site, "right", "REFLUX_MS", ms)]);
    const [c] = conclusionsOf(draft, "venous_reflux", "right");
    expect(c?.grade).toBe(grade);
    expect(c?.site).toBe(site);
  });

  it("applies the superficial threshold to arm veins", () => {
    const draft = draftOf("Upper Limb Venous", [
      m("CEPV", "left", "REFLUX_MS", 501),
      m("AXV", "left", "REFLUX_MS", 600),
    ]);
    expect(conclusionsOf(draft, "venous_reflux", "left").map((c) => c.grade)).toEqual(["present", "present"]);
  });

  it("groups segments that share a grade, proximal to distal", () => {
    const draft = draftOf("Lower Limb Venous", [
      m("GSV_DIST", "left", "REFLUX_MS", 900),
      m("GSV_PROX", "left", "REFLUX_MS", 1800),
      m("GSV_MID", "left", "REFLUX_MS", 300),
    ]);
    expect(draft.impression).toContain(
      "Left great saphenous vein (proximal and distal): pathological superficial venous reflux.",
    );
    expect(draft.impression).toContain("Left great saphenous vein (mid): no pathological reflux.");
    expect(draft.findings).toContain(
      "Left great saphenous vein: proximal reflux time 1800 ms; mid reflux time 300 ms; distal reflux time 900 ms.",
    );
  });

  it("converts a reflux time written in seconds exactly, keeping what the sheet wrote", () => {
    const draft = draftOf("Lower Limb Venous", [m("GSV", "right", "REFLUX_MS", 0.8, "s")]);
    expect(gradeOf(draft, "venous_reflux", "right")).toBe("present");
    expect(draft.findings).toContain("reflux time 800 ms (recorded as 0.8 s)");
  });
});

describe("perforators (SVS/AVF 2011)", () => {
  it.each([
    [500, 3.5, "pathologic"],
    [499, 3.5, "normal"],
    [500, 3.4, "normal"],
    [1200, 5, "pathologic"],
  ])("reflux %s ms and diameter %s mm grade %s", (ms, mm, grade) => {
    const draft = draftOf("Lower Limb Venous", [
      m("PERF", "left", "REFLUX_MS", ms),
      m("PERF", "left", "DIAMETER_MM", mm),
    ]);
    expect(gradeOf(draft, "perforator", "left")).toBe(grade);
    expect(conclusionsOf(draft, "venous_reflux")).toHaveLength(0);
  });

  it("grades normal when one criterion fails even if the other is missing", () => {
    expect(gradeOf(draftOf("Lower Limb Venous", [m("PERF", "left", "REFLUX_MS", 300)]), "perforator", "left")).toBe(
      "normal",
    );
  });

  it("does not grade when the missing value would decide, and says so", () => {
    const draft = draftOf("Lower Limb Venous", [m("PERF", "left", "REFLUX_MS", 800)]);
    expect(conclusionsOf(draft, "perforator")).toHaveLength(0);
    expect(draft.warnings.join(" ")).toMatch(/left perforator vein cannot be graded: its diameter was not recorded/);
    expect(draft.impression).toContain("left perforator vein (not graded, diameter not recorded)");
  });
});

describe("EHIT after endovenous ablation", () => {
  it.each([
    [0, "class1"],
    [1, "class2"],
    [49, "class2"],
    [50, "class3"],
    [99, "class3"],
    [100, "class4"],
  ])("extension %s%% grades %s", (pct, grade) => {
    const draft = draftOf("Post Endovenous Intervention", [m("SFJ", "right", "EXTENSION_PCT", pct)]);
    expect(gradeOf(draft, "ehit", "right")).toBe(grade);
    expect(draft.findings).toContain(`thrombus extension into the deep vein ${pct}%`);
  });

  it("an occluded deep vein is class 4 for its junction", () => {
    const draft = draftOf(
      "Post Endovenous Intervention",
      [m("SPJ", "left", "EXTENSION_PCT", 10)],
      [o("POPV", "left", "occluded")],
    );
    expect(gradeOf(draft, "ehit", "left")).toBe("class4");
  });

  it("says when no EHIT class could be assigned", () => {
    const draft = draftOf("Post Endovenous Intervention", [], [o("GSV", "right", "occluded")]);
    expect(conclusionsOf(draft, "ehit")).toHaveLength(0);
    expect(draft.impression).toContain("EHIT class not assessed");
    expect(draft.warnings.join(" ")).toMatch(/no EHIT class was assigned/);
  });

  it("rejects an extension above 100 % as invalid input", async () => {
    const { studySchema } = await import("../../contracts/study");
    const result = studySchema.safeParse({
      scanType: "Post Endovenous Intervention",
      measurements: [m("SFJ", "right", "EXTENSION_PCT", 101)],
    });
    expect(result.success).toBe(false);
  });
});
