import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { draftSchema, type Study, studySchema } from "../contracts/study";
import { criteriaSetIds, getCriteriaSet } from "./criteria-sets";
import { generateDraft } from "./generate-draft";
import { gradePhrases } from "./grade-phrases";
import { guardLlmText } from "./llm-guard";
import { scanProfiles } from "./scan-profiles";
import { numbersIn } from "./text-scan";
import { baseSiteCodes, observationFindings, parameters, scanTypes, segments } from "./vocabulary";

// Random studies, mostly made of the vessels and parameters of their scan type but with foreign sites,
// missing sides and conflicting observations mixed in, check the rules of ../../shared/clinical-criteria.md
// that hold for every draft.

const studyArbitrary: fc.Arbitrary<Study> = fc.constantFrom(...scanTypes).chain((scanType) => {
  const ownSites = scanProfiles[scanType].sites;
  const site = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...ownSites) },
        { weight: 1, arbitrary: fc.constantFrom(...baseSiteCodes) },
      ),
      fc.option(fc.constantFrom(...segments), { nil: undefined }),
    )
    .map(([base, segment]) => (segment ? `${base}_${segment}` : base));
  const side = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom("right" as const, "left" as const) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const value = fc.oneof(
    fc.integer({ min: 0, max: 700 }),
    fc.integer({ min: 0, max: 900 }).map((n) => n / 100),
  );
  const measurement = fc.record({ site, side, parameter: fc.constantFrom(...parameters), value }).map((x) => ({
    ...x,
    value: x.parameter === "EXTENSION_PCT" ? Math.min(x.value, 100) : x.value,
  }));
  const observation = fc.record({ site, side, finding: fc.constantFrom(...observationFindings) });
  return fc
    .record({
      measurements: fc.array(measurement, { maxLength: 25 }),
      observations: fc.array(observation, { maxLength: 10 }),
      sex: fc.constantFrom("female" as const, "male" as const, undefined),
    })
    .map((parts) => studySchema.parse({ scanType, ...parts }));
});

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
        for (const text of [draft.findings, draft.impression]) {
          const lines = text.split("\n");
          const lastRight = lines.findLastIndex((line) => line.startsWith("Right "));
          const firstLeft = lines.findIndex((line) => line.startsWith("Left "));
          if (lastRight >= 0 && firstLeft >= 0) expect(lastRight).toBeLessThan(firstLeft);
        }
        const sides = draft.conclusions.map((c) => c.side);
        expect(sides.lastIndexOf("right")).toBeLessThan(sides.includes("left") ? sides.indexOf("left") : Infinity);
        expect(guardLlmText(study, draft, draft)).toEqual({ ok: true });
      }),
      { numRuns: 400 },
    );
  });
});
