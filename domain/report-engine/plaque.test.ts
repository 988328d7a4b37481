import { describe, expect, it } from "vitest";
import { draftOf, gradeOf, m, o } from "./testing/study-builders";
import { observationFindings, plaqueCharacters } from "./vocabulary";

// Issue 31, item 10: plaque echogenicity and surface are in the vocabulary and described in Findings.

describe("plaque character", () => {
  it("is in the one vocabulary", () => {
    expect(observationFindings).toEqual(expect.arrayContaining([...plaqueCharacters]));
  });

  it("describes the plaque in Findings", () => {
    const draft = draftOf(
      "Carotid Duplex",
      [m("ICA", "right", "PSV", 100)],
      [o("ICA", "right", "plaque"), o("ICA", "right", "echolucent"), o("ICA", "right", "ulcerated")],
    );
    expect(draft.findings).toContain("plaque present (echolucent, ulcerated surface)");
    expect(draft.impression).toContain(
      "Right internal carotid artery: less than 50% stenosis (ICA PSV 100 cm/s); ulcerated plaque.",
    );
  });

  it("a plaque's character recorded without 'plaque' still means a plaque: less than 50%, not normal", () => {
    const draft = draftOf("Carotid Duplex", [m("ICA", "left", "PSV", 100)], [o("ICA", "left", "calcified")]);
    expect(gradeOf(draft, "carotid_stenosis", "left")).toBe("lt50");
    expect(draft.findings).toContain("plaque (calcified)");
  });

  it("warns when a plaque's character contradicts 'no plaque' or another character", () => {
    const draft = draftOf(
      "Carotid Duplex",
      [],
      [
        o("BULB", "right", "no_plaque"),
        o("BULB", "right", "heterogeneous"),
        o("ICA", "left", "smooth_surface"),
        o("ICA", "left", "ulcerated"),
      ],
    );
    const warnings = draft.warnings.join(" ");
    expect(warnings).toMatch(/Conflicting observations at the right carotid bulb: no plaque and heterogeneous plaque/);
    expect(warnings).toMatch(
      /Conflicting observations at the left internal carotid artery: smooth plaque surface and ulcerated plaque/,
    );
  });
});
