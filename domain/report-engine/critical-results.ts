import type { Conclusion } from "../contracts/study";
import { gradePhrase } from "./grade-phrases";
import type { GradedConclusion } from "./grading/grader-types";
import { type PriorComparison, RAPID_GROWTH_MM_IN_6_MONTHS, RAPID_GROWTH_MM_PER_YEAR } from "./prior-comparison";
import { deepVeins } from "./scan-profiles";
import { formatNumber } from "./value-format";
import { type ConclusionCategory, type Side, vesselLabel } from "./vocabulary";

// Results that need a call to the referring clinician before the report is signed (issue 26 item 4).
// Read from the graders' structured conclusions, never from the report's text; the list with its
// thresholds is docs/critical-results.md. A clinic may turn rules off (clinics.critical_rules_off).

export const criticalRuleIds = [
  "carotid_severe",
  "acute_dvt",
  "aortic_diameter",
  "aortic_rapid_growth",
  "mesenteric_occlusion",
  "renal_occlusion",
  "ehit_high",
] as const;
export type CriticalRuleId = (typeof criticalRuleIds)[number];

/** Exact thresholds that are numbers rather than grades. */
export const criticalThresholds = {
  /** Maximum abdominal aortic diameter, mm, inclusive. */
  aorticDiameterFromMm: 55,
} as const;

/** How each rule is named on screen, in exports and in the clinic settings. */
export const criticalRuleNames: Record<CriticalRuleId, string> = {
  carotid_severe: "Internal carotid artery stenosis of 70% or more, or occlusion",
  acute_dvt: "Deep vein thrombosis not stated as chronic",
  aortic_diameter: `Abdominal aortic diameter of ${criticalThresholds.aorticDiameterFromMm} mm or more`,
  aortic_rapid_growth: `Rapid aneurysm growth: ${RAPID_GROWTH_MM_IN_6_MONTHS} mm or more within 6 months, or ${RAPID_GROWTH_MM_PER_YEAR} mm or more a year, since the prior study`,
  mesenteric_occlusion: "Mesenteric artery occlusion",
  renal_occlusion: "Renal artery occlusion",
  ehit_high: "EHIT class 3 or 4",
};

export interface CriticalResult {
  /** Stable within a report: rule, site and side. A communication record covers results by key. */
  key: string;
  rule: CriticalRuleId;
  ruleName: string;
  site: string;
  side: Side | null;
  category: ConclusionCategory;
  grade: string;
  /** "Right internal carotid artery: 70-99% stenosis" */
  finding: string;
}

/** The draft's comparison with the patient's prior study, and the prior's grades. */
export type PriorContext = { comparison: PriorComparison | null; conclusions: readonly Conclusion[] };

type Matcher = (graded: GradedConclusion, prior: PriorContext | null) => boolean;

const grades =
  (category: ConclusionCategory, wanted: readonly string[]) =>
  ({ conclusion }: GradedConclusion) =>
    conclusion.category === category && wanted.includes(conclusion.grade);

/** An occlusion the prior study already graded at the same vessel and side is known, not new. */
const knownOcclusion = ({ conclusion }: GradedConclusion, prior: PriorContext | null) =>
  conclusion.grade === "occlusion" &&
  !!prior?.conclusions.some(
    (p) =>
      p.category === conclusion.category &&
      p.site === conclusion.site &&
      p.side === conclusion.side &&
      p.grade === "occlusion",
  );

const matchers: Record<CriticalRuleId, Matcher> = {
  // Without a prior study every occlusion is treated as new (docs/critical-results.md).
  carotid_severe: (g, prior) =>
    grades("carotid_stenosis", ["70_99", "near_occlusion", "occlusion"])(g) && !knownOcclusion(g, prior),
  // The vocabulary has no chronicity observation yet, so no thrombosis is stated as chronic.
  acute_dvt: (g) => grades("dvt", ["present"])(g) && deepVeins.has(g.site.base),
  aortic_diameter: (g) =>
    g.conclusion.category === "aortic_diameter" &&
    g.measured?.parameter === "DIAMETER_MM" &&
    g.measured.value >= criticalThresholds.aorticDiameterFromMm,
  mesenteric_occlusion: (g, prior) => grades("mesenteric_stenosis", ["occlusion"])(g) && !knownOcclusion(g, prior),
  renal_occlusion: (g, prior) => grades("renal_stenosis", ["occlusion"])(g) && !knownOcclusion(g, prior),
  ehit_high: grades("ehit", ["class3", "class4"]),
  // Growth is judged by the comparison with the prior study (prior-comparison.ts), never by one study alone.
  aortic_rapid_growth: (g, prior) => g.conclusion.category === "aortic_diameter" && !!prior?.comparison?.growth?.rapid,
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function describe(
  graded: GradedConclusion,
  rule: CriticalRuleId,
  comparison: PriorComparison | null | undefined,
): string {
  const { conclusion, site } = graded;
  const where = capitalise(vesselLabel(site.base, conclusion.side));
  const growth = comparison?.growth;
  if (rule === "aortic_rapid_growth" && comparison && growth) {
    const rate = formatNumber(Math.round(growth.mmPerYear * 10) / 10);
    return `${where}: maximum diameter ${formatNumber(growth.currentMm)} mm, ${formatNumber(growth.growthMm)} mm more than on ${comparison.priorDate} (${growth.days} days, ${rate} mm/year)`;
  }
  const what =
    graded.measured?.parameter === "DIAMETER_MM"
      ? `maximum diameter ${graded.measured.value} mm`
      : gradePhrase(conclusion.category, conclusion.grade as never);
  return `${where}: ${what}`;
}

/** Which rules are on: every rule not listed as off (so a rule added later starts on). */
export function enabledRules(off: readonly string[] = []): CriticalRuleId[] {
  return criticalRuleIds.filter((id) => !off.includes(id));
}

/**
 * Every result that a rule flags, in the conclusions' order; `rules` limits it to the rules that are on.
 * `prior` is the patient's prior study the draft was compared with, when there is one: it tells rapid growth and
 * a known occlusion from a new one.
 */
export function findCriticalResults(
  conclusions: readonly GradedConclusion[],
  rules: readonly CriticalRuleId[] = criticalRuleIds,
  prior: PriorContext | null = null,
): CriticalResult[] {
  const found: CriticalResult[] = [];
  for (const graded of conclusions) {
    for (const rule of rules) {
      if (!matchers[rule](graded, prior)) continue;
      const { site, side, category, grade } = graded.conclusion;
      found.push({
        key: `${rule}|${site}|${side ?? "-"}`,
        rule,
        ruleName: criticalRuleNames[rule],
        site,
        side,
        category,
        grade,
        finding: describe(graded, rule, prior?.comparison),
      });
    }
  }
  return found;
}
