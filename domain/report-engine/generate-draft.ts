import type { Draft, Study } from "../contracts/study";
import { compareSites, composeFindings } from "./compose-findings";
import { composeImpression } from "./compose-impression";
import { type CriteriaSetId, criteriaSetIds, defaultCriteriaSetId, getCriteriaSet } from "./criteria-sets";
import { gradeAbi } from "./grading/abi";
import { gradeAorta } from "./grading/aorta";
import { gradeAvFistula } from "./grading/av-fistula";
import { gradeCarotid } from "./grading/carotid";
import { gradeEhit } from "./grading/ehit";
import type { GradeContext, Grader, GraderOutput } from "./grading/grader-types";
import { limbArterialGrader } from "./grading/limb-arterial";
import { gradeMesenteric } from "./grading/mesenteric";
import { gradeRenal } from "./grading/renal";
import { gradeTcd } from "./grading/tcd";
import { gradePerforators, gradeVenousReflux } from "./grading/venous-reflux";
import { gradeVenousThrombosis } from "./grading/venous-thrombosis";
import { gradeVertebral } from "./grading/vertebral";
import { INDICATION_NOT_STATED } from "./indication";
import { type GraderName, lowerLimbArteries, scanProfiles, upperLimbArteries } from "./scan-profiles";
import { collectFacts, sidesWithData } from "./study-facts";

export type { CriteriaSetId, CriteriaSetInfo } from "./criteria-sets";
export { criteriaSets } from "./criteria-sets";

const graders: Record<GraderName, Grader> = {
  carotid: gradeCarotid,
  vertebral: gradeVertebral,
  lowerLimbArterial: limbArterialGrader(lowerLimbArteries),
  upperLimbArterial: limbArterialGrader(upperLimbArteries),
  abi: gradeAbi,
  dvt: gradeVenousThrombosis,
  reflux: gradeVenousReflux,
  perforator: gradePerforators,
  aorta: gradeAorta,
  renal: gradeRenal,
  mesenteric: gradeMesenteric,
  avf: gradeAvFistula,
  ehit: gradeEhit,
  tcd: gradeTcd,
};

/**
 * Grades a study by the selected criteria set and writes its findings and impression. Pure: the same
 * study always gives the same draft, and nothing is read or written outside the arguments.
 */
export function generateDraft(study: Study, options: { criteriaSetId?: CriteriaSetId } = {}): Draft {
  const warnings: string[] = [];
  const requested = options.criteriaSetId ?? defaultCriteriaSetId;
  if (!criteriaSetIds.includes(requested)) {
    warnings.push(`Criteria set ${JSON.stringify(requested)} is unknown; the default criteria set was used.`);
  }
  const criteria = getCriteriaSet(requested);
  const indication = study.indication?.trim() || INDICATION_NOT_STATED;
  const profile = scanProfiles[study.scanType];
  if (!profile) {
    return {
      studyType: study.scanType,
      indication,
      findings: "Not assessed.",
      impression: "No grade could be assigned: the scan type is not supported.",
      conclusions: [],
      warnings: [`Scan type ${JSON.stringify(study.scanType)} is not supported; nothing was graded.`],
    };
  }

  const collected = collectFacts(study, profile);
  warnings.push(...collected.warnings);
  const context: GradeContext = {
    scanType: study.scanType,
    facts: collected.facts,
    criteria,
    profile,
    sex: study.sex ?? null,
    reportedSides: profile.bilateral ? ["right", "left"] : sidesWithData(collected.facts),
  };
  const outputs: GraderOutput[] = profile.graders.map((name) => graders[name](context));
  const graded = outputs
    .flatMap((o) => o.conclusions)
    .sort((a, b) =>
      compareSites(
        { side: a.conclusion.side, site: a.site },
        { side: b.conclusion.side, site: b.site },
        profile.midlineFirst,
      ),
    );
  warnings.push(...outputs.flatMap((o) => o.warnings));

  return {
    studyType: study.scanType,
    indication,
    findings: composeFindings(
      collected.facts,
      outputs.flatMap((o) => o.derived),
      profile,
      context.reportedSides,
    ),
    impression: composeImpression(
      graded,
      outputs.flatMap((o) => o.notes),
      outputs.flatMap((o) => o.statements),
      [...new Set(outputs.flatMap((o) => o.recommendations))],
      profile.midlineFirst,
    ),
    conclusions: graded.map((g) => g.conclusion),
    warnings: [...new Set(warnings)],
  };
}
