import { gradePhrase } from "../grade-phrases";
import { deepVeins, keyVesselsForSide, lowerLimbVeins, type ScanProfile, upperLimbVeins } from "../scan-profiles";
import type { StudyFacts } from "../study-facts";
import { observationPhrases } from "../value-format";
import type { BaseSiteCode, ObservationFinding, ParsedSite, Side } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

const veins: ReadonlySet<BaseSiteCode> = new Set([...lowerLimbVeins, ...upperLimbVeins]);
const thrombosisFindings: readonly ObservationFinding[] = ["non_compressible", "thrombus"];

interface SiteFindings {
  site: ParsedSite;
  side: Side | null;
  findings: Set<ObservationFinding>;
}

function findingsBySite(facts: StudyFacts): SiteFindings[] {
  const map = new Map<string, SiteFindings>();
  for (const o of facts.observations) {
    if (!veins.has(o.site.base)) continue;
    const key = `${o.side}|${o.site.code}`;
    const entry = map.get(key) ?? { site: o.site, side: o.side, findings: new Set<ObservationFinding>() };
    entry.findings.add(o.finding);
    map.set(key, entry);
  }
  return [...map.values()];
}

/** Compression ultrasound, segment by segment: thrombus or non-compressibility is thrombosis. */
export function gradeVenousThrombosis({ facts, criteria, profile, reportedSides }: GradeContext): GraderOutput {
  const out = emptyOutput();
  const assessed = new Set<string>();
  for (const { site, side, findings } of findingsBySite(facts)) {
    const positive = thrombosisFindings.filter((f) => findings.has(f));
    if (positive.length === 0 && !findings.has("compressible")) continue;
    assessed.add(`${side}|${site.base}`);
    const grade = positive.length > 0 ? "present" : "absent";
    const deep = deepVeins.has(site.base);
    const basisWords = positive.length > 0 ? positive.map((f) => observationPhrases[f]) : ["fully compressible"];
    let phrase = gradePhrase("dvt", grade);
    if (grade === "present") phrase += deep ? " (deep vein thrombosis)" : " (superficial vein thrombosis)";
    out.conclusions.push({
      conclusion: {
        site: site.code,
        side,
        category: "dvt",
        grade,
        basis: `${criteria.venous.dvtSource}: ${basisWords.join(", ")}${deep ? "" : " (superficial vein)"}`,
      },
      site,
      phrase,
    });
  }
  for (const side of reportedSides) {
    for (const base of keyDeepVeins(facts, side, profile)) {
      if (!assessed.has(`${side}|${base}`)) {
        out.notes.push({ site: vesselSite(base), side, phrase: "compression not assessed" });
      }
    }
  }
  return out;
}

function keyDeepVeins(facts: StudyFacts, side: Side, profile: ScanProfile): readonly BaseSiteCode[] {
  const onSide = [...facts.measurements, ...facts.observations].filter((f) => f.side === side);
  const bases = new Set(onSide.map((f) => f.site.base));
  return keyVesselsForSide(profile, bases).filter((base) => deepVeins.has(base));
}
