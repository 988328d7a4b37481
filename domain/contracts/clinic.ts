import { z } from "zod";
import { criteriaSetIds, criteriaSets, defaultCriteriaSetId } from "../report-engine/criteria-sets";
import { criticalRuleIds } from "../report-engine/critical-results";
import { spellings } from "../report-engine/spelling";
import { MAX_TURNAROUND_TARGET_DAYS } from "../turnaround";

/**
 * A file the clinic uploaded, as served by /api/files/{id}. Signatures and logos may only point here:
 * never at an external address, which would leak report views to a third party or show foreign content.
 */
export const ownFileUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^\/api\/files\/[1-9]\d{0,9}$/, "The image must be one uploaded to this clinic.");

/** The answer of POST /api/upload-signature and POST /api/upload-logo. */
export const uploadedFile = z.object({ url: z.string() });
export type UploadedFile = z.infer<typeof uploadedFile>;

export { criteriaSets, defaultCriteriaSetId };
export const carotidCriteriaSet = z.enum(criteriaSetIds, { error: "Please select a criteria set" });
/** The report text's spelling: American (en-US) or British (en-GB) English. */
export const reportSpelling = z.enum(spellings, { error: "Please select a spelling" });

/** Empty text clears an optional field; undefined leaves it as it is. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null));

export const TURNAROUND_TARGET_MESSAGE = `The turnaround target must be a whole number of working days from 0 to ${MAX_TURNAROUND_TARGET_DAYS}`;
/** Working days (Mon-Fri) after the exam within which reports should be signed (domain/turnaround.ts). */
export const turnaroundTargetDays = z
  .number({ error: TURNAROUND_TARGET_MESSAGE })
  .int(TURNAROUND_TARGET_MESSAGE)
  .min(0, TURNAROUND_TARGET_MESSAGE)
  .max(MAX_TURNAROUND_TARGET_DAYS, TURNAROUND_TARGET_MESSAGE);

export const WEBSITE_MESSAGE = "Please enter a web address, such as https://www.yourclinic.com";

/**
 * A web address as staff type it: "www.clinic.com" gets https:// in front; anything that is not an http(s)
 * address with a dotted host name is refused (it would be printed as a link on reports).
 */
export const websiteAddress = optionalText(255).transform((value, ctx) => {
  if (!value) return value;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    if ((url.protocol === "https:" || url.protocol === "http:") && /^[^.\s]+(\.[^.\s]+)+$/.test(url.hostname)) {
      return withScheme;
    }
  } catch {
    // not a URL at all: refused below
  }
  ctx.addIssue({ code: "custom", message: WEBSITE_MESSAGE });
  return z.NEVER;
});

export const clinicRecord = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
  fax: z.string().nullable(),
  website: z.string().nullable(),
  logoUrl: z.string().nullable(),
  subscription: z.string(),
  carotidCriteriaSet: carotidCriteriaSet,
  reportSpelling: reportSpelling,
  /** Staff may finalize on a physician's behalf; the signature then says "Signed by X on behalf of Dr Y". */
  allowSignOnBehalf: z.boolean(),
  /** Reports should be signed within this many working days of the exam (default 2). */
  turnaroundTargetDays: z.number(),
  /** Which critical-result rules are on (docs/critical-results.md); all on by default. */
  criticalRules: z.record(z.enum(criticalRuleIds), z.boolean()),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClinicRecord = z.infer<typeof clinicRecord>;

/**
 * PUT /api/clinic/{id}. Name and e-mail are required; every other field left out keeps its value, so a
 * client that sends only the spec's fields (name, address, phone, fax, email) does not wipe city or logo.
 */
export const clinicUpdate = z.object({
  name: z.string({ error: "Clinic name is required" }).trim().min(1, "Clinic name is required").max(255),
  email: z
    .string({ error: "Email is required" })
    .trim()
    .toLowerCase()
    .min(1, "Email is required")
    .pipe(z.email("Please enter a valid email address").max(255)),
  address: optionalText(1000),
  city: optionalText(100),
  state: optionalText(50),
  zipCode: optionalText(20),
  phone: optionalText(50),
  fax: optionalText(50),
  website: websiteAddress,
  /** null removes the logo; otherwise one of this clinic's uploaded logo files. */
  logoUrl: ownFileUrl.nullable().optional(),
  carotidCriteriaSet: carotidCriteriaSet.optional(),
  reportSpelling: reportSpelling.optional(),
  allowSignOnBehalf: z.boolean().optional(),
  turnaroundTargetDays: turnaroundTargetDays.optional(),
  /** Turns critical-result rules on or off; a rule left out keeps its state. */
  criticalRules: z
    .partialRecord(
      z.enum(criticalRuleIds, { error: "Unknown critical result rule" }),
      z.boolean({ error: "Each critical result rule is on (true) or off (false)" }),
    )
    .optional(),
});
export type ClinicUpdate = z.input<typeof clinicUpdate>;

/** GET /api/clinic/info: what a report header needs. */
/** The report header: name and logo, and the letterhead's address and phone (as the PDF prints them). */
export const clinicInfo = z.object({
  name: z.string(),
  logoUrl: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  phone: z.string().nullable(),
});
export type ClinicInfo = z.infer<typeof clinicInfo>;

export const DEFAULT_CLINIC_NAME = "Medical Clinic";
