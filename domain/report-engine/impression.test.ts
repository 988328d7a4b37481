import { describe, expect, it } from "vitest";
import { studySchema } from "../contracts/study";
import { generateDraft } from "./generate-draft";
import { draftOf, m, o } from "./testing/study-builders";

// Issue 31, items 8 and 9: the impression reads as a physician writes it.

describe("order: abnormal first, then normal, then one limitations line", () => {
  const draft = draftOf(
    "DVT Assessment",
    [],
    [o("CFV", "right", "compressible"), o("FV", "right", "compressible"), o("POPV", "right", "thrombus")],
  );
  const lines = draft.impression.split("\n");

  it("states the thrombosis first, the normal veins after it, the unexamined ones in one line", () => {
    expect(lines[0]).toBe("Right popliteal vein: thrombosis (deep vein thrombosis).");
    expect(lines[1]).toBe("Right common femoral vein and femoral vein: no thrombosis.");
    expect(lines[2]).toBe("Limitations: right posterior tibial veins and peroneal veins (compression not assessed).");
    expect(lines.filter((line) => line.startsWith("Limitations:"))).toHaveLength(1);
    expect(lines.some((line) => /^[^:]*: (compression )?not assessed\.$/.test(line))).toBe(false);
  });

  it("names the criteria used at the end", () => {
    expect(lines.at(-1)).toBe(
      "Criteria: compression ultrasound (criteria set: Consensus criteria (SRU 2003 carotid)).",
    );
  });
});

describe("the numbers that decide a grade are in the impression", () => {
  it("carotid: ICA PSV and the ratio behind the grade", () => {
    const draft = draftOf(
      "Carotid Duplex",
      [m("ICA_PROX", "left", "PSV", 180), m("CCA_DIST", "left", "PSV", 60)],
      [o("ICA", "left", "plaque")],
    );
    expect(draft.impression).toContain(
      "Left internal carotid artery: 50-69% stenosis (ICA PSV 180 cm/s, ICA/CCA ratio 3 (computed)).",
    );
  });

  it("ABI value with its grade", () => {
    const draft = draftOf("Lower Limb Arterial", [m("ANKLE", "right", "ABI", 0.85)]);
    expect(draft.impression).toContain(
      "Right ankle: mild to moderate peripheral arterial disease by ankle-brachial index (ABI 0.85).",
    );
  });
});

describe("recommendations per scan type", () => {
  const carotid = (psv: number) =>
    draftOf("Carotid Duplex", [m("ICA", "right", "PSV", psv)], [o("ICA", "right", "plaque")]).impression;

  it.each([
    [124, null],
    [125, /surveillance of the 50-69% stenosis/],
    [230, /surveillance of the 50-69% stenosis/],
    [231, /Refer for vascular surgery evaluation of the 70-99% stenosis/],
  ] as const)("carotid PSV %s: follow-up %s", (psv, expected) => {
    if (expected) expect(carotid(psv)).toMatch(expected);
    else expect(carotid(psv)).not.toMatch(/surveillance|Refer/);
  });

  it.each([
    [1.4, false],
    [1.41, true],
  ])("ABI %s: toe-brachial index recommended %s", (abi, recommended) => {
    const draft = draftOf("Lower Limb Arterial", [m("ANKLE", "left", "ABI", abi)]);
    expect(draft.impression.includes("Toe-brachial index recommended")).toBe(recommended);
  });

  it("continuous common femoral vein flow suggests proximal obstruction", () => {
    const draft = draftOf(
      "DVT Assessment",
      [],
      [o("CFV", "left", "compressible"), o("CFV", "left", "continuous_flow")],
    );
    expect(draft.impression).toContain(
      "Left common femoral vein: continuous (non-phasic) flow, suggesting obstruction proximal to it (iliac veins or inferior vena cava).",
    );
    expect(draft.impression).toContain("Consider imaging of the iliac veins and inferior vena cava.");
    const phasic = draftOf("DVT Assessment", [], [o("CFV", "left", "compressible"), o("CFV", "left", "phasic_flow")]);
    expect(phasic.impression).not.toMatch(/obstruction/);
  });

  it.each([
    [0.79, false],
    [0.8, true],
    [0.81, true],
  ])("renal resistive index %s: parenchymal disease noted %s", (ri, noted) => {
    const draft = draftOf("Renal Duplex", [m("RA", "right", "PSV", 120), m("RA", "right", "RI", ri)]);
    expect(draft.impression.includes("suggests renal parenchymal disease")).toBe(noted);
  });

  it("mesenteric studies say the criteria are fasting criteria", () => {
    expect(draftOf("Mesenteric Duplex", [m("SMA", null, "PSV", 200)]).impression).toMatch(/fasting study/);
  });
});

describe("one spelling per clinic locale", () => {
  const study = studySchema.parse({
    scanType: "Abdominal Aorta",
    measurements: [m("AO", null, "DIAMETER_MM", 20)],
  });
  const tcd = studySchema.parse({
    scanType: "Transcranial Doppler",
    measurements: [m("MCA", "right", "MFV", 150), m("ICA_EXTRA", "right", "MFV", 60)],
  });

  it("American by default: caliber and hyperemia", () => {
    expect(generateDraft(study).impression).toContain("normal caliber");
    expect(generateDraft(tcd).impression).toContain("hyperemia rather than vasospasm");
  });

  it("British when the clinic asks: calibre and hyperaemia, never mixed", () => {
    expect(generateDraft(study, { spelling: "en-GB" }).impression).toContain("normal calibre");
    const gb = generateDraft(tcd, { spelling: "en-GB" }).impression;
    expect(gb).toContain("hyperaemia rather than vasospasm");
    expect(gb).not.toMatch(/hyperemia|caliber/);
  });
});
