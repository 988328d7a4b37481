import { describe, expect, it } from "vitest";
import { draftSchema, studySchema } from "../contracts/study";
import { criteriaSets } from "./criteria-sets";
import { generateDraft } from "./generate-draft";
import { draftOf, m, o } from "./testing/study-builders";
import { scanTypes } from "./vocabulary";

const lineIndex = (text: string, start: string) => text.split("\n").findIndex((line) => line.startsWith(start));

describe("generateDraft", () => {
  it.each(scanTypes)("drafts a %s study that matches the draft contract", (scanType) => {
    const draft = draftOf(scanType);
    expect(draftSchema.parse(draft)).toEqual(draft);
    expect(draft.studyType).toBe(scanType);
    expect(draft.indication).toBe("Not stated.");
    expect(draft.warnings.join(" ")).toMatch(/no usable measurements or observations/);
  });

  it("keeps the indication as given", () => {
    expect(draftOf("Carotid Duplex", [], [], { indication: "  Left sided TIA " }).indication).toBe("Left sided TIA");
  });

  it("writes right before left, and proximal to distal, whatever the input order", () => {
    const draft = draftOf("Carotid Duplex", [
      m("ICA_DIST", "left", "PSV", 70),
      m("ICA_PROX", "left", "PSV", 90),
      m("CCA_MID", "right", "PSV", 85),
      m("ICA_MID", "right", "PSV", 135),
      m("ICA_PROX", "right", "PSV", 128),
    ]);
    const findings = draft.findings;
    expect(lineIndex(findings, "Right common carotid")).toBeLessThan(lineIndex(findings, "Right internal carotid"));
    expect(lineIndex(findings, "Right internal carotid")).toBeLessThan(lineIndex(findings, "Left internal carotid"));
    expect(findings).toContain("Right internal carotid artery: proximal PSV 128 cm/s; mid PSV 135 cm/s;");
    expect(findings).toContain("Left internal carotid artery: proximal PSV 90 cm/s; distal PSV 70 cm/s.");
    expect(draft.conclusions.map((c) => c.side)).toEqual(["right", "left"]);
    expect(lineIndex(draft.impression, "Right")).toBeLessThan(lineIndex(draft.impression, "Left"));
  });

  it("reads the aorta before the paired iliac arteries in an abdominal study", () => {
    const draft = draftOf("Abdominal Aorta", [
      m("CIA", "left", "DIAMETER_MM", 12),
      m("CIA", "right", "DIAMETER_MM", 13),
      m("AO", null, "DIAMETER_MM", 20),
    ]);
    expect(draft.findings.split("\n").map((line) => line.split(":")[0])).toEqual([
      "Abdominal aorta",
      "Right common iliac artery",
      "Left common iliac artery",
    ]);
  });

  it("names sides and sites in plain words", () => {
    const draft = draftOf(
      "Lower Limb Venous",
      [m("GSV_PROX", "left", "DIAMETER_MM", 6.1)],
      [o("SFJ", "left", "thrombus")],
    );
    expect(draft.findings).toContain("Left great saphenous vein: proximal diameter 6.1 mm.");
    expect(draft.findings).toContain("Left saphenofemoral junction: thrombus seen.");
    expect(draft.findings).not.toMatch(/\b(GSV|SFJ)\b/);
  });

  it("sets aside measurements that do not belong to the scan type, with a warning", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "right", "PSV", 150), m("AO", null, "DIAMETER_MM", 52)]);
    expect(draft.warnings).toContain(
      "Diameter 52 mm at the abdominal aorta does not belong to a Carotid Duplex study and was not used.",
    );
    expect(draft.findings).not.toContain("52");
    expect(draft.impression).not.toContain("aneurysm");
  });

  it("sets aside a measurement of a paired vessel that has no side", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", null, "PSV", 300)]);
    expect(draft.conclusions).toHaveLength(0);
    expect(draft.warnings.join(" ")).toMatch(/PSV 300 cm\/s at the internal carotid artery has no side/);
  });

  it("refuses a velocity in a unit it cannot convert", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "right", "PSV", 2.5, "knots")]);
    expect(draft.conclusions).toHaveLength(0);
    expect(draft.warnings.join(" ")).toMatch(
      /PSV 2.5 at the right internal carotid artery is in "knots", a unit that cannot be converted to cm\/s/,
    );
    expect(draft.impression).toContain(
      "right internal carotid artery (not graded, value not usable: PSV 2.5 knots (unit not recognized))",
    );
    expect(draftOf("Carotid Duplex", [m("ICA", "right", "PSV", 250, "cm/sec")]).conclusions).toHaveLength(1);
  });

  it("shows both of two differing values and warns", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA_PROX", "left", "PSV", 240), m("ICA_PROX", "left", "PSV", 180)]);
    expect(draft.findings).toContain("proximal PSV 240 and 180 cm/s");
    expect(draft.warnings.join(" ")).toMatch(/Different values were recorded for the left proximal internal carotid/);
  });

  it("accepts lower-case site codes", () => {
    const study = studySchema.parse({
      scanType: "Carotid Duplex",
      measurements: [{ site: "ica_prox", side: "right", parameter: "PSV", value: 260 }],
    });
    expect(generateDraft(study).conclusions[0]).toMatchObject({ site: "ICA", grade: "70_99" });
  });

  it("is deterministic", () => {
    const study = studySchema.parse({
      scanType: "Lower Limb Venous",
      measurements: [m("GSV", "right", "REFLUX_MS", 900), m("CFV", "right", "REFLUX_MS", 1200)],
      observations: [o("CFV", "right", "compressible")],
    });
    expect(generateDraft(study)).toEqual(generateDraft(study));
  });

  it("lists its criteria sets with a label and a source", () => {
    expect(criteriaSets.map((s) => s.id)).toEqual(["default", "carotid-sru-strict"]);
    for (const set of criteriaSets) {
      expect(set.label).not.toBe("");
      expect(set.source).not.toBe("");
    }
  });

  it("names the criteria in every conclusion's basis", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "right", "PSV", 140)], [o("ICA", "right", "plaque")]);
    expect(draft.conclusions[0]?.basis).toMatch(/^SRU consensus conference 2003 \(Grant et al\./);
  });
});
