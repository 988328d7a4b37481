import { describe, expect, it } from "vitest";
import { type Draft, type Study, studySchema } from "../contracts/study";
import { generateDraft } from "./generate-draft";
import { guardLlmText, type LlmText } from "./llm-guard";
import { m, o } from "./testing/study-builders";
import { numbersIn, sideSegments } from "./text-scan";
import { unknownVesselMentions, vesselMentions } from "./vessel-names";

const carotidStudy: Study = studySchema.parse({
  scanType: "Carotid Duplex",
  indication: "Left sided TIA",
  measurements: [
    m("CCA_DIST", "right", "PSV", 80),
    m("ICA_PROX", "right", "PSV", 250),
    m("ICA_PROX", "right", "EDV", 70),
    m("CCA_DIST", "left", "PSV", 75),
    m("ICA_PROX", "left", "PSV", 95),
  ],
  observations: [o("ICA", "right", "plaque"), o("ICA", "left", "plaque"), o("VA", "right", "antegrade")],
});
const carotidDraft: Draft = generateDraft(carotidStudy);

const rephrased: LlmText = {
  indication: "Left-sided transient ischaemic attack.",
  findings:
    "Right side: the distal CCA measures 80 cm/s. The proximal ICA shows plaque with a PSV of 250 cm/s and an EDV of 70 cm/s; " +
    "ICA/CCA ratio 3.13 (computed). Antegrade flow in the right vertebral artery.\n" +
    "Left side: the distal CCA measures 75 cm/s and the proximal ICA 95 cm/s, with plaque.",
  impression:
    "Right internal carotid artery: 70-99% stenosis.\nLeft internal carotid artery: less than 50% stenosis.\n" +
    "Right vertebral artery: antegrade flow.",
};

const check = (candidate: Partial<LlmText>) => guardLlmText(carotidStudy, carotidDraft, { ...rephrased, ...candidate });

describe("language-model guard", () => {
  it("accepts a faithful rephrasing", () => {
    expect(check({})).toEqual({ ok: true });
  });

  it("accepts the engine's own text", () => {
    expect(guardLlmText(carotidStudy, carotidDraft, carotidDraft)).toEqual({ ok: true });
  });

  it("rejects an invented velocity", () => {
    expect(check({ findings: rephrased.findings.replace("250 cm/s", "310 cm/s") })).toEqual({
      ok: false,
      reason: "it mentions 310 cm/s, which is not in the study",
    });
  });

  it("rejects a number that exists only with another unit", () => {
    expect(check({ findings: `${rephrased.findings} Plaque length 250 mm.` })).toMatchObject({
      ok: false,
      reason: "it mentions 250 mm, which is not in the study",
    });
  });

  it("rejects a value moved to the other side", () => {
    const swapped = rephrased.findings
      .replace("Right side:", "TMP:")
      .replace("Left side:", "Right side:")
      .replace("TMP:", "Left side:");
    expect(check({ findings: swapped })).toEqual({
      ok: false,
      reason: "it puts 80 cm/s on the left side, but the study records it on the right side",
    });
  });

  it("rejects grades given to the wrong side", () => {
    const impression =
      "Left internal carotid artery: 70-99% stenosis.\nRight internal carotid artery: less than 50% stenosis.\nRight vertebral artery: antegrade flow.";
    expect(check({ impression })).toEqual({
      ok: false,
      reason: 'it states "70-99%" for the left side, which differs from the criteria-based grading',
    });
  });

  it("rejects a vessel placed on a side the study does not have", () => {
    expect(check({ findings: `${rephrased.findings}\nLeft vertebral artery: antegrade flow.` })).toEqual({
      ok: false,
      reason: "it describes the left vertebral artery, which the study did not assess",
    });
  });

  it("accepts saying that an unexamined vessel was not assessed", () => {
    expect(check({ findings: `${rephrased.findings}\nThe left vertebral artery was not assessed.` })).toEqual({
      ok: true,
    });
  });

  it("rejects a vessel placed on a side the study has no record of at all", () => {
    const study = studySchema.parse({ scanType: "Vertebral Duplex", observations: [o("VA", "right", "antegrade")] });
    const renal = studySchema.parse({ scanType: "Renal Duplex", measurements: [m("RA", "right", "PSV", 150)] });
    expect(
      guardLlmText(study, generateDraft(study), {
        indication: "Not stated.",
        findings: "Left vertebral artery: antegrade flow.",
        impression: "Right vertebral artery: antegrade flow.",
      }),
    ).toMatchObject({ ok: false });
    expect(
      guardLlmText(renal, generateDraft(renal), {
        indication: "Not stated.",
        findings: "Left renal artery PSV 150 cm/s.",
        impression: "Right renal artery: less than 60% stenosis.",
      }),
    ).toEqual({
      ok: false,
      reason: "it puts 150 cm/s on the left side, but the study records it on the right side",
    });
  });

  it("rejects a vessel that is not in the study", () => {
    expect(check({ findings: `${rephrased.findings} The right subclavian artery is normal.` })).toEqual({
      ok: false,
      reason: "it names the subclavian artery, which is not in the study",
    });
    expect(check({ findings: `${rephrased.findings} The brachiocephalic trunk is patent.` })).toMatchObject({
      ok: false,
      reason: "it names the brachiocephalic trunk, which is not in the study",
    });
  });

  it("rejects a grade worded differently from the engine's", () => {
    expect(check({ impression: rephrased.impression.replace("70-99%", "50-69%") })).toMatchObject({ ok: false });
    expect(
      check({ impression: rephrased.impression.replace("less than 50% stenosis", "no significant stenosis") }),
    ).toEqual({
      ok: false,
      reason: 'it states "no significant stenosis" for the left side, which differs from the criteria-based grading',
    });
  });

  it("rejects an impression that leaves a grade out", () => {
    expect(
      check({ impression: "Right internal carotid artery: 70-99% stenosis.\nRight vertebral artery: antegrade flow." }),
    ).toEqual({
      ok: false,
      reason: "it leaves out the grade of the left internal carotid artery (less than 50% stenosis)",
    });
  });

  it("rejects an indication moved to the other side, or invented", () => {
    expect(check({ indication: "Right sided TIA" })).toEqual({
      ok: false,
      reason: "it changes the side of the indication to right",
    });
    const noIndication = studySchema.parse({ ...carotidStudy, indication: undefined });
    const draft = generateDraft(noIndication);
    expect(guardLlmText(noIndication, draft, { ...rephrased, indication: "Stroke" })).toEqual({
      ok: false,
      reason: "it adds an indication that the study does not give",
    });
  });

  it("accepts the criteria wording the engine used, such as AAA surveillance intervals", () => {
    const study = studySchema.parse({
      scanType: "Abdominal Aorta",
      sex: "male",
      measurements: [m("AO", null, "DIAMETER_MM", 52)],
    });
    const draft = generateDraft(study);
    const candidate = {
      indication: draft.indication,
      findings: "The abdominal aorta measures 52 mm at its widest.",
      impression: "Large abdominal aortic aneurysm, maximum diameter 52 mm. Repeat aortic ultrasound every 6 months.",
    };
    expect(guardLlmText(study, draft, candidate)).toEqual({ ok: true });
    expect(
      guardLlmText(study, draft, { ...candidate, impression: candidate.impression.replace("6 months", "3 months") }),
    ).toEqual({
      ok: false,
      reason: "it mentions 3 months, which is not in the study",
    });
  });
});

describe("text scanning", () => {
  it("reads numbers with their units, and not digits that belong to names", () => {
    const found = numbersIn(
      "PSV 250 cm/s, ratio 3.13 (computed), reflux 1,200 ms, 50-69% stenosis, M1 segment, 6 months.",
    );
    expect(found.map((n) => [n.value, n.unit])).toEqual([
      [250, "cm/s"],
      [3.13, null],
      [1200, "ms"],
      [50, null],
      [69, "%"],
      [6, "months"],
    ]);
  });

  it("splits text into stretches by side", () => {
    expect(
      sideSegments("The right ICA is 250 cm/s and the left ICA 95 cm/s. Bilateral plaque. R CFV compressible."),
    ).toEqual([
      { side: null, text: "The" },
      { side: "right", text: "right ICA is 250 cm/s and the" },
      { side: "left", text: "left ICA 95 cm/s" },
      { side: "both", text: "Bilateral plaque" },
      { side: "right", text: "R CFV compressible" },
    ]);
  });

  it("recognises vessels by name and abbreviation, longest name first", () => {
    expect(vesselMentions("common femoral vein, femoral vein, GSV and the ICA").map((v) => v.families[0])).toEqual([
      "CFV",
      "FV",
      "GSV",
      "ICA",
    ]);
    expect(
      unknownVesselMentions("the anterior tibial veins and the IVC are patent; the posterior tibial veins too"),
    ).toEqual(["anterior tibial veins", "IVC"]);
  });
});
