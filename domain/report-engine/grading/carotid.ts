import type { CarotidCriteria } from "../criteria-sets";
import { gradePhrase } from "../grade-phrases";
import { findingsAt, hasDataAt, highestAt, measurementsAt, type StudyFacts } from "../study-facts";
import { formatValue, roundRatio } from "../value-format";
import { type GradeOf, isPlaqueCharacter, type Side, vesselLabel } from "../vocabulary";
import {
  emptyOutput,
  type GradeContext,
  type GraderOutput,
  occludedWithVelocityWarning,
  vesselSite,
} from "./grader-types";

type CarotidGrade = GradeOf<"carotid_stenosis">;
type Band = "lt50" | "50_69" | "70_99";

const bandWords: Record<Band, string> = { lt50: "less than 50%", "50_69": "50-69%", "70_99": "70-99%" };

/** The CCA reference for the ratio is the distal CCA where recorded, as the SRU method measures it. */
const ccaPreference = ["DIST", "MID", null, "PROX"] as const;

function ccaReference(facts: StudyFacts, side: Side) {
  const ccaPsvs = measurementsAt(facts, "CCA", side, "PSV");
  for (const segment of ccaPreference) {
    const found = ccaPsvs.find((m) => m.site.segment === segment);
    if (found) return found;
  }
  return null;
}

function additionalBand(value: number, from50: number, above70: number): Band {
  if (value > above70) return "70_99";
  return value >= from50 ? "50_69" : "lt50";
}

export function gradeCarotid({ facts, criteria }: GradeContext): GraderOutput {
  const out = emptyOutput();
  for (const side of ["right", "left"] as const) gradeSide(facts, criteria.carotid, side, out);
  return out;
}

function gradeSide(facts: StudyFacts, rules: CarotidCriteria, side: Side, out: GraderOutput): void {
  const name = vesselLabel("ICA", side);
  const ica = findingsAt(facts, "ICA", side);
  const bulb = findingsAt(facts, "BULB", side);
  const psv = highestAt(facts, "ICA", side, "PSV");
  const edv = highestAt(facts, "ICA", side, "EDV");
  const measuredRatio = highestAt(facts, "ICA", side, "RATIO_ICA_CCA");
  const cca = ccaReference(facts, side);

  let ratio: { value: number; shown: number; computed: boolean; text: string } | null = null;
  if (measuredRatio) {
    const value = measuredRatio.value;
    ratio = { value, shown: value, computed: false, text: `ICA/CCA ratio ${value}` };
  } else if (psv && cca && cca.value > 0) {
    // Graded on the exact quotient; shown rounded, never across a threshold.
    const value = psv.value / cca.value;
    const shown = roundRatio(value, ratioThresholds(rules));
    ratio = {
      value,
      shown,
      computed: true,
      text: `ICA/CCA ratio ${shown} (computed: ICA PSV ${psv.value} / ${cca.site.code} PSV ${cca.value})`,
    };
    out.derived.push({ site: vesselSite("ICA"), side, parameter: "RATIO_ICA_CCA", value: shown });
  }

  // A plaque's echogenicity or surface recorded means a plaque was seen.
  const plaque = [...ica, ...bulb].some((f) => f === "plaque" || isPlaqueCharacter(f));
  const noPlaque = !plaque && (ica.has("no_plaque") || bulb.has("no_plaque"));
  const occluded = ica.has("occluded") || ica.has("no_flow");
  const nearOcclusion = ica.has("near_occlusion");

  const basisParts: string[] = [];
  if (psv) basisParts.push(`highest ICA PSV ${formatValue("PSV", psv.value)} (${psv.site.code})`);
  if (ratio) basisParts.push(ratio.text);
  if (edv) basisParts.push(`ICA EDV ${formatValue("EDV", edv.value)}`);
  basisParts.push(plaque ? "plaque present" : noPlaque ? "no plaque" : "plaque not recorded");

  let grade: CarotidGrade;
  if (occluded) {
    grade = "occlusion";
    if (psv && psv.value > 0) {
      out.warnings.push(occludedWithVelocityWarning(name, psv.value));
    }
  } else if (nearOcclusion) {
    grade = "near_occlusion";
  } else if (psv) {
    const band = psvBand(psv.value, ratio?.value ?? null, rules);
    if (rules.psv50WithRatio && band === "lt50" && !ratio && psv.value >= rules.psv50WithRatio.psvFrom) {
      out.warnings.push(
        `The ${name} PSV of ${formatValue("PSV", psv.value)} needs an ICA/CCA ratio to be graded 50% or more under the selected stricter criteria, and no ratio could be measured or computed; graded less than 50%.`,
      );
    }
    grade = band === "lt50" ? (plaque ? "lt50" : "normal") : band;
    if (band === "lt50" && !plaque && !noPlaque) {
      out.warnings.push(
        `Plaque was not recorded for the ${name}: graded as no stenosis; with plaque it would be less than 50% stenosis.`,
      );
    }
    disagreementWarnings(name, band, psv.value, ratio, edv?.value ?? null, rules, out);
  } else {
    // Any value at the ICA means it was examined: what is missing is the PSV, not the vessel.
    const anyIcaData = hasDataAt(facts, "ICA", side);
    out.notes.push({
      site: vesselSite("ICA"),
      side,
      phrase: anyIcaData ? "not graded, no ICA peak systolic velocity recorded" : "not assessed",
    });
    return;
  }

  out.conclusions.push({
    conclusion: {
      site: "ICA",
      side,
      category: "carotid_stenosis",
      grade,
      basis: `${rules.source}: ${basisParts.join("; ")}`,
    },
    site: vesselSite("ICA"),
    phrase: gradePhrase("carotid_stenosis", grade),
    // The numbers behind an abnormal grade, where physicians look for them.
    ...(psv && grade !== "normal" && grade !== "occlusion"
      ? {
          detail: `ICA PSV ${formatValue("PSV", psv.value)}${ratio ? `, ICA/CCA ratio ${ratio.shown}${ratio.computed ? " (computed)" : ""}` : ""}`,
        }
      : {}),
  });
  if (ica.has("ulcerated") || bulb.has("ulcerated")) {
    out.notes.push({ site: vesselSite("ICA"), side, phrase: "ulcerated plaque", kind: "finding" });
  }
  const recommendation = rules.followUp?.[grade];
  if (recommendation) out.recommendations.push(recommendation);
}

function ratioThresholds(rules: CarotidCriteria): number[] {
  return [rules.ratio50From, rules.ratio70Above, ...(rules.psv50WithRatio ? [rules.psv50WithRatio.ratioFrom] : [])];
}

function psvBand(psv: number, ratio: number | null, rules: CarotidCriteria): Band {
  if (psv > rules.psv70Above) return "70_99";
  if (psv >= rules.psv50From) return "50_69";
  const alt = rules.psv50WithRatio;
  if (alt && psv >= alt.psvFrom && ratio !== null && ratio >= alt.ratioFrom) return "50_69";
  return "lt50";
}

function disagreementWarnings(
  name: string,
  band: Band,
  psv: number,
  ratio: { value: number; shown: number; computed: boolean } | null,
  edv: number | null,
  rules: CarotidCriteria,
  out: GraderOutput,
): void {
  const byPsv = `PSV ${formatValue("PSV", psv)} indicates ${bandWords[band]}`;
  if (ratio) {
    const ratioBand = additionalBand(ratio.value, rules.ratio50From, rules.ratio70Above);
    if (ratioBand !== band) {
      out.warnings.push(
        `For the ${name}, the ICA/CCA ratio ${ratio.shown}${ratio.computed ? " (computed)" : ""} indicates ${bandWords[ratioBand]} but the ${byPsv}; graded by PSV, the primary parameter.`,
      );
    }
  }
  if (edv !== null) {
    const edvBand = additionalBand(edv, rules.edv50From, rules.edv70Above);
    if (edvBand !== band) {
      out.warnings.push(
        `For the ${name}, the EDV ${formatValue("EDV", edv)} indicates ${bandWords[edvBand]} but the ${byPsv}; graded by PSV, the primary parameter.`,
      );
    }
  }
}
