import type { RenalCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { findingsAt, hasDataAt, highestAt, measurementsAt, type StudyFacts } from "../study-facts";
import { formatValue, roundRatio } from "../value-format";
import type { GradeOf, Side } from "../vocabulary";
import {
  emptyOutput,
  type GradeContext,
  type GraderOutput,
  occludedWithVelocityWarning,
  vesselSite,
} from "./grader-types";

const isOccluded = (facts: StudyFacts, side: Side) => {
  const seen = findingsAt(facts, "RA", side);
  return seen.has("occluded") || seen.has("no_flow");
};

/** The aortic PSV at the level of the renal arteries; an unsegmented or proximal aorta value first. */
function aorticReference(facts: StudyFacts) {
  const values = measurementsAt(facts, "AO", null, "PSV");
  for (const segment of [null, "PROX", "MID", "DIST"] as const) {
    const found = values.find((m) => m.site.segment === segment);
    if (found) return found;
  }
  return null;
}

export function gradeRenalValues(
  psv: number | null,
  rar: number | null,
  rules: RenalCriteria,
): GradeOf<"renal_stenosis"> | null {
  if (psv === null && rar === null) return null;
  return (psv !== null && psv >= rules.psvFrom) || (rar !== null && rar >= rules.rarFrom) ? "ge60" : "lt60";
}

export function gradeRenal({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.renal;
  const aorta = aorticReference(facts);
  for (const side of ["right", "left"] as const) {
    const psv = highestAt(facts, "RA", side, "PSV");
    const measuredRar = highestAt(facts, "RA", side, "RAR");
    let rar: number | null = measuredRar?.value ?? null;
    let rarText = measuredRar ? `RAR ${measuredRar.value}` : "RAR not available";
    let rarShown = rar;
    if (!measuredRar && psv && aorta && aorta.value > 0) {
      // Graded on the exact quotient; shown rounded, never across the threshold.
      rar = psv.value / aorta.value;
      rarShown = roundRatio(rar, [rules.rarFrom]);
      rarText = `RAR ${rarShown} (computed: renal PSV ${psv.value} / aortic PSV ${aorta.value})`;
      out.derived.push({ site: vesselSite("RA"), side, parameter: "RAR", value: rarShown });
    }
    const occluded = isOccluded(facts, side);
    const grade = occluded ? "occlusion" : gradeRenalValues(psv?.value ?? null, rar, rules);
    if (!grade) {
      out.notes.push({
        site: vesselSite("RA"),
        side,
        phrase: hasDataAt(facts, "RA", side) ? "not graded, no PSV or renal-aortic ratio recorded" : "not assessed",
      });
      continue;
    }
    const name = `${side} renal artery`;
    if (occluded && psv && psv.value > 0) out.warnings.push(occludedWithVelocityWarning(name, psv.value));
    if (!occluded && psv && rar !== null && psv.value >= rules.psvFrom !== rar >= rules.rarFrom) {
      out.warnings.push(
        `For the ${name}, PSV ${formatValue("PSV", psv.value)} and RAR ${rarShown}${measuredRar ? "" : " (computed)"} disagree about 60% or greater stenosis; graded 60% or greater because either criterion suffices.`,
      );
    }
    const psvText = psv ? `peak PSV ${formatValue("PSV", psv.value)}` : "PSV not recorded";
    out.conclusions.push({
      conclusion: {
        site: "RA",
        side,
        category: "renal_stenosis",
        grade,
        basis: `${rules.source}: ${occluded ? "occluded / no flow" : `${psvText}; ${rarText}`}`,
      },
      site: vesselSite("RA"),
      phrase: gradePhrase("renal_stenosis", grade),
      ...(grade === "ge60"
        ? {
            detail: [
              psv ? `PSV ${formatValue("PSV", psv.value)}` : null,
              rar !== null ? `RAR ${rarShown}${measuredRar ? "" : " (computed)"}` : null,
            ]
              .filter(Boolean)
              .join(", "),
          }
        : {}),
    });
  }
  for (const side of ["right", "left"] as const) {
    const ri = highestAt(facts, "RA", side, "RI");
    if (ri && ri.value >= rules.riFrom) {
      out.notes.push({
        site: vesselSite("RA"),
        side,
        kind: "finding",
        phrase: `resistive index ${ri.value} (${rules.riFrom} or higher): suggests renal parenchymal disease, in which revascularization is less likely to help (${rules.riSource})`,
      });
    }
  }
  return out;
}
