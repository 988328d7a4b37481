import { gradePhrase } from "../grade-phrases";
import { deepVeins, keyVesselsForSide, lowerLimbVeins, type ScanProfile, upperLimbVeins } from "../scan-profiles";
import type { StudyFacts } from "../study-facts";
import { observationPhrases } from "../value-format";
import type { BaseSiteCode, ObservationFinding, ParsedSite, Side } from "../vocabulary";
import { emptyOutput, type GradeContext, type GraderOutput, vesselSite } from "./grader-types";

const veins: ReadonlySet<BaseSiteCode> = new Set([...lowerLimbVeins, ...upperLimbVeins]);
/** An occluded vein has thrombus in it: the sheet must say "chronic" or "treated" for it to mean anything else. */
const thrombosisFindings: readonly ObservationFinding[] = ["non_compressible", "thrombus", "occluded"];
/** The superficial trunks an endovenous ablation treats: after one, their closure is the intended result. */
const ablatedTrunks: ReadonlySet<BaseSiteCode> = new Set(["GSV", "SSV", "CEPV", "BASV"]);

export const CLOSURE_PHRASE = "occluded, consistent with closure of the treated vein";
export const NOT_CLOSED_PHRASE = "treated vein compressible, not closed";

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

/** Whether the sheet marks this superficial vein as treated, or the study follows its ablation. */
function isTreated(facts: StudyFacts, site: ParsedSite, side: Side | null, scanType: string): boolean {
  if (deepVeins.has(site.base)) return false;
  if (facts.observations.some((o) => o.site.base === site.base && o.side === side && o.finding === "treated")) {
    return true;
  }
  return scanType === "Post Endovenous Intervention" && ablatedTrunks.has(site.base);
}

/**
 * Compression ultrasound, segment by segment: thrombus, non-compressibility or occlusion is thrombosis, except
 * where the sheet says the change is chronic (post-thrombotic) or the vein is a treated one (its closure is the
 * intended result of the ablation and is reported as such).
 */
export function gradeVenousThrombosis({
  facts,
  criteria,
  profile,
  reportedSides,
  scanType,
}: GradeContext): GraderOutput {
  const out = emptyOutput();
  const assessed = new Set<string>();
  const sites = findingsBySite(facts);
  // A segment with thrombosis outranks "no thrombosis" recorded for its whole vessel (the facts warn of the clash).
  const thrombosedSegment = (base: BaseSiteCode, side: Side | null) =>
    sites.some(
      (s) =>
        s.site.segment !== null &&
        s.site.base === base &&
        s.side === side &&
        thrombosisFindings.some((f) => s.findings.has(f)) &&
        !s.findings.has("chronic"),
    );
  // "Occluded" or "non-compressible" said of a whole vessel leaves none of its segments free of thrombus.
  const wholeVesselBlocked = (base: BaseSiteCode, side: Side | null) =>
    sites.some(
      (s) =>
        s.site.segment === null &&
        s.site.base === base &&
        s.side === side &&
        (s.findings.has("occluded") || s.findings.has("non_compressible")) &&
        !s.findings.has("chronic") &&
        !isTreated(facts, s.site, side, scanType),
    );
  for (const { site, side, findings } of sites) {
    const positive = thrombosisFindings.filter((f) => findings.has(f));
    if (positive.length === 0 && !findings.has("compressible")) continue;
    assessed.add(`${side}|${site.base}`);
    if (isTreated(facts, site, side, scanType)) {
      if (positive.length > 0) out.notes.push({ site, side, phrase: CLOSURE_PHRASE, kind: "finding" });
      else if (findings.has("treated")) out.notes.push({ site, side, phrase: NOT_CLOSED_PHRASE, kind: "finding" });
      if (positive.length > 0 || findings.has("treated")) continue;
    }
    if (positive.length > 0 && findings.has("chronic")) {
      // Worded without "thrombus" or "thrombosis": it is not an acute thrombosis and must not read as one.
      const phrase = `chronic post-thrombotic change${findings.has("occluded") ? ", occluded" : ""}`;
      out.notes.push({ site, side, phrase, kind: "finding" });
      continue;
    }
    const grade = positive.length > 0 ? "present" : "absent";
    if (grade === "absent" && site.segment === null && thrombosedSegment(site.base, side)) continue;
    if (grade === "absent" && site.segment !== null && wholeVesselBlocked(site.base, side)) continue;
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
  // Flow that no longer varies with breathing at the groin points to an obstruction above it.
  for (const side of reportedSides) {
    if (facts.observations.some((o) => o.site.base === "CFV" && o.side === side && o.finding === "continuous_flow")) {
      out.notes.push({
        site: vesselSite("CFV"),
        side,
        kind: "finding",
        phrase:
          "continuous (non-phasic) flow, suggesting obstruction proximal to it (iliac veins or inferior vena cava)",
      });
      out.recommendations.push("Consider imaging of the iliac veins and inferior vena cava.");
    }
  }
  for (const side of reportedSides) {
    for (const base of keyDeepVeins(facts, side, profile)) {
      if (!assessed.has(`${side}|${base}`)) {
        out.notes.push({ site: vesselSite(base), side, phrase: "compression not assessed", kind: "limitation" });
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
