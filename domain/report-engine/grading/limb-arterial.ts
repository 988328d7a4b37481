import type { LimbArterialCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import type { StudyFacts } from "../study-facts";
import { roundRatio } from "../value-format";
import {
  type BaseSiteCode,
  type GradeOf,
  type ObservationFinding,
  type ParsedSite,
  type Side,
  segmentOrder,
  siteLabel,
} from "../vocabulary";
import { emptyOutput, type Grader, type GraderOutput, occludedWithVelocityWarning, vesselSite } from "./grader-types";

type ArterialGrade = GradeOf<"arterial_stenosis">;

interface SegmentData {
  site: ParsedSite;
  psv: number | null;
  psvr: number | null;
  findings: Set<ObservationFinding>;
}

function segmentsOf(facts: StudyFacts, base: BaseSiteCode, side: Side): SegmentData[] {
  const bySite = new Map<string, SegmentData>();
  const entry = (site: ParsedSite) => {
    const found = bySite.get(site.code);
    if (found) return found;
    const created: SegmentData = { site, psv: null, psvr: null, findings: new Set() };
    bySite.set(site.code, created);
    return created;
  };
  for (const m of facts.measurements) {
    if (m.site.base !== base || m.side !== side) continue;
    const data = entry(m.site);
    // The highest velocity at a segment is the one that reflects a stenosis there.
    if (m.parameter === "PSV") data.psv = Math.max(data.psv ?? 0, m.value);
    if (m.parameter === "PSVR") data.psvr = Math.max(data.psvr ?? 0, m.value);
  }
  for (const o of facts.observations) {
    if (o.site.base === base && o.side === side) entry(o.site).findings.add(o.finding);
  }
  return [...bySite.values()].sort((a, b) => segmentOrder(a.site.segment) - segmentOrder(b.site.segment));
}

export function gradeFromPsvr(
  psvr: number,
  findings: ReadonlySet<ObservationFinding>,
  rules: LimbArterialCriteria,
): ArterialGrade {
  if (psvr >= rules.psvr75From) return "75_99";
  if (psvr >= rules.psvr50From) return "50_74";
  // With conflicting waveforms recorded, the abnormal one stands: "none" needs an unambiguous triphasic signal.
  const abnormalWave = findings.has("biphasic") || findings.has("monophasic") || findings.has("dampened");
  const clean = findings.has("no_plaque") && !findings.has("plaque") && findings.has("triphasic") && !abnormalWave;
  return clean ? "none" : "lt50";
}

/** PSV ratio grading of the arteries of one limb (lower or upper), segment by segment. */
export function limbArterialGrader(arteries: readonly BaseSiteCode[]): Grader {
  return ({ facts, criteria, profile, reportedSides }) => {
    const out = emptyOutput();
    for (const side of reportedSides) {
      for (const base of arteries) {
        const segments = segmentsOf(facts, base, side);
        if (segments.length === 0) {
          if (profile.keyVessels.includes(base))
            out.notes.push({ site: vesselSite(base), side, phrase: "not assessed" });
          continue;
        }
        gradeArtery(base, side, segments, criteria.limbArterial, out);
      }
    }
    return out;
  };
}

function gradeArtery(
  base: BaseSiteCode,
  side: Side,
  segments: SegmentData[],
  rules: LimbArterialCriteria,
  out: GraderOutput,
): void {
  const vesselFindings = segments.find((s) => s.site.segment === null)?.findings ?? new Set<ObservationFinding>();
  const hasSegments = segments.some((s) => s.site.segment !== null);
  let reference: SegmentData | null = null;
  let graded = false;
  for (const segment of segments) {
    // A whole-vessel entry has no place in a proximal-to-distal chain of segments.
    const inChain = !(hasSegments && segment.site.segment === null);
    const findings = new Set([...vesselFindings, ...segment.findings]);
    const occluded = segment.findings.has("occluded") || segment.findings.has("no_flow");
    let grade: ArterialGrade | null = null;
    let basis = "";
    let detail: string | undefined;
    if (occluded) {
      grade = "occlusion";
      basis = segment.findings.has("occluded") ? "occluded" : "no flow detected";
      if (segment.psv !== null && segment.psv > 0) {
        out.warnings.push(occludedWithVelocityWarning(siteLabel(segment.site, side), segment.psv));
      }
    } else if (segment.psvr !== null) {
      grade = gradeFromPsvr(segment.psvr, findings, rules);
      basis = `PSV ratio ${segment.psvr}`;
      detail = `PSV ratio ${segment.psvr}`;
    } else if (inChain && segment.psv !== null && reference?.psv) {
      // Graded on the exact quotient; shown rounded, never across a threshold.
      const psvr = segment.psv / reference.psv;
      const shown = roundRatio(psvr, [rules.psvr50From, rules.psvr75From]);
      grade = gradeFromPsvr(psvr, findings, rules);
      detail = `PSV ratio ${shown} (computed)`;
      basis = `PSV ratio ${shown} (computed: ${segment.site.code} PSV ${segment.psv} / ${reference.site.code} PSV ${reference.psv})`;
      out.derived.push({ site: segment.site, side, parameter: "PSVR", value: shown });
    }
    if (grade) {
      if (grade === "none" || grade === "lt50") {
        basis += findings.has("plaque") ? "; plaque present" : findings.has("no_plaque") ? "; no plaque" : "";
        basis += findings.has("triphasic") ? "; triphasic waveform" : "";
      }
      graded = true;
      out.conclusions.push({
        conclusion: {
          site: segment.site.code,
          side,
          category: "arterial_stenosis",
          grade,
          basis: `${rules.source}: ${basis}`,
        },
        site: segment.site,
        phrase: gradePhrase("arterial_stenosis", grade),
        ...(detail && grade !== "none" ? { detail } : {}),
      });
    }
    if (inChain) reference = occluded ? null : segment.psv !== null ? segment : reference;
  }
  if (!graded) {
    out.notes.push({ site: vesselSite(base), side, phrase: "stenosis not graded, no PSV ratio recorded" });
  }
}
