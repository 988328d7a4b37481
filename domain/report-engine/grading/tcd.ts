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

/** "severe range by velocity": how the impression names a velocity grade that the ratio attributes to hyperemia. */
export const velocityRangePhrase = (grade: Exclude<GradeOf<"tcd_vasospasm">, "none">) =>
  `mean flow velocity in the ${grade} range`;

/**
 * MCA mean flow velocity grades vasospasm; the Lindegaard ratio separates it from hyperemia, and is read only when
 * the velocity is raised (at or above the mild threshold): at a normal velocity a low ratio means nothing.
 */
export function gradeTcd({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.tcd;
  const mca = vesselSite("MCA");
  const ratioThresholds = [rules.lindegaardVasospasmFrom, rules.lindegaardSevereAbove];
  for (const side of ["right", "left"] as const) {
    const mfv = highestAt(facts, "MCA", side, "MFV");
    if (!mfv) {
      out.notes.push({
        site: mca,
        side,
        phrase: hasDataAt(facts, "MCA", side)
          ? "vasospasm not graded, mean flow velocity not recorded"
          : "not assessed",
        kind: "limitation",
      });
      continue;
    }
    const grade = vasospasmGrade(mfv.value, rules);
    const velocity = {
      conclusion: {
        site: "MCA",
        side,
        category: "tcd_vasospasm" as const,
        grade,
        basis: `${rules.source}: MCA mean flow velocity ${formatValue("MFV", mfv.value)} (${mfv.site.code})`,
      },
      site: mca,
      phrase: `${gradePhrase("tcd_vasospasm", grade)} (mean flow velocity ${formatValue("MFV", mfv.value)})`,
    };

    const measured = highestAt(facts, "MCA", side, "LINDEGAARD");
    const ica = highestAt(facts, "ICA_EXTRA", side, "MFV");
    let ratio: number | null = measured?.value ?? null;
    let ratioText = measured ? `Lindegaard ratio ${measured.value}` : "";
    if (!measured && ica && ica.value > 0) {
      // Graded on the exact quotient; shown rounded, never across a threshold.
      ratio = mfv.value / ica.value;
      const shown = roundRatio(ratio, ratioThresholds);
      ratioText = `Lindegaard ratio ${shown} (computed: MCA MFV ${mfv.value} / extracranial ICA MFV ${ica.value})`;
      out.derived.push({ site: mca, side, parameter: "LINDEGAARD", value: shown });
    }
    if (grade === "none") {
      // The ratio is shown in the findings but not interpreted at a normal velocity.
      out.conclusions.push(velocity);
      continue;
    }
    if (ratio === null) {
      out.conclusions.push(velocity);
      out.notes.push({
        site: mca,
        side,
        phrase: "Lindegaard ratio not assessed, no extracranial ICA mean flow velocity",
        kind: "limitation",
      });
      continue;
    }
    const lr = lindegaardGrade(ratio, rules);
    const lindegaard = {
      conclusion: {
        site: "MCA",
        side,
        category: "lindegaard" as const,
        grade: lr,
        basis: `${rules.lindegaardSource}: ${ratioText}`,
      },
      site: mca,
      phrase: gradePhrase("lindegaard", lr),
    };
    if (lr === "hyperemia") {
      // One statement, not "severe vasospasm; hyperemia": the ratio says the raised velocity is hyperemia.
      const phrase = `${velocityRangePhrase(grade)} (${formatValue("MFV", mfv.value)}) with a Lindegaard ratio below ${rules.lindegaardVasospasmFrom}: hyperemia rather than vasospasm`;
      out.conclusions.push({ ...velocity, phrase }, { ...lindegaard, phrase });
      out.warnings.push(
        `For the ${side} middle cerebral artery, the mean flow velocity ${formatValue("MFV", mfv.value)} is in the ${grade} vasospasm range but the ${ratioText.replace(/ \(computed.*$/, " (computed)")} is below ${rules.lindegaardVasospasmFrom}: hyperemia is likelier than vasospasm.`,
      );
      continue;
    }
    out.conclusions.push(velocity, lindegaard);
  }
  return out;
}
