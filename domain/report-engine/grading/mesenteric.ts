import type { MesentericCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { findingsAt, hasDataAt, highestAt } from "../study-facts";
import { formatValue } from "../value-format";
import { type GradeOf, vesselLabel } from "../vocabulary";
import {
  emptyOutput,
  type GradeContext,
  type GraderOutput,
  occludedWithVelocityWarning,
  vesselSite,
} from "./grader-types";

export function gradeMesentericValue(
  base: "SMA" | "CA",
  psv: number,
  rules: MesentericCriteria,
): GradeOf<"mesenteric_stenosis"> {
  return psv >= (base === "SMA" ? rules.smaPsvFrom : rules.celiacPsvFrom) ? "ge70" : "lt70";
}

export function gradeMesenteric({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.mesenteric;
  for (const base of ["CA", "SMA"] as const) {
    const psv = highestAt(facts, base, null, "PSV");
    const seen = findingsAt(facts, base, null);
    const occluded = seen.has("occluded") || seen.has("no_flow");
    if (!occluded && !psv) {
      out.notes.push({
        site: vesselSite(base),
        side: null,
        phrase: hasDataAt(facts, base, null) ? "not graded, no PSV recorded" : "not assessed",
      });
      continue;
    }
    const grade = occluded ? "occlusion" : gradeMesentericValue(base, psv?.value ?? 0, rules);
    if (occluded && psv && psv.value > 0) {
      out.warnings.push(occludedWithVelocityWarning(vesselLabel(base, null), psv.value));
    }
    const limit = base === "SMA" ? rules.smaPsvFrom : rules.celiacPsvFrom;
    out.conclusions.push({
      conclusion: {
        site: base,
        side: null,
        category: "mesenteric_stenosis",
        grade,
        basis: `${rules.source}: ${occluded ? "occluded / no flow" : `peak PSV ${formatValue("PSV", psv?.value ?? 0)} (70% or greater at >= ${limit} cm/s)`}`,
      },
      site: vesselSite(base),
      phrase: gradePhrase("mesenteric_stenosis", grade),
      ...(grade === "ge70" && psv ? { detail: `PSV ${formatValue("PSV", psv.value)}` } : {}),
    });
  }
  if (out.conclusions.length > 0) out.statements.push(rules.fastingNote);
  return out;
}
