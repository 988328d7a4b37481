import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { studySchema } from "../../domain/contracts/study";
import { generateDraft } from "../../domain/report-engine/generate-draft";
import type { LlmConfig } from "./llm-client";
import { type RefineInput, refineDraftWithLlm } from "./refine-draft";
import { type ChatTestServer, startChatTestServer } from "./testing/chat-test-server";

const study = studySchema.parse({
  scanType: "Carotid Duplex",
  indication: "Left sided TIA",
  measurements: [
    { site: "CCA_DIST", side: "right", parameter: "PSV", value: 80 },
    { site: "ICA_PROX", side: "right", parameter: "PSV", value: 250, unit: "cm/s" },
    { site: "CCA_DIST", side: "left", parameter: "PSV", value: 75 },
    { site: "ICA_PROX", side: "left", parameter: "PSV", value: 95 },
  ],
  observations: [
    { site: "ICA", side: "right", finding: "plaque" },
    { site: "ICA", side: "left", finding: "plaque" },
  ],
});
const draft = generateDraft(study);

const input: RefineInput = {
  study,
  draft,
  legend: [{ title: "c/w", medicalMeaning: "consistent with" }],
  examples: [
    { scanType: "Carotid Duplex", reportText: "Example one" },
    { scanType: "Lower Limb Venous", reportText: "Venous example" },
    { scanType: "Carotid Duplex", reportText: "Example two" },
    { scanType: "Carotid Duplex", reportText: "Example three" },
    { scanType: "Carotid Duplex", reportText: "Example four" },
  ],
};

const good = {
  indication: "Left-sided transient ischaemic attack.",
  findings:
    "Right: distal CCA PSV 80 cm/s. Proximal ICA PSV 250 cm/s with plaque; ICA/CCA ratio 3.13 (computed).\n" +
    "Left: distal CCA PSV 75 cm/s. Proximal ICA PSV 95 cm/s with plaque; ICA/CCA ratio 1.27 (computed).",
  impression: "Right internal carotid artery: 70-99% stenosis.\nLeft internal carotid artery: less than 50% stenosis.",
};

let server: ChatTestServer;
let config: LlmConfig;
const quick = { backoffMs: 5 };

beforeAll(async () => {
  server = await startChatTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  config = { baseUrl: server.baseUrl, model: "test-model", apiKey: "test-key", timeoutMs: 2000 };
});

const answer = (content: unknown) => {
  server.respond = () => ({
    kind: "content",
    content: typeof content === "string" ? content : JSON.stringify(content),
  });
};

describe("refineDraftWithLlm", () => {
  it("returns the draft unchanged when no language model is configured", async () => {
    expect(await refineDraftWithLlm(input, null)).toBe(draft);
    expect(server.requests).toHaveLength(0);
  });

  it("uses the model's text when the guard accepts it, with no warning", async () => {
    answer(good);
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.findings).toBe(good.findings);
    expect(refined.impression).toBe(good.impression);
    expect(refined.indication).toBe(good.indication);
    expect(refined.conclusions).toEqual(draft.conclusions);
    expect(refined.warnings).toEqual(draft.warnings);
  });

  it("sends an OpenAI-compatible JSON request with the study, the draft, the legend and up to 3 examples", async () => {
    answer(good);
    await refineDraftWithLlm(input, config, quick);
    const [request] = server.requests;
    expect(request?.url).toBe("/v1/chat/completions");
    expect(request?.headers.authorization).toBe("Bearer test-key");
    expect(request?.body.model).toBe("test-model");
    expect(request?.body.response_format).toEqual({ type: "json_object" });
    const payload = JSON.parse(request?.body.messages?.at(-1)?.content ?? "{}");
    expect(payload.study.scanType).toBe("Carotid Duplex");
    expect(payload.draft.conclusions).toEqual(draft.conclusions);
    expect(payload.legend).toEqual(input.legend);
    expect(payload.exampleReports).toEqual(["Example one", "Example two", "Example three"]);
  });

  it("discards a response that invents a velocity", async () => {
    answer({ ...good, findings: good.findings.replace("250 cm/s", "310 cm/s") });
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.findings).toBe(draft.findings);
    expect(refined.impression).toBe(draft.impression);
    expect(refined.warnings.at(-1)).toBe(
      "Language model output discarded: it mentions 310 cm/s, which is not in the study.",
    );
  });

  it("discards a response that adds a diagnosis, unless the clinic's legend gives its words", async () => {
    const added = { ...good, impression: `${good.impression}\nRight internal carotid artery: c/w dissection.` };
    answer(added);
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.impression).toBe(draft.impression);
    expect(refined.warnings.at(-1)).toBe(
      'Language model output discarded: it adds a diagnosis the criteria-based draft does not make ("dissection").',
    );
    answer(added);
    const withLegend = await refineDraftWithLlm(
      { ...input, legend: [...input.legend, { title: "dissection", medicalMeaning: "arterial dissection" }] },
      config,
      quick,
    );
    expect(withLegend.impression).toBe(added.impression);
  });

  it("discards a response that swaps left and right", async () => {
    const swapped = good.findings.replace("Right:", "TMP:").replace("Left:", "Right:").replace("TMP:", "Left:");
    answer({ ...good, findings: swapped });
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.findings).toBe(draft.findings);
    expect(refined.warnings.at(-1)).toBe(
      "Language model output discarded: it puts 80 cm/s on the left side, but the study records it on the right side.",
    );
  });

  it("discards a response whose grade differs from the engine's", async () => {
    answer({ ...good, impression: good.impression.replace("70-99%", "50-69%") });
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.impression).toBe(draft.impression);
    expect(refined.warnings.at(-1)).toMatch(/^Language model output discarded: it states "50-69%"/);
  });

  it("falls back with a warning when the model does not answer in time, after bounded retries", async () => {
    server.respond = () => ({ kind: "hang" });
    const started = Date.now();
    const refined = await refineDraftWithLlm(input, { ...config, timeoutMs: 150 }, quick);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(server.requests).toHaveLength(3);
    expect(refined.findings).toBe(draft.findings);
    expect(refined.warnings.at(-1)).toBe(
      "Language model not used: the language model did not answer within 150 ms (after 3 attempts). The criteria-based text is shown.",
    );
  });

  it("falls back with a warning when the model's content is not valid JSON", async () => {
    answer("Here is your report: {findings: ...");
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.findings).toBe(draft.findings);
    expect(refined.warnings.at(-1)).toBe("Language model output discarded: it did not return valid JSON.");
    expect(server.requests).toHaveLength(1);
  });

  it("falls back when the JSON lacks the expected fields", async () => {
    answer({ report: "text" });
    const refined = await refineDraftWithLlm(input, config, quick);
    expect(refined.warnings.at(-1)).toBe(
      "Language model output discarded: it did not return the indication, findings and impression as text.",
    );
  });

  it("keeps the engine's indication when the study gives none", async () => {
    const bare = studySchema.parse({ ...study, indication: undefined });
    const bareDraft = generateDraft(bare);
    answer({ ...good, indication: bareDraft.indication });
    const refined = await refineDraftWithLlm({ ...input, study: bare, draft: bareDraft }, config, quick);
    expect(refined.indication).toBe("Not stated.");
    expect(refined.findings).toBe(good.findings);
  });

  it("falls back when the service cannot be reached", async () => {
    const refined = await refineDraftWithLlm(input, { ...config, baseUrl: "http://127.0.0.1:9/v1" }, quick);
    expect(refined.findings).toBe(draft.findings);
    expect(refined.warnings.at(-1)).toMatch(
      /^Language model not used: the language model service could not be reached/,
    );
  });
});
