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
}

/** A ratio the engine computed; the findings print it labelled as computed. */
export interface DerivedValue {
  site: ParsedSite;
  side: Side | null;
  parameter: Parameter;
  value: number;
}

/** An impression line that is not a grade, such as "not assessed". */
export interface ImpressionNote {
  site: ParsedSite;
  side: Side | null;
  phrase: string;
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
