import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { studySchema } from "../contracts/study";
import { parseTypedMeasurements } from "../drawing/typed-measurements";
import { generateDraft } from "../report-engine/generate-draft";
import { allSegments, segmentLabels } from "./segments";
import { isSiteCode, parseSiteCode, siteCode, siteLabel, siteWords } from "./site-codes";
import { baseSiteCodes, siteEntries } from "./sites";
import { siteFromLabel } from "./worksheet-labels";

const fixtures = join(import.meta.dirname, "../../fixtures/worksheets");

/** Every row label the fixture worksheets print ("GSV Knee", "Pop V", "CCA Prox"). */
const fixtureRowLabels = (): string[] => {
  const labels = new Set<string>();
  for (const file of readdirSync(fixtures).filter((f) => /^ws-.*\.json$/.test(f))) {
    const truth = JSON.parse(readFileSync(join(fixtures, file), "utf8")) as { measurements: { vessel: string }[] };
    for (const m of truth.measurements) labels.add(m.vessel);
  }
  return [...labels];
};

describe("the clinical vocabulary", () => {
  it("maps every row label of the fixture worksheets to a site code a study accepts", () => {
    const labels = fixtureRowLabels();
    expect(labels).toEqual(expect.arrayContaining(["GSV Knee", "GSV Calf", "GSV Prox Thigh", "Pop V", "Bulb"]));
    for (const label of labels) {
      const code = siteFromLabel(label);
      expect(code, label).not.toBeNull();
      expect(isSiteCode(code!), `${label} -> ${code}`).toBe(true);
    }
  });

  it("has every great and small saphenous segment a worksheet prints", () => {
    const expected: [string, string][] = [
      ["GSV Prox Thigh", "GSV_PROX"],
      ["GSV Mid Thigh", "GSV_MID"],
      ["GSV Dist Thigh", "GSV_DIST"],
      ["GSV Knee", "GSV_KNEE"],
      ["GSV Calf", "GSV_CALF"],
      ["GSV Upper Calf", "GSV_CALF_PROX"],
      ["GSV Mid Calf", "GSV_CALF_MID"],
      ["GSV Lower Calf", "GSV_CALF_DIST"],
      ["GSV Ankle", "GSV_ANKLE"],
      ["LSV Mid Thigh", "GSV_MID"],
      ["SSV Prox", "SSV_PROX"],
      ["SSV Mid Calf", "SSV_CALF_MID"],
      ["SSV Dist", "SSV_DIST"],
      ["AASV Thigh", "AASV_THIGH"],
      ["Perf Calf", "PERF_CALF"],
      ["Popliteal Vein", "POPV"],
      ["Subclavian Vein", "SCV"],
    ];
    for (const [label, code] of expected) expect(siteFromLabel(label), label).toBe(code);
    // A leg position on a vessel that has none is not a site.
    expect(siteFromLabel("ICA Knee")).toBeNull();
    expect(parseSiteCode("ICA_KNEE")).toBeNull();
  });

  it("gives only codes it can parse, for every printed form of every vessel and segment", () => {
    for (const entry of siteEntries) {
      for (const words of [[""], ...Object.values(segmentLabels)]) {
        for (const word of words) {
          const code = siteFromLabel(`${entry.name} ${word}`);
          if (code !== null) expect(isSiteCode(code), code).toBe(true);
        }
      }
      for (const segment of allSegments) {
        const code = siteCode(entry.code, segment);
        if (code) expect(parseSiteCode(code)).toEqual({ code, base: entry.code, segment });
      }
    }
  });

  it("parses codes whose vessel has an underscore and multi-word positions", () => {
    expect(parseSiteCode("ba_arm")).toEqual({ code: "BA_ARM", base: "BA_ARM", segment: null });
    expect(parseSiteCode("ICA_EXTRA_MID")).toEqual({ code: "ICA_EXTRA_MID", base: "ICA_EXTRA", segment: "MID" });
    expect(parseSiteCode("GSV_CALF_PROX")).toEqual({ code: "GSV_CALF_PROX", base: "GSV", segment: "CALF_PROX" });
    expect(parseSiteCode("GSV_FOO")).toBeNull();
  });

  it("names sites and segments in words", () => {
    expect(siteLabel(parseSiteCode("GSV_KNEE")!, "left")).toBe("left great saphenous vein at the knee");
    expect(siteLabel(parseSiteCode("SFA_PROX")!, "right")).toBe("right proximal superficial femoral artery");
    expect(siteWords("SSV_CALF_MID")).toBe("Small saphenous vein, mid-calf");
    expect(new Set(baseSiteCodes).size).toBe(baseSiteCodes.length);
  });

  it("reads typed leg positions the way worksheets print them", () => {
    expect(parseTypedMeasurements("L GSV knee reflux 1.2 s\nR LSV upper calf diam 4.1\nR ICA knee PSV 120")).toEqual([
      { site: "GSV_KNEE", side: "left", parameter: "REFLUX_MS", value: 1200, unit: "ms" },
      { site: "GSV_CALF_PROX", side: "right", parameter: "DIAMETER_MM", value: 4.1, unit: "mm" },
      { site: "ICA", side: "right", parameter: "PSV", value: 120, unit: "cm/s" },
    ]);
  });
});

describe("drafts from every site a worksheet carries", () => {
  const study = (measurements: object[], observations: object[] = []) =>
    studySchema.parse({ scanType: "Lower Limb Venous", measurements, observations });

  it("grades great saphenous reflux at the knee and calf as superficial vein reflux", () => {
    const draft = generateDraft(
      study([
        { site: "GSV_KNEE", side: "left", parameter: "REFLUX_MS", value: 1200, unit: "ms" },
        { site: "GSV_CALF", side: "left", parameter: "REFLUX_MS", value: 300, unit: "ms" },
        { site: "GSV_KNEE", side: "left", parameter: "DIAMETER_MM", value: 4.2, unit: "mm" },
      ]),
    );
    expect(draft.conclusions).toEqual([
      expect.objectContaining({ site: "GSV_KNEE", side: "left", category: "venous_reflux", grade: "present" }),
      expect.objectContaining({ site: "GSV_CALF", side: "left", category: "venous_reflux", grade: "absent" }),
    ]);
    expect(draft.findings).toContain(
      "Left great saphenous vein: knee reflux time 1200 ms, diameter 4.2 mm; calf reflux time 300 ms.",
    );
    expect(draft.impression).toContain("Left great saphenous vein (knee): pathological superficial venous reflux.");
  });

  it("shows a value at a vessel the criteria do not grade as measured, marked, with a warning, and grades nothing from it", () => {
    const draft = generateDraft(
      study(
        [
          { site: "AASV_THIGH", side: "right", parameter: "REFLUX_MS", value: 2500, unit: "ms" },
          { site: "CFV", side: "right", parameter: "REFLUX_MS", value: 400, unit: "ms" },
        ],
        [{ site: "GASTV", side: "right", finding: "thrombus" }],
      ),
    );
    expect(draft.findings).toContain(
      "Right anterior accessory saphenous vein (not graded): thigh reflux time 2500 ms.",
    );
    expect(draft.findings).toContain("Right gastrocnemius veins (not graded): thrombus seen.");
    expect(draft.warnings).toContain(
      'The criteria do not grade the right anterior accessory saphenous vein: its values are shown in the findings as measured, marked "not graded".',
    );
    expect(draft.warnings.join(" ")).toMatch(/do not grade the right gastrocnemius veins/);
    expect(draft.conclusions.map((c) => c.site)).toEqual(["CFV"]);
    expect(draft.impression).not.toMatch(/accessory|gastrocnemius|thrombosis/i);
  });
});
