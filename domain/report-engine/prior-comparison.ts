import type { Conclusion, Measurement } from "../contracts/study";
import { gradePhrase } from "./grade-phrases";
import { toCriteriaUnit } from "./units";
import { formatNumber } from "./value-format";
import { type BaseSiteCode, type ConclusionCategory, gradesByCategory, parseSiteCode, siteNames } from "./vocabulary";

// Comparison with the patient's prior study of the same scan type (issue 31 item 11; rules in
// docs/clinical-criteria.md, "Comparison with a prior study"). Pure: the prior is found by the server.

/** What the comparison needs of a finalized prior report. */
export type PriorStudy = {
  examDate: string;
  conclusions: readonly Conclusion[];
  /** Null for reports drafted before measurements were kept: the aorta is then not compared. */
  measurements: readonly Measurement[] | null;
};

/** Aneurysm growth that refers to vascular surgery (SVS 2018): this much per year, or this much within 6 months. */
export const RAPID_GROWTH_MM_PER_YEAR = 10;
export const RAPID_GROWTH_MM_IN_6_MONTHS = 5;

export type AorticGrowth = {
  priorMm: number;
  currentMm: number;
  growthMm: number;
  days: number;
  /** Growth per year over the interval. */
  mmPerYear: number;
  rapid: boolean;
};

export type PriorComparison = {
  priorDate: string;
  /** One sentence for the impression: "Compared with the prior study of 2024-03-01: ...". */
  impression: string;
  recommendation: string | null;
  growth: AorticGrowth | null;
};

/** Categories whose grades rise with severity: a later grade is worse. */
const stenosisCategories = [
  "carotid_stenosis",
  "arterial_stenosis",
  "renal_stenosis",
  "mesenteric_stenosis",
] as const satisfies readonly ConclusionCategory[];
type StenosisCategory = (typeof stenosisCategories)[number];
const isStenosis = (c: Conclusion): c is Extract<Conclusion, { category: StenosisCategory }> =>
  (stenosisCategories as readonly string[]).includes(c.category);
const rank = (category: StenosisCategory, grade: string) =>
  (gradesByCategory[category] as readonly string[]).indexOf(grade);

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** Whether `to` is no later than 6 calendar months after `from` (2024-08-31 + 6 months is 2025-02-28). */
export function withinSixMonths(from: string, to: string): boolean {
  const [y, m, d] = from.split("-").map(Number) as [number, number, number];
  const month = m - 1 + 6;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  const limit = new Date(Date.UTC(y, month, Math.min(d, lastDay))).toISOString().slice(0, 10);
  return to <= limit;
}

/** The largest aortic diameter of a study in mm (values in cm converted), null when none was measured. */
export function maxAorticDiameter(measurements: readonly Measurement[]): number | null {
  const values = measurements.flatMap((m) => {
    if (m.parameter !== "DIAMETER_MM" || parseSiteCode(m.site)?.base !== "AO") return [];
    const converted = toCriteriaUnit("DIAMETER_MM", m.value, m.unit);
    return converted.ok ? [converted.value] : [];
  });
  return values.length > 0 ? Math.max(...values) : null;
}

/**
 * Aneurysm growth between two studies. Rapid (refer) when it reaches 5 mm within 6 months, or, over a longer
 * interval, 10 mm per year; within 6 months a smaller growth is not annualised (a 2 mm difference a month apart is
 * measurement variation, not 24 mm per year).
 */
export function aorticGrowth(priorMm: number, priorDate: string, currentMm: number, currentDate: string): AorticGrowth {
  const days = daysBetween(priorDate, currentDate);
  const growthMm = Number((currentMm - priorMm).toFixed(6));
  const mmPerYear = days > 0 ? (growthMm * 365.25) / days : 0;
  const rapid = withinSixMonths(priorDate, currentDate)
    ? growthMm >= RAPID_GROWTH_MM_IN_6_MONTHS
    : mmPerYear >= RAPID_GROWTH_MM_PER_YEAR;
  return { priorMm, currentMm, growthMm, days, mmPerYear, rapid };
}

const where = (c: Conclusion) => {
  const name = siteNames[c.site as BaseSiteCode] ?? c.site;
  return c.side ? `${c.side} ${name}` : name;
};

function stenosisChanges(current: readonly Conclusion[], prior: readonly Conclusion[]): string[] {
  const out: string[] = [];
  for (const now of current.filter(isStenosis)) {
    const before = prior.find((p) => p.category === now.category && p.site === now.site && p.side === now.side) as
      | Extract<Conclusion, { category: StenosisCategory }>
      | undefined;
    // A vessel the prior study did not grade is not compared: "new" needs a prior that saw it.
    if (!before) continue;
    const nowRank = rank(now.category, now.grade);
    const priorRank = rank(now.category, before.grade);
    const nowPhrase = gradePhrase(now.category, now.grade as never);
    const priorPhrase = gradePhrase(now.category, before.grade as never);
    if (nowRank > priorRank) {
      out.push(
        priorRank === 0
          ? `${where(now)}: new ${nowPhrase} (previously ${priorPhrase})`
          : `${where(now)}: progressed from ${priorPhrase} to ${nowPhrase}`,
      );
    } else if (nowRank < priorRank) {
      out.push(`${where(now)}: ${nowPhrase}, previously ${priorPhrase}`);
    } else if (nowRank > 0) {
      out.push(`${where(now)}: ${nowPhrase}, unchanged`);
    }
  }
  return out;
}

const mm = (value: number) => `${formatNumber(value)} mm`;

function growthPhrase(g: AorticGrowth): string {
  if (g.growthMm <= 0) {
    return `abdominal aorta: maximum diameter ${mm(g.currentMm)}, previously ${mm(g.priorMm)}, no growth`;
  }
  const rate = `${formatNumber(Math.round(g.mmPerYear * 10) / 10)} mm/year`;
  return `abdominal aorta: maximum diameter ${mm(g.currentMm)}, previously ${mm(g.priorMm)}, growth ${mm(g.growthMm)} in ${g.days} days (${rate})${g.rapid ? ", rapid growth" : ""}`;
}

/**
 * The comparison of a draft with the patient's prior study: changed or persisting stenosis grades, and the
 * aorta's growth. Null when the prior is not earlier than this study.
 */
export function comparePrior(
  current: { examDate: string; conclusions: readonly Conclusion[]; measurements: readonly Measurement[] },
  prior: PriorStudy,
): PriorComparison | null {
  if (!(prior.examDate < current.examDate)) return null;
  const parts = stenosisChanges(current.conclusions, prior.conclusions);
  const currentMm = maxAorticDiameter(current.measurements);
  const priorMm = prior.measurements ? maxAorticDiameter(prior.measurements) : null;
  const growth =
    currentMm !== null && priorMm !== null ? aorticGrowth(priorMm, prior.examDate, currentMm, current.examDate) : null;
  if (growth) parts.push(growthPhrase(growth));
  const impression =
    parts.length > 0
      ? `Compared with the prior study of ${prior.examDate}: ${parts.join("; ")}.`
      : `Compared with the prior study of ${prior.examDate}: no change in the graded results.`;
  const recommendation = growth?.rapid
    ? `Rapid aneurysm growth (${RAPID_GROWTH_MM_PER_YEAR} mm or more per year, or ${RAPID_GROWTH_MM_IN_6_MONTHS} mm or more within 6 months): vascular surgery referral (SVS 2018 abdominal aortic aneurysm guideline).`
    : null;
  return { priorDate: prior.examDate, impression, recommendation, growth };
}
