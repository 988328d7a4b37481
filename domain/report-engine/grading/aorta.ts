import type { AortaCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { highestAt } from "../study-facts";
import { formatValue } from "../value-format";
import type { GradeOf } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

export function gradeAorticDiameter(mm: number, rules: AortaCriteria): GradeOf<"aortic_diameter"> {
  if (mm >= rules.largeFromMm) return "aneurysm_large";
  if (mm >= rules.mediumFromMm) return "aneurysm_medium";
  if (mm >= rules.smallFromMm) return "aneurysm_small";
  if (mm >= rules.ectaticFromMm) return "ectatic";
  return "normal";
}

/** The SVS 2018 follow-up: a re-imaging interval by diameter, and referral at the sex-specific size. */
export function aaaRecommendations(mm: number, sex: "female" | "male" | null, rules: AortaCriteria): string[] {
  const { male, female } = rules.referralFromMm;
  const referral = "Refer to vascular surgery";
  if (mm >= Math.max(male, female) || (sex === "female" && mm >= female) || (sex === "male" && mm >= male)) {
    return [`${referral}: the maximum diameter reaches the SVS 2018 referral threshold.`];
  }
  const band = rules.surveillance.find((b) => mm >= b.fromMm && (b.belowMm === null || mm < b.belowMm));
  const lines = band ? [band.recommendation] : [];
  if (sex === null && mm >= Math.min(male, female)) {
    lines.push(
      `${referral} if the patient is a woman (SVS 2018 referral threshold ${female} mm for women, ${male} mm for men).`,
    );
  }
  return lines;
}

export function gradeAorta({ facts, criteria, sex }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.aorta;
  const widest = highestAt(facts, "AO", null, "DIAMETER_MM");
  if (!widest) {
    out.notes.push({ site: vesselSite("AO"), side: null, phrase: "maximum diameter not assessed" });
    return out;
  }
  const grade = gradeAorticDiameter(widest.value, rules);
  out.conclusions.push({
    conclusion: {
      site: "AO",
      side: null,
      category: "aortic_diameter",
      grade,
      basis: `${rules.source}: maximum diameter ${formatValue("DIAMETER_MM", widest.value)} (${widest.site.code})`,
    },
    site: vesselSite("AO"),
    measured: { parameter: "DIAMETER_MM", value: widest.value },
    phrase: `maximum diameter ${formatValue("DIAMETER_MM", widest.value)}, ${gradePhrase("aortic_diameter", grade)}`,
  });
  out.recommendations.push(...aaaRecommendations(widest.value, sex, rules));
  return out;
}
