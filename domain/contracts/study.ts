import { z } from "zod";
import { criteriaSetIds } from "../report-engine/criteria-sets";
import { criticalRuleIds } from "../report-engine/critical-results";
import {
  gradesByCategory,
  isSiteCode,
  observationFindings,
  parameters,
  scanTypes,
  sides,
} from "../report-engine/vocabulary";

// The report engine's input (a study) and output (a draft). Vocabulary and meaning:
// ../../../shared/clinical-criteria.md.

const siteCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine(isSiteCode, { error: (issue) => `unknown site code ${JSON.stringify(issue.input)}` });

// null is accepted as "absent" because stored rows and OCR output use it for midline vessels.
const side = z.enum(sides).nullish();

export const measurementSchema = z.object({
  site: siteCode,
  side,
  parameter: z.enum(parameters),
  value: z.number().nonnegative(),
  unit: z.string().trim().max(20).nullish(),
});
export type Measurement = z.infer<typeof measurementSchema>;

export const observationSchema = z.object({
  site: siteCode,
  side,
  finding: z.enum(observationFindings),
});
export type Observation = z.infer<typeof observationSchema>;

export const studySchema = z
  .object({
    scanType: z.enum(scanTypes),
    indication: z.string().trim().max(2000).nullish(),
    /** Only used for the AAA referral threshold, which differs for men and women. */
    sex: z.enum(["female", "male"]).nullish(),
    measurements: z.array(measurementSchema).max(2000).default([]),
    observations: z.array(observationSchema).max(2000).default([]),
  })
  .superRefine((study, ctx) => {
    study.measurements.forEach((m, i) => {
      if (m.parameter === "EXTENSION_PCT" && m.value > 100) {
        ctx.addIssue({
          code: "custom",
          path: ["measurements", i, "value"],
          message: `Thrombus extension of measurement ${i + 1} is a share of the vein's lumen: it must be at most 100%.`,
        });
      }
    });
  });
export type Study = z.infer<typeof studySchema>;
export type StudyInput = z.input<typeof studySchema>;

export const criteriaSetIdSchema = z.enum(criteriaSetIds);

function conclusionOf<const C extends keyof typeof gradesByCategory>(category: C) {
  return z.object({
    site: z.string(),
    side: z.enum(sides).nullable(),
    category: z.literal(category),
    grade: z.enum(gradesByCategory[category]),
    basis: z.string(),
  });
}

export const conclusionSchema = z.discriminatedUnion("category", [
  conclusionOf("carotid_stenosis"),
  conclusionOf("vertebral_flow"),
  conclusionOf("arterial_stenosis"),
  conclusionOf("abi"),
  conclusionOf("dvt"),
  conclusionOf("venous_reflux"),
  conclusionOf("perforator"),
  conclusionOf("aortic_diameter"),
  conclusionOf("renal_stenosis"),
  conclusionOf("mesenteric_stenosis"),
  conclusionOf("avf_maturity"),
  conclusionOf("ehit"),
  conclusionOf("tcd_vasospasm"),
  conclusionOf("lindegaard"),
]);
export type Conclusion = z.infer<typeof conclusionSchema>;

/** A result that needs a call before signing, with the rule that flagged it (domain/report-engine/critical-results.ts). */
export const criticalResultSchema = z.object({
  key: z.string(),
  rule: z.enum(criticalRuleIds),
  ruleName: z.string(),
  site: z.string(),
  side: z.enum(sides).nullable(),
  category: z.enum(Object.keys(gradesByCategory) as [keyof typeof gradesByCategory]),
  grade: z.string(),
  finding: z.string(),
});
export type CriticalResultDto = z.infer<typeof criticalResultSchema>;

export const draftSchema = z.object({
  studyType: z.enum(scanTypes),
  indication: z.string(),
  findings: z.string(),
  impression: z.string(),
  conclusions: z.array(conclusionSchema),
  warnings: z.array(z.string()),
  /** Results that need a call before signing (issue 26); empty when none. */
  criticalResults: z.array(criticalResultSchema),
});
export type Draft = z.infer<typeof draftSchema>;

/**
 * What the screens say about one refused measurement or observation the clinician sent:
 * "Measurement 2: Value must be a number." (the field is named in words; `describeIssue` is the CLI's form).
 */
export function describeStudyItemIssue(
  issue: z.core.$ZodIssue,
  list: "measurements" | "observations",
  index: number,
  item: unknown,
): string {
  const what = `${list === "measurements" ? "Measurement" : "Observation"} ${index + 1}`;
  if (issue.path[0] === "site" && issue.code === "custom") {
    const site = (item as { site?: unknown } | null)?.site;
    return `${what}: the vessel ${JSON.stringify(String(site ?? ""))} is not one the report knows. Choose the vessel from the list.`;
  }
  return `${what}: ${issue.message}`;
}

/**
 * `measurements[0].value: expected number, received string`: one line naming the bad field. Pass the
 * parsed input to say what was received (zod leaves the input out of its issues).
 */
export function describeIssue(issue: z.core.$ZodIssue, input?: unknown): string {
  const path = issue.path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    return text ? `${text}.${String(key)}` : String(key);
  }, "");
  let message = issue.message;
  if (issue.code === "invalid_type") {
    const received = valueAt(input, issue.path);
    message =
      received === undefined
        ? `expected ${issue.expected}, but it is missing`
        : typeof received === "number" && !Number.isFinite(received)
          ? // JSON.parse reads 1e999 as Infinity: say so rather than "expected number, received number".
            "the number is too large to be a measurement (it reads as infinity); write the value as measured"
          : `expected ${issue.expected}, received ${kindOf(received)}`;
  } else if (issue.code === "invalid_value") {
    message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  } else if (issue.code === "too_small" && issue.origin === "number") {
    message = `must be ${issue.inclusive ? ">=" : ">"} ${String(issue.minimum)}`;
  }
  return `${path || "(root)"}: ${message}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
