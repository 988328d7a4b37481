import type { AbiCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { lowestAt, measurementsAt } from "../study-facts";
import type { GradeOf } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

export function gradeAbiValue(abi: number, rules: AbiCriteria): GradeOf<"abi"> {
  if (abi > rules.noncompressibleAbove) return "noncompressible";
  if (abi >= rules.normalFrom) return "normal";
  if (abi > rules.borderlineAbove) return "borderline";
  if (abi > rules.mildModerateAbove) return "mild_moderate";
  return "severe";
}

export function gradeAbi({ facts, criteria, reportedSides }: GradeContext): GraderOutput {
  const out = emptyOutput();
  for (const side of reportedSides) {
    // With two differing values the lower one grades: it is the one that would not miss disease.
    const abi = lowestAt(facts, "ANKLE", side, "ABI");
    if (!abi) {
      out.notes.push({ site: vesselSite("ANKLE"), side, phrase: "ankle-brachial index not assessed" });
      continue;
    }
    const grade = gradeAbiValue(abi.value, criteria.abi);
    if (grade === "noncompressible") out.recommendations.push(criteria.abi.noncompressibleRecommendation);
    const several = measurementsAt(facts, "ANKLE", side, "ABI").length > 1 ? " (lowest recorded)" : "";
    out.conclusions.push({
      conclusion: {
        site: abi.site.code,
        side,
        category: "abi",
        grade,
        basis: `${criteria.abi.source}: ABI ${abi.value}${several}`,
      },
      site: abi.site,
      phrase: gradePhrase("abi", grade),
      detail: `ABI ${abi.value}${several}`,
    });
  }
  return out;
}
