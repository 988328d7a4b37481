import type { Draft, Study } from "../contracts/study";
import { compareSites, composeFindings } from "./compose-findings";
import { composeImpression } from "./compose-impression";
import {
  type CriteriaSet,
  type CriteriaSetId,
  criteriaSetIds,
  defaultCriteriaSetId,
  getCriteriaSet,
} from "./criteria-sets";
import { type CriticalRuleId, criticalRuleIds, findCriticalResults } from "./critical-results";
import { gradeAbi } from "./grading/abi";
import { gradeAorta } from "./grading/aorta";
import { gradeAvFistula } from "./grading/av-fistula";
import { gradeCarotid } from "./grading/carotid";
import { gradeEhit } from "./grading/ehit";
import type { GradeContext, Grader, GraderOutput, ImpressionNote } from "./grading/grader-types";
import { limbArterialGrader } from "./grading/limb-arterial";
import { gradeMesenteric } from "./grading/mesenteric";
import { gradeRenal } from "./grading/renal";
import { gradeTcd } from "./grading/tcd";
import { gradePerforators, gradeVenousReflux } from "./grading/venous-reflux";
import { gradeVenousThrombosis } from "./grading/venous-thrombosis";
import { gradeVertebral } from "./grading/vertebral";
import { INDICATION_NOT_STATED } from "./indication";
import { comparePrior, type PriorStudy } from "./prior-comparison";
import { type GraderName, lowerLimbArteries, scanProfiles, upperLimbArteries } from "./scan-profiles";
import { defaultSpelling, type Spelling, spell } from "./spelling";
import { collectFacts, type StudyFacts, sidesWithData } from "./study-facts";
import { parameterLabels } from "./value-format";
import { gradedSites } from "./vocabulary";

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
export function generateDraft(
  study: Study,
  options: {
    criteriaSetId?: CriteriaSetId;
    criticalRules?: readonly CriticalRuleId[];
    /** The clinic's locale: American or British spelling throughout the text. */
    spelling?: Spelling;
    /** The patient's earlier finalized study of the same scan type, and this study's date (issue 31 item 11). */
    comparison?: { examDate: string; prior: PriorStudy };
  } = {},
): Draft {
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
      criticalResults: [],
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
  const spelling = options.spelling ?? defaultSpelling;
  const usedGraders = profile.graders.filter((_, i) => (outputs[i]?.conclusions.length ?? 0) > 0);
  // The comparison follows the results (before the limitations); a referral it gives joins the recommendations.
  const comparison = options.comparison
    ? comparePrior(
        {
          examDate: options.comparison.examDate,
          conclusions: graded.map((g) => g.conclusion),
          measurements: study.measurements,
        },
        options.comparison.prior,
      )
    : null;

  return {
    studyType: study.scanType,
    indication,
    findings: spell(
      composeFindings(
        collected.facts,
        outputs.flatMap((o) => o.derived),
        profile,
        context.reportedSides,
      ),
      spelling,
    ),
    impression: spell(
      composeImpression(
        graded,
        withRefusedValues(
          outputs.flatMap((o) => o.notes),
          collected.facts,
          graded,
        ),
        [...outputs.flatMap((o) => o.statements), ...(comparison ? [comparison.impression] : [])],
        [
          ...new Set([
            ...(comparison?.recommendation ? [comparison.recommendation] : []),
            ...outputs.flatMap((o) => o.recommendations),
          ]),
        ],
        profile.midlineFirst,
        criteriaLine(criteria, usedGraders),
      ),
      spelling,
    ),
    conclusions: graded.map((g) => g.conclusion),
    warnings: [...new Set(warnings)],
    criticalResults: findCriticalResults(
      graded,
      options.criticalRules ?? criticalRuleIds,
      options.comparison ? { comparison, conclusions: options.comparison.prior.conclusions } : null,
    ),
  };
}

/**
 * A vessel whose values were refused (unknown unit, impossible value) was not left unrecorded: its limitation says
 * which value could not be used and why, never "not recorded" or "not assessed".
 */
function withRefusedValues(
  notes: readonly ImpressionNote[],
  facts: StudyFacts,
  graded: readonly { site: { base: string }; conclusion: { side: string | null } }[],
): ImpressionNote[] {
  const phraseFor = (refused: StudyFacts["refused"]) =>
    `not graded, value not usable: ${refused.map((r) => `${parameterLabels[r.parameter]} ${r.written} (${r.reason})`).join("; ")}`;
  const refusedAt = (base: string, side: string | null) =>
    facts.refused.filter((r) => r.site.base === base && r.side === side);
  const out = notes.map((note) => {
    if (note.kind === "finding") return note;
    const refused = refusedAt(note.site.base, note.side);
    return refused.length === 0 ? note : { ...note, phrase: phraseFor(refused), kind: "limitation" as const };
  });
  // A refused value at a vessel nothing else speaks about still gets its line.
  const spoken = new Set([
    ...out.map((n) => `${n.side}|${n.site.base}`),
    ...graded.map((g) => `${g.conclusion.side}|${g.site.base}`),
  ]);
  for (const r of facts.refused) {
    if (!gradedSites.has(r.site.base) || spoken.has(`${r.side}|${r.site.base}`)) continue;
    spoken.add(`${r.side}|${r.site.base}`);
    out.push({
      site: { code: r.site.base, base: r.site.base, segment: null },
      side: r.side,
      phrase: phraseFor(refusedAt(r.site.base, r.side)),
      kind: "limitation",
    });
  }
  return out;
}

/** The criteria set named in the report's text, with the sources of the rules that graded this study. */
function criteriaLine(criteria: CriteriaSet, used: readonly GraderName[]): string {
  const sourceOf: Record<GraderName, readonly string[]> = {
    carotid: [criteria.carotid.source],
    // Sources whose wording carries grade words are named by their method, so the line states no grade.
    vertebral: ["flow direction on duplex"],
    lowerLimbArterial: [criteria.limbArterial.source],
    upperLimbArterial: [criteria.limbArterial.source],
    abi: [criteria.abi.source],
    dvt: ["compression ultrasound"],
    reflux: [criteria.venous.refluxSource],
    perforator: [criteria.venous.perforatorSource.replace(/\s*\(.*\)$/, "")],
    aorta: [criteria.aorta.source],
    renal: [criteria.renal.source],
    mesenteric: [criteria.mesenteric.source],
    avf: [criteria.avf.source],
    ehit: [criteria.ehit.source],
    tcd: [criteria.tcd.source, criteria.tcd.lindegaardSource],
  };
  const sources = [...new Set(used.flatMap((name) => sourceOf[name]))];
  return `Criteria: ${sources.join("; ")} (criteria set: ${criteria.label}).`;
}
