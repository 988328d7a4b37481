import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m, o } from "../testing/study-builders";

// Issue 31, item 1 and 6: an occluded vein is thrombosed unless the sheet says chronic or treated.

describe("an occluded deep vein", () => {
  it.each(["POPV", "CFV", "FV_MID", "PTV", "AXV"])("%s occluded is deep vein thrombosis", (site) => {
    const draft = draftOf("DVT Assessment", [], [o(site, "right", "occluded")]);
    expect(gradeOf(draft, "dvt", "right")).toBe("present");
    expect(conclusionsOf(draft, "dvt", "right")[0]?.basis).toMatch(/occluded/);
    expect(draft.impression).toMatch(/: thrombosis \(deep vein thrombosis\)\./);
  });

  it("the issue's study: occluded popliteal vein is not 'compression not assessed'", () => {
    const draft = draftOf("Lower Limb Venous", [], [o("POPV", "right", "occluded")]);
    expect(draft.impression).toContain("Right popliteal vein: thrombosis (deep vein thrombosis).");
  });

  it("recorded as chronic it is post-thrombotic change, not an acute thrombosis", () => {
    const draft = draftOf("DVT Assessment", [], [o("POPV", "left", "occluded"), o("POPV", "left", "chronic")]);
    expect(conclusionsOf(draft, "dvt", "left")).toHaveLength(0);
    expect(draft.impression).toContain("Left popliteal vein: chronic post-thrombotic change, occluded.");
  });

  it("chronic without occlusion or thrombus does not change a compressible vein's grade", () => {
    const draft = draftOf("DVT Assessment", [], [o("FV", "left", "compressible"), o("FV", "left", "chronic")]);
    expect(gradeOf(draft, "dvt", "left")).toBe("absent");
  });

  it("after ablation, an occluded deep vein is DVT and EHIT class 4 on the lines that agree", () => {
    const draft = draftOf(
      "Post Endovenous Intervention",
      [m("SFJ", "right", "EXTENSION_PCT", 100)],
      [o("CFV", "right", "occluded"), o("GSV", "right", "occluded")],
    );
    expect(gradeOf(draft, "dvt", "right")).toBe("present");
    expect(gradeOf(draft, "ehit", "right")).toBe("class4");
    expect(draft.impression).not.toMatch(/compression not assessed/);
  });
});

describe("a treated (ablated) vein", () => {
  it("its closure after ablation is in the impression, not graded as thrombosis", () => {
    const draft = draftOf("Post Endovenous Intervention", [], [o("GSV_PROX", "left", "occluded")]);
    expect(conclusionsOf(draft, "dvt")).toHaveLength(0);
    expect(draft.impression).toContain(
      "Left great saphenous vein (proximal): occluded, consistent with closure of the treated vein.",
    );
  });

  it("marked treated in a venous study it is closure; unmarked it is superficial vein thrombosis", () => {
    const treated = draftOf("Lower Limb Venous", [], [o("SSV", "right", "occluded"), o("SSV", "right", "treated")]);
    expect(conclusionsOf(treated, "dvt")).toHaveLength(0);
    expect(treated.impression).toContain("occluded, consistent with closure of the treated vein");
    const untreated = draftOf("Lower Limb Venous", [], [o("SSV", "right", "occluded")]);
    expect(gradeOf(untreated, "dvt", "right")).toBe("present");
    expect(untreated.impression).toContain("thrombosis (superficial vein thrombosis)");
  });

  it("a treated vein that still compresses is said to be not closed", () => {
    const draft = draftOf(
      "Post Endovenous Intervention",
      [],
      [o("GSV", "left", "compressible"), o("GSV", "left", "treated")],
    );
    expect(draft.impression).toContain("Left great saphenous vein: treated vein compressible, not closed.");
  });
});
