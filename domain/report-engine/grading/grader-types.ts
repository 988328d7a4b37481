import type { Conclusion } from "../../contracts/study";
import type { CriteriaSet } from "../criteria-sets";
import type { ScanProfile } from "../scan-profiles";
import type { StudyFacts } from "../study-facts";
import type { BaseSiteCode, Parameter, ParsedSite, ScanType, Side } from "../vocabulary";

export interface GradeContext {
  scanType: ScanType;
  facts: StudyFacts;
  criteria: CriteriaSet;
  profile: ScanProfile;
  sex: "female" | "male" | null;
  /** The sides the report speaks about: both for bilateral examinations, otherwise those scanned. */
  reportedSides: readonly Side[];
}

/** A conclusion with the words the impression uses for it, e.g. "70-99% stenosis". */
export interface GradedConclusion {
  conclusion: Conclusion;
  site: ParsedSite;
  phrase: string;
  /** The value the grade was read from, where a rule beyond the grade needs it (critical results). */
  measured?: { parameter: Parameter; value: number };
  /** The numbers that decided an abnormal grade, as the impression states them: "PSV 250 cm/s". */
  detail?: string;
}

/** A ratio the engine computed; the findings print it labelled as computed. */
export interface DerivedValue {
  site: ParsedSite;
  side: Side | null;
  parameter: Parameter;
  value: number;
}

/** An impression line that is not a grade: a finding (a treated vein's closure) or a limitation ("not assessed"). */
export interface ImpressionNote {
  site: ParsedSite;
  side: Side | null;
  phrase: string;
  /** Findings stand with the grades; limitations are gathered at the end of the impression. */
  kind?: "finding" | "limitation";
}

export interface GraderOutput {
  conclusions: GradedConclusion[];
  derived: DerivedValue[];
  notes: ImpressionNote[];
  warnings: string[];
  /** Lines that stand on their own after the per-vessel lines. */
  statements: string[];
  recommendations: string[];
}

export type Grader = (context: GradeContext) => GraderOutput;

export function emptyOutput(): GraderOutput {
  return { conclusions: [], derived: [], notes: [], warnings: [], statements: [], recommendations: [] };
}

/** The vessel as a whole, for conclusions that grade the vessel rather than one segment. */
export function vesselSite(base: BaseSiteCode): ParsedSite {
  return { code: base, base, segment: null };
}

/** An occluded segment has no velocity to measure: a recorded PSV means one of the two is wrong. */
export function occludedWithVelocityWarning(name: string, psv: number, gradedAs = "occlusion"): string {
  return `The ${name} is recorded as occluded but has a PSV of ${psv} cm/s; graded as ${gradedAs}. Check the recording.`;
}
