import { describe, expect, it } from "vitest";
import { conclusionsOf, draftOf, gradeOf, m, o } from "../testing/study-builders";

// Issue 31, items 2 and 5: no draft states two things that cannot both be true, and ratios are graded exactly.

describe("TCD: the Lindegaard ratio is read only at a raised velocity (>= 120 cm/s)", () => {
  it.each([
    [119, 0],
    [120, 1],
    [121, 1],
  ])("MCA MFV %s cm/s with ratio 2 gives %s Lindegaard conclusion(s)", (mfv, count) => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "right", "MFV", mfv), m("MCA", "right", "LINDEGAARD", 2)]);
    expect(conclusionsOf(draft, "lindegaard", "right")).toHaveLength(count);
    if (count === 0) {
      expect(draft.impression).toContain("Right middle cerebral artery: no vasospasm (mean flow velocity 119 cm/s).");
      expect(draft.impression).not.toMatch(/hyperemia/);
      expect(draft.findings).toContain("Lindegaard ratio 2");
    }
  });

  it("a raised velocity with a ratio below 3 is one statement (hyperemia), with a warning", () => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "left", "MFV", 210), m("ICA_EXTRA", "left", "MFV", 80)]);
    expect(gradeOf(draft, "tcd_vasospasm", "left")).toBe("severe");
    expect(gradeOf(draft, "lindegaard", "left")).toBe("hyperemia");
    expect(draft.impression).toContain(
      "Left middle cerebral artery: mean flow velocity in the severe range (210 cm/s) with a Lindegaard ratio below 3: hyperemia rather than vasospasm.",
    );
    expect(draft.impression).not.toMatch(/severe vasospasm/);
    expect(draft.warnings.join(" ")).toMatch(/hyperemia is likelier than vasospasm/);
  });
});

describe("conflicts between a vessel and its segments", () => {
  it("'femoral vein: compressible' beside 'femoral vein (mid): thrombus' warns, and the impression does not say both", () => {
    const draft = draftOf(
      "DVT Assessment",
      [],
      [o("FV", "right", "compressible"), o("PFV", "right", "compressible"), o("FV_MID", "right", "thrombus")],
    );
    expect(draft.warnings.join(" ")).toContain(
      "the right femoral vein is recorded as fully compressible but the right mid femoral vein as thrombus seen",
    );
    expect(draft.impression).toContain("Right femoral vein (mid): thrombosis (deep vein thrombosis).");
    expect(draft.impression).not.toMatch(/femoral vein and profunda femoris vein: no thrombosis/);
    expect(draft.impression).toContain("Right profunda femoris vein: no thrombosis.");
  });

  it("no warning when the vessel and its segment agree", () => {
    const draft = draftOf(
      "DVT Assessment",
      [],
      [o("FV", "right", "compressible"), o("FV_MID", "right", "compressible")],
    );
    expect(draft.warnings.join(" ")).not.toMatch(/Conflicting/);
  });
});

describe("an occluded segment with a PSV recorded warns in every grader", () => {
  it.each([
    ["Lower Limb Arterial", "SFA_MID", "right", /right mid superficial femoral artery is recorded as occluded/],
    ["Upper Limb Arterial", "RADA", "left", /left radial artery is recorded as occluded/],
    ["Renal Duplex", "RA", "left", /left renal artery is recorded as occluded/],
    ["Mesenteric Duplex", "SMA", null, /superior mesenteric artery is recorded as occluded/],
    ["Vertebral Duplex", "VA", "right", /right vertebral artery is recorded as occluded/],
    ["Carotid Duplex", "ICA", "right", /right internal carotid artery is recorded as occluded/],
  ] as const)("%s %s", (scanType, site, side, warning) => {
    const withPsv = draftOf(scanType, [m(site, side, "PSV", 80)], [o(site, side, "occluded")]);
    expect(withPsv.warnings.join(" ")).toMatch(warning);
    const zero = draftOf(scanType, [m(site, side, "PSV", 0)], [o(site, side, "occluded")]);
    expect(zero.warnings.join(" ")).not.toMatch(warning);
  });
});

describe("ratios are graded exactly and shown without crossing a threshold", () => {
  it.each([
    [199.6, 100, "lt50", "1.996"],
    [200, 100, "50_74", "2"],
    [200.4, 100, "50_74", "2.004"],
    [399.9, 100, "50_74", "3.999"],
    [400, 100, "75_99", "4"],
  ])("PSV %s over %s grades %s and shows PSV ratio %s", (distal, proximal, grade, shown) => {
    const draft = draftOf("Lower Limb Arterial", [
      m("SFA_PROX", "right", "PSV", proximal),
      m("SFA_MID", "right", "PSV", distal),
    ]);
    expect(conclusionsOf(draft, "arterial_stenosis", "right").find((c) => c.site === "SFA_MID")?.grade).toBe(grade);
    expect(draft.findings).toContain(`PSV ratio ${shown} (computed)`);
  });

  it.each([
    [349.6, "lt60", "3.496"],
    [350, "ge60", "3.5"],
    [350.4, "ge60", "3.504"],
  ])("renal PSV %s over aortic 100 gives RAR %s (shown %s)", (psv, grade, shown) => {
    // PSV below 200 only when the ratio decides: aorta 100, renal PSV > 200 would grade by PSV, so scale down.
    const draft = draftOf("Renal Duplex", [m("AO", null, "PSV", 50), m("RA", "left", "PSV", psv / 2)]);
    expect(gradeOf(draft, "renal_stenosis", "left")).toBe(grade);
    expect(draft.findings).toContain(`renal-aortic ratio ${shown} (computed)`);
  });

  it.each([
    [149.85, "hyperemia", "2.997"],
    [150, "vasospasm", "3"],
    [300.15, "severe_vasospasm", "6.003"],
  ])("MCA MFV %s over ICA 50 gives Lindegaard %s (shown %s)", (mfv, grade, shown) => {
    const draft = draftOf("Transcranial Doppler", [m("MCA", "right", "MFV", mfv), m("ICA_EXTRA", "right", "MFV", 50)]);
    expect(gradeOf(draft, "lindegaard", "right")).toBe(grade);
    expect(draft.findings).toContain(`Lindegaard ratio ${shown} (computed)`);
  });

  it("the ICA/CCA ratio under the stricter set: 1.996 is below 2.0", () => {
    const draft = draftOf(
      "Carotid Duplex",
      [m("ICA", "right", "PSV", 149.7), m("CCA_DIST", "right", "PSV", 75)],
      [o("ICA", "right", "plaque")],
      { criteriaSetId: "carotid-sru-strict" },
    );
    expect(gradeOf(draft, "carotid_stenosis", "right")).toBe("lt50");
    expect(draft.findings).toContain("ICA/CCA PSV ratio 1.996 (computed)");
  });
});

describe("a whole vessel occluded leaves no segment of it free", () => {
  it("'small saphenous vein: occluded' with 'distal: compressible' states the thrombosis only, and warns", () => {
    const draft = draftOf(
      "Lower Limb Venous",
      [],
      [o("SSV", "left", "occluded"), o("SSV_DIST", "left", "compressible")],
    );
    expect(conclusionsOf(draft, "dvt", "left").map((c) => [c.site, c.grade])).toEqual([["SSV", "present"]]);
    expect(draft.warnings.join(" ")).toMatch(
      /left small saphenous vein is recorded as occluded but the left distal small saphenous vein as fully compressible/,
    );
  });

  it("thrombus somewhere in a vessel and a free segment are both stated", () => {
    const draft = draftOf(
      "Lower Limb Venous",
      [],
      [o("SSV", "left", "thrombus"), o("SSV_DIST", "left", "compressible")],
    );
    expect(conclusionsOf(draft, "dvt", "left")).toHaveLength(2);
  });
});
