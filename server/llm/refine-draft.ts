import { z } from "zod";
import type { Draft, Study } from "../../domain/contracts/study";
import { guardLlmText } from "../../domain/report-engine/llm-guard";
import { type ChatMessage, chatCompletionJson, type LlmCallOptions, type LlmConfig } from "./llm-client";

// The optional language-model pass over the engine's draft (issue 6, item 4). The model may rephrase the
// indication, findings and impression in the clinic's style; conclusions and warnings stay the engine's.
// Whatever happens, a draft comes back: the model's text when the guard accepts it, otherwise the
// engine's text with a warning that says why.

export interface RefineInput {
  study: Study;
  draft: Draft;
  legend: readonly { title: string; medicalMeaning: string }[];
  examples: readonly { scanType: string; reportText: string }[];
}

const MAX_EXAMPLES = 3;
const MAX_LEGEND_ENTRIES = 50;
const MAX_EXAMPLE_CHARS = 4000;

const llmTextSchema = z.object({
  indication: z.string(),
  findings: z.string().trim().min(1),
  impression: z.string().trim().min(1),
});

const systemPrompt = [
  "You edit vascular ultrasound report drafts. You receive a study (measurements and observations), the",
  "criteria-based draft with its conclusions, the clinic's legend of phrases and example reports.",
  "Rewrite the indication, findings and impression in the clinic's style, in plain clinical English.",
  "Rules: use only numbers that appear in the study or the draft, exactly as written; keep every side",
  "(right/left) and vessel as in the study; name no vessel that is not in the study; keep every grade of",
  "the draft's impression in the same words (for example '50-69% stenosis') for the same side; keep",
  "ratios marked '(computed)'; add no diagnosis, grade or recommendation of your own.",
  'Answer with one JSON object: {"indication": string, "findings": string, "impression": string}.',
].join(" ");

export function buildMessages(input: RefineInput): ChatMessage[] {
  const examples = input.examples
    .filter((e) => e.scanType === input.study.scanType)
    .slice(0, MAX_EXAMPLES)
    .map((e) => e.reportText.slice(0, MAX_EXAMPLE_CHARS));
  const payload = {
    study: input.study,
    draft: {
      studyType: input.draft.studyType,
      indication: input.draft.indication,
      findings: input.draft.findings,
      impression: input.draft.impression,
      conclusions: input.draft.conclusions,
    },
    legend: input.legend.slice(0, MAX_LEGEND_ENTRIES),
    exampleReports: examples,
  };
  return [
    { role: "system", content: systemPrompt },
    { role: "user", content: JSON.stringify(payload) },
  ];
}

function withWarning(draft: Draft, warning: string): Draft {
  return { ...draft, warnings: [...draft.warnings, warning] };
}

function parseModelText(content: string): z.infer<typeof llmTextSchema> | string {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return "it did not return valid JSON";
  }
  const parsed = llmTextSchema.safeParse(json);
  return parsed.success ? parsed.data : "it did not return the indication, findings and impression as text";
}

export async function refineDraftWithLlm(
  input: RefineInput,
  config: LlmConfig | null,
  options: LlmCallOptions = {},
): Promise<Draft> {
  const { study, draft } = input;
  if (!config) return draft;
  try {
    const answer = await chatCompletionJson(config, buildMessages(input), options);
    if (!answer.ok) {
      return withWarning(draft, `Language model not used: ${answer.reason}. The criteria-based text is shown.`);
    }
    const text = parseModelText(answer.content);
    if (typeof text === "string") return withWarning(draft, `Language model output discarded: ${text}.`);
    const legendText = input.legend.flatMap((entry) => [entry.title, entry.medicalMeaning]);
    const verdict = guardLlmText(study, draft, text, legendText);
    if (!verdict.ok) return withWarning(draft, `Language model output discarded: ${verdict.reason}.`);
    return {
      ...draft,
      // Without an indication in the study there is nothing for the model to rephrase.
      indication: study.indication?.trim() ? text.indication.trim() || draft.indication : draft.indication,
      findings: text.findings.trim(),
      impression: text.impression.trim(),
    };
  } catch (error) {
    return withWarning(draft, `Language model not used: unexpected error (${(error as Error).message}).`);
  }
}
