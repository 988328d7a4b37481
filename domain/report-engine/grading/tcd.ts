import type { TcdCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { hasDataAt, highestAt } from "../study-facts";
import { formatValue, roundRatio } from "../value-format";
import type { GradeOf } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

export function vasospasmGrade(mfv: number, rules: TcdCriteria): GradeOf<"tcd_vasospasm"> {
  if (mfv >= rules.severeFrom) return "severe";
  if (mfv >= rules.moderateFrom) return "moderate";
  return mfv >= rules.mildFrom ? "mild" : "none";
}

export function lindegaardGrade(ratio: number, rules: TcdCriteria): GradeOf<"lindegaard"> {
  if (ratio > rules.lindegaardSevereAbove) return "severe_vasospasm";
  return ratio >= rules.lindegaardVasospasmFrom ? "vasospasm" : "hyperemia";
}

/** MCA mean flow velocity grades vasospasm; the Lindegaard ratio separates it from hyperemia. */
export function gradeTcd({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.tcd;
  const mca = vesselSite("MCA");
  for (const side of ["right", "left"] as const) {
    const mfv = highestAt(facts, "MCA", side, "MFV");
    if (!mfv) {
      out.notes.push({
        site: mca,
        side,
        phrase: hasDataAt(facts, "MCA", side)
          ? "vasospasm not graded, mean flow velocity not recorded"
          : "not assessed",
      });
      continue;
    }
    const grade = vasospasmGrade(mfv.value, rules);
    out.conclusions.push({
      conclusion: {
        site: "MCA",
        side,
        category: "tcd_vasospasm",
        grade,
        basis: `${rules.source}: MCA mean flow velocity ${formatValue("MFV", mfv.value)} (${mfv.site.code})`,
      },
      site: mca,
      phrase: gradePhrase("tcd_vasospasm", grade),
    });

    const measured = highestAt(facts, "MCA", side, "LINDEGAARD");
    const ica = highestAt(facts, "ICA_EXTRA", side, "MFV");
    let ratio: number | null = measured?.value ?? null;
    let ratioText = measured ? `Lindegaard ratio ${measured.value}` : "";
    if (!measured && ica && ica.value > 0) {
      ratio = roundRatio(mfv.value / ica.value);
      ratioText = `Lindegaard ratio ${ratio} (computed: MCA MFV ${mfv.value} / extracranial ICA MFV ${ica.value})`;
      out.derived.push({ site: mca, side, parameter: "LINDEGAARD", value: ratio });
    }
    if (ratio === null) {
      out.notes.push({
        site: mca,
        side,
        phrase: "Lindegaard ratio not assessed, no extracranial ICA mean flow velocity",
      });
      continue;
    }
    const lr = lindegaardGrade(ratio, rules);
    out.conclusions.push({
      conclusion: {
        site: "MCA",
        side,
        category: "lindegaard",
        grade: lr,
        basis: `${rules.lindegaardSource}: ${ratioText}`,
      },
      site: mca,
      phrase: gradePhrase("lindegaard", lr),
    });
  }
  return out;
}
