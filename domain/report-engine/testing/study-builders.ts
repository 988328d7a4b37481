import { type Conclusion, type Draft, type StudyInput, studySchema } from "../../contracts/study";
import type { CriteriaSetId } from "../criteria-sets";
import { generateDraft } from "../generate-draft";
import type { ConclusionCategory, ObservationFinding, Parameter, ScanType, Side } from "../vocabulary";

// Small builders for the engine's tests: studies go through the real schema, drafts through the real engine.

type MeasurementInput = StudyInput["measurements"] extends (infer T)[] | undefined ? T : never;
type ObservationInput = StudyInput["observations"] extends (infer T)[] | undefined ? T : never;

export function m(
  site: string,
  side: Side | null,
  parameter: Parameter,
  value: number,
  unit?: string,
): MeasurementInput {
  return { site, ...(side ? { side } : {}), parameter, value, ...(unit ? { unit } : {}) };
}

export function o(site: string, side: Side | null, finding: ObservationFinding): ObservationInput {
  return { site, ...(side ? { side } : {}), finding };
}

export function draftOf(
  scanType: ScanType,
  measurements: MeasurementInput[] = [],
  observations: ObservationInput[] = [],
  extra: { indication?: string; sex?: "female" | "male"; criteriaSetId?: CriteriaSetId } = {},
): Draft {
  const { criteriaSetId, ...rest } = extra;
  const study = studySchema.parse({ scanType, measurements, observations, ...rest });
  return generateDraft(study, criteriaSetId ? { criteriaSetId } : {});
}

export function conclusionsOf(draft: Draft, category: ConclusionCategory, side?: Side | null): Conclusion[] {
  return draft.conclusions.filter((c) => c.category === category && (side === undefined || c.side === side));
}

/** The one grade of a category (and side); fails loudly when there is not exactly one. */
export function gradeOf(draft: Draft, category: ConclusionCategory, side?: Side | null): string {
  const found = conclusionsOf(draft, category, side);
  if (found.length !== 1) {
    throw new Error(`expected one ${category} conclusion${side ? ` (${side})` : ""}, found ${found.length}`);
  }
  return (found[0] as Conclusion).grade;
}
