import { z } from "zod";
import { ownFileUrl } from "./clinic";

export const PHYSICIAN_NAME_REQUIRED = "Physician name is required";

export const physician = z.object({
  id: z.number(),
  name: z.string(),
  title: z.string(),
  specialty: z.string(),
  signatureUrl: z.string().nullable(),
  /** The user account that signs as this physician, or null when none is linked. */
  userId: z.string().nullable(),
});
export type Physician = z.infer<typeof physician>;
export const physicianList = z.array(physician);

const text255 = z.string().trim().max(255);

export const physicianCreate = z.object({
  name: z.string({ error: PHYSICIAN_NAME_REQUIRED }).trim().min(1, PHYSICIAN_NAME_REQUIRED).max(255),
  title: text255.optional().default(""),
  specialty: text255.optional().default(""),
  /** One of this clinic's uploaded signature files (POST /api/upload-signature), or null for none. */
  signatureUrl: ownFileUrl.nullable().optional().default(null),
});
export type PhysicianCreate = z.input<typeof physicianCreate>;

/** PATCH: only the fields sent change; a name, when sent, must not be empty. */
export const physicianUpdate = z.object({
  name: z.string().trim().min(1, PHYSICIAN_NAME_REQUIRED).max(255).optional(),
  title: text255.optional(),
  specialty: text255.optional(),
  signatureUrl: ownFileUrl.nullable().optional(),
  /** Links (a user id of this clinic) or unlinks (null) the account that signs as this physician; admins only. */
  userId: z.string().trim().min(1).max(64).nullable().optional(),
});
export type PhysicianUpdate = z.input<typeof physicianUpdate>;
