import { describe, expect, it } from "vitest";
import { type Draft, type Study, studySchema } from "../contracts/study";
import { generateDraft } from "./generate-draft";
import { guardLlmText, type LlmText } from "./llm-guard";
import { m, o } from "./testing/study-builders";

// Issue 31, item 12: content a careless model adds (a recommendation, a diagnosis, a number in words) is refused,
// on the three studies the issue measured; faithful rephrasings still pass.

const studies: Record<string, Study> = {
  carotid: studySchema.parse({
    scanType: "Carotid Duplex",
    indication: "Left sided TIA",
    measurements: [m("CCA_DIST", "right", "PSV", 80), m("ICA_PROX", "right", "PSV", 250)],
    observations: [o("ICA", "right", "plaque")],
  }),
  venous: studySchema.parse({
    scanType: "DVT Assessment",
    indication: "Right calf swelling",
    observations: [o("CFV", "right", "compressible"), o("POPV", "right", "non_compressible")],
  }),
  aorta: studySchema.parse({
    scanType: "Abdominal Aorta",
    sex: "male",
    measurements: [m("AO", null, "DIAMETER_MM", 56)],
  }),
};

const engineText = (draft: Draft): LlmText => ({
  indication: draft.indication,
  findings: draft.findings,
  impression: draft.impression,
});

describe.each(Object.entries(studies))("the %s draft", (_name, study) => {
  const draft = generateDraft(study);
  const base = engineText(draft);
  const withImpression = (extra: string) =>
    guardLlmText(study, draft, { ...base, impression: `${base.impression}\n${extra}` });

  it("accepts the engine's own text", () => {
    expect(guardLlmText(study, draft, base)).toEqual({ ok: true });
  });

  it("refuses an added recommendation", () => {
    expect(withImpression("Recommend CT angiography and urgent vascular surgery review.")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^it adds a recommendation the criteria-based draft does not make/),
    });
  });

  it("refuses an added diagnosis", () => {
    expect(withImpression("Appearances are consistent with fibromuscular dysplasia.")).toEqual({
      ok: false,
      reason: 'it adds a diagnosis the criteria-based draft does not make ("fibromuscular dysplasia")',
    });
  });

  it("refuses a number in words", () => {
    expect(withImpression("The narrowing is about seventy percent.")).toMatchObject({ ok: false });
    expect(
      guardLlmText(study, draft, { ...base, findings: `${base.findings} Flow about seventy percent of normal.` }),
    ).toEqual({
      ok: false,
      reason: 'it writes a number in words ("seventy"), which the criteria-based draft does not state',
    });
  });
});

describe("what the content check lets through", () => {
  const study = studies.aorta as Study;
  const draft = generateDraft(study);

  it("a recommendation the draft makes, reworded", () => {
    const candidate = {
      ...engineText(draft),
      impression: `${draft.impression.split("\n")[0]}\nReferral to vascular surgery is recommended: the maximum diameter reaches the SVS 2018 referral threshold.`,
    };
    expect(guardLlmText(study, draft, candidate)).toEqual({ ok: true });
  });

  it("a recommendation the draft does not make, even in the draft's words", () => {
    const carotid = studies.carotid as Study;
    const carotidDraft = generateDraft(carotid);
    expect(
      guardLlmText(carotid, carotidDraft, {
        ...engineText(carotidDraft),
        impression: `${carotidDraft.impression}\nRepeat duplex of the right internal carotid artery should follow.`,
      }),
    ).toMatchObject({ ok: false });
  });

  it("a term the clinic's legend defines", () => {
    const candidate = { ...engineText(draft), findings: `${draft.findings} No mural thrombus seen, c/w the prior.` };
    expect(guardLlmText(study, draft, candidate)).toMatchObject({ ok: false });
    expect(guardLlmText(study, draft, candidate, ["mural thrombus", "c/w the prior"])).toEqual({ ok: true });
  });

  it("'one' used as a word, not a quantity", () => {
    const candidate = { ...engineText(draft), findings: `${draft.findings} Imaged in one sitting.` };
    expect(guardLlmText(study, draft, candidate)).toEqual({ ok: true });
    expect(guardLlmText(study, draft, { ...candidate, findings: `${draft.findings} Growth of one mm.` })).toMatchObject(
      { ok: false },
    );
  });

  it("a severity the engine did not grade", () => {
    const carotid = studies.carotid as Study;
    const carotidDraft = generateDraft(carotid);
    expect(
      guardLlmText(carotid, carotidDraft, {
        ...engineText(carotidDraft),
        findings: `${carotidDraft.findings} Critical stenosis at the origin.`,
      }),
    ).toEqual({ ok: false, reason: 'it adds a grade the criteria-based draft does not give ("Critical stenosis")' });
  });
});
