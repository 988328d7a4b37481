import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { draftSchema, type Study } from "../contracts/study";
import { normalPhrases } from "./compose-impression";
import { criteriaSetIds, getCriteriaSet } from "./criteria-sets";
import { generateDraft } from "./generate-draft";
import { gradePhrases } from "./grade-phrases";
import { guardLlmText } from "./llm-guard";
import { studyArbitrary as studyArbitrary_ } from "./testing/study-arbitrary";
import { numbersIn } from "./text-scan";

// Random studies (testing/study-arbitrary.ts) check the rules of docs/clinical-criteria.md that hold for every
// draft.

const studyArbitrary = studyArbitrary_();

const criteriaNumbers = (id: (typeof criteriaSetIds)[number]) =>
  new Set(numbersIn(JSON.stringify({ set: getCriteriaSet(id), phrases: gradePhrases })).map((n) => n.value));

/** Numbers in the text that are neither input values nor labelled "(computed)" (nor criteria wording). */
function untraceable(text: string, study: Study, criteria: ReadonlySet<number>): string[] {
  const inputs = new Set(study.measurements.map((m) => m.value));
  return numbersIn(text)
    .filter((n) => !inputs.has(n.value) && !criteria.has(n.value))
    .filter((n) => !text.slice(n.end).startsWith(" (computed)"))
    .map((n) => text.slice(Math.max(0, n.start - 30), n.end + 12));
}

describe("every draft", () => {
  it.each(criteriaSetIds)("states no number in the findings or impression that is not in the input (%s)", (id) => {
    const criteria = criteriaNumbers(id);
    fc.assert(
      fc.property(studyArbitrary, (study) => {
        const draft = generateDraft(study, { criteriaSetId: id });
        // Findings only describe: nothing but input values and labelled computed ratios.
        expect(untraceable(draft.findings, study, new Set())).toEqual([]);
        // The impression may also use the wording of the cited criteria ("50-69%", "every 6 months").
        expect(untraceable(draft.impression, study, criteria)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("matches the draft contract, reads right before left, and passes its own language-model guard", () => {
    fc.assert(
      fc.property(studyArbitrary, (study) => {
        const draft = generateDraft(study);
        draftSchema.parse(draft);
        // The impression states abnormal results first, then normal ones: right before left within each.
        const impression = draft.impression.split("\n");
        const isNormalLine = (line: string) => normalPhrases.some((p) => line.endsWith(`: ${p}.`));
        for (const lines of [
          draft.findings.split("\n"),
          impression.filter((line) => !isNormalLine(line)),
          impression.filter(isNormalLine),
        ]) {
          const lastRight = lines.findLastIndex((line) => line.startsWith("Right "));
          const firstLeft = lines.findIndex((line) => line.startsWith("Left "));
          if (lastRight >= 0 && firstLeft >= 0) expect(lastRight).toBeLessThan(firstLeft);
        }
        // Segments without data are limitations, not findings of the impression.
        expect(impression.filter((line) => /^(Right|Left)?[^:]*: not assessed\.$/.test(line))).toEqual([]);
        const sides = draft.conclusions.map((c) => c.side);
        expect(sides.lastIndexOf("right")).toBeLessThan(sides.includes("left") ? sides.indexOf("left") : Infinity);
        expect(guardLlmText(study, draft, draft)).toEqual({ ok: true });
      }),
      { numRuns: 400 },
    );
  });
});
