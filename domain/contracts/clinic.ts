import { z } from "zod";
import { criteriaSetIds, criteriaSets, defaultCriteriaSetId } from "../report-engine/criteria-sets";

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

/** Empty text clears an optional field; undefined leaves it as it is. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === undefined ? undefined : v || null));

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
  /** Staff may finalize on a physician's behalf; the signature then says "Signed by X on behalf of Dr Y". */
  allowSignOnBehalf: z.boolean(),
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
  website: optionalText(255),
  /** null removes the logo; otherwise one of this clinic's uploaded logo files. */
  logoUrl: ownFileUrl.nullable().optional(),
  carotidCriteriaSet: carotidCriteriaSet.optional(),
  allowSignOnBehalf: z.boolean().optional(),
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
