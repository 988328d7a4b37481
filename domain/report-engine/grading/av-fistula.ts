import type { AvfCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { highestAt, lowestAt, type MeasurementFact, type StudyFacts } from "../study-facts";
import { formatValue } from "../value-format";
import type { GradeOf, Side } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

export interface AvfMaturity {
  grade: GradeOf<"avf_maturity">;
  /** Each criterion of the rule of 6s that is not met, in plain words, for the impression. */
  failed: string[];
  /** Criteria whose value is missing: a missing value counts as failed and is reported as a warning. */
  missing: string[];
  basis: string;
}

export function assessAvf(
  flow: number | null,
  diameter: number | null,
  depth: number | null,
  rules: AvfCriteria,
  /** Criteria whose value was given but refused (unknown unit, impossible value): not "not recorded". */
  refused: ReadonlySet<string> = new Set(),
): AvfMaturity {
  const failed: string[] = [];
  const missing: string[] = [];
  const check = (label: string, value: number | null, ok: (v: number) => boolean, failText: (v: string) => string) => {
    if (value === null && refused.has(label)) {
      failed.push(`${label} not usable (see the warnings)`);
    } else if (value === null) {
      missing.push(label);
      failed.push(`${label} not recorded`);
    } else if (!ok(value)) {
      failed.push(failText(String(value)));
    }
  };
  check(
    "volume flow",
    flow,
    (v) => v >= rules.flowFromMlMin,
    (v) => `volume flow ${v} mL/min below the minimum`,
  );
  check(
    "outflow vein diameter",
    diameter,
    (v) => v >= rules.diameterFromMm,
    (v) => `outflow vein diameter ${v} mm below the minimum`,
  );
  check(
    "outflow vein depth",
    depth,
    (v) => v <= rules.depthUpToMm,
    (v) => `outflow vein depth ${v} mm beyond the maximum`,
  );
  const shown = (v: number | null, unit: string) => (v === null ? "not recorded" : `${v} ${unit}`);
  const basis = `${rules.source} (flow >= ${rules.flowFromMlMin} mL/min, diameter >= ${rules.diameterFromMm} mm, depth <= ${rules.depthUpToMm} mm): flow ${shown(flow, "mL/min")}, diameter ${shown(diameter, "mm")}, depth ${shown(depth, "mm")}`;
  return { grade: failed.length === 0 ? "mature" : "immature", failed, missing, basis };
}

/** Inflow flow is the KDOQI measurement; the outflow vein flow stands in when it is all there is. */
function accessFlow(facts: StudyFacts, side: Side | null): MeasurementFact | null {
  return (
    lowestAt(facts, "AVF_ARTERY", side, "FLOW_ML_MIN") ??
    lowestAt(facts, "AVF_VEIN", side, "FLOW_ML_MIN") ??
    lowestAt(facts, "AVF_ANAST", side, "FLOW_ML_MIN")
  );
}

export function gradeAvFistula({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const accessFacts = [...facts.measurements, ...facts.observations].filter((f) => f.site.base.startsWith("AVF_"));
  const sides = (["right", "left", null] as const).filter((side) => accessFacts.some((f) => f.side === side));
  if (sides.length === 0) {
    out.notes.push({ site: vesselSite("AVF_VEIN"), side: null, phrase: "maturity not assessed" });
    return out;
  }
  for (const side of sides) {
    const flow = accessFlow(facts, side);
    // The narrowest and the deepest point of the outflow vein decide whether it can be needled.
    const diameter = lowestAt(facts, "AVF_VEIN", side, "DIAMETER_MM");
    const depth = highestAt(facts, "AVF_VEIN", side, "DEPTH_MM");
    const refusedHere = facts.refused.filter((r) => r.side === side && r.site.base.startsWith("AVF_"));
    const refused = new Set<string>();
    if (refusedHere.some((r) => r.parameter === "FLOW_ML_MIN")) refused.add("volume flow");
    if (refusedHere.some((r) => r.parameter === "DIAMETER_MM" && r.site.base === "AVF_VEIN")) {
      refused.add("outflow vein diameter");
    }
    if (refusedHere.some((r) => r.parameter === "DEPTH_MM" && r.site.base === "AVF_VEIN"))
      refused.add("outflow vein depth");
    const result = assessAvf(flow?.value ?? null, diameter?.value ?? null, depth?.value ?? null, criteria.avf, refused);
    for (const label of result.missing) {
      out.warnings.push(
        `Access maturity: the ${label} was not recorded, so the rule of 6s counts it as not met; the access is graded immature.`,
      );
    }
    const phrase =
      result.grade === "mature"
        ? `${gradePhrase("avf_maturity", "mature")} (volume flow ${formatValue("FLOW_ML_MIN", flow?.value ?? 0)}, diameter ${formatValue("DIAMETER_MM", diameter?.value ?? 0)}, depth ${formatValue("DEPTH_MM", depth?.value ?? 0)})`
        : `${gradePhrase("avf_maturity", "immature")} (${result.failed.join("; ")})`;
    out.conclusions.push({
      conclusion: { site: "AVF_VEIN", side, category: "avf_maturity", grade: result.grade, basis: result.basis },
      site: vesselSite("AVF_VEIN"),
      phrase,
    });
  }
  return out;
}
