import { gradePhrase } from "../grade-phrases";
import type { MeasurementFact } from "../study-facts";
import { formatValue } from "../value-format";
import { type ParsedSite, type Side, siteLabel } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput } from "./grader-types";

interface SiteValues {
  site: ParsedSite;
  side: Side | null;
  reflux: number | null;
  diameter: number | null;
}

function bySite(measurements: readonly MeasurementFact[], perforators: boolean): SiteValues[] {
  const map = new Map<string, SiteValues>();
  for (const m of measurements) {
    if ((m.site.base === "PERF") !== perforators) continue;
    if (m.parameter !== "REFLUX_MS" && m.parameter !== "DIAMETER_MM") continue;
    const key = `${m.side}|${m.site.code}`;
    const entry = map.get(key) ?? { site: m.site, side: m.side, reflux: null, diameter: null };
    // With two differing values the larger one grades: reflux and calibre are what the criteria look for.
    if (m.parameter === "REFLUX_MS") entry.reflux = Math.max(entry.reflux ?? 0, m.value);
    else entry.diameter = Math.max(entry.diameter ?? 0, m.value);
    map.set(key, entry);
  }
  return [...map.values()];
}

/** Reflux time per vein segment (Labropoulos): deep veins > 1000 ms, every other vein > 500 ms. */
export function gradeVenousReflux({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.venous;
  for (const { site, side, reflux } of bySite(facts.measurements, false)) {
    if (reflux === null) continue;
    const deep = rules.deepRefluxVeins.includes(site.base);
    const limit = deep ? rules.deepRefluxAboveMs : rules.superficialRefluxAboveMs;
    const grade = reflux > limit ? "present" : "absent";
    out.conclusions.push({
      conclusion: {
        site: site.code,
        side,
        category: "venous_reflux",
        grade,
        basis: `${rules.refluxSource}: reflux time ${formatValue("REFLUX_MS", reflux)} ${grade === "present" ? ">" : "<="} ${limit} ms (${deep ? "deep" : "superficial"} vein)`,
      },
      site,
      // Deep and superficial reflux are treated differently, so the impression keeps them apart.
      phrase:
        grade === "present"
          ? `pathological ${deep ? "deep" : "superficial"} venous reflux`
          : gradePhrase("venous_reflux", grade),
    });
  }
  return out;
}

/** Perforators: pathological with outward reflux >= 500 ms and diameter >= 3.5 mm; both are needed. */
export function gradePerforators({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const rules = criteria.venous;
  for (const { site, side, reflux, diameter } of bySite(facts.measurements, true)) {
    const refluxMet = reflux !== null && reflux >= rules.perforatorRefluxFromMs;
    const diameterMet = diameter !== null && diameter >= rules.perforatorDiameterFromMm;
    const refluxFails = reflux !== null && !refluxMet;
    const diameterFails = diameter !== null && !diameterMet;
    const name = siteLabel(site, side);
    if (!refluxFails && !diameterFails && (reflux === null || diameter === null)) {
      const missing = reflux === null ? "reflux time" : "diameter";
      out.warnings.push(`The ${name} cannot be graded: its ${missing} was not recorded.`);
      out.notes.push({ site, side, phrase: `not graded, ${missing} not recorded` });
      continue;
    }
    const grade = refluxMet && diameterMet ? "pathologic" : "normal";
    const parts = [
      reflux === null ? "reflux time not recorded" : `outward reflux ${formatValue("REFLUX_MS", reflux)}`,
      diameter === null ? "diameter not recorded" : `diameter ${formatValue("DIAMETER_MM", diameter)}`,
    ];
    out.conclusions.push({
      conclusion: {
        site: site.code,
        side,
        category: "perforator",
        grade,
        basis: `${rules.perforatorSource} (reflux >= ${rules.perforatorRefluxFromMs} ms and diameter >= ${rules.perforatorDiameterFromMm} mm): ${parts.join(", ")}`,
      },
      site,
      phrase: gradePhrase("perforator", grade),
    });
  }
  return out;
}
