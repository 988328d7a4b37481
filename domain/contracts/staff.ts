import { z } from "zod";

export const staffMember = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  joinedAt: z.iso.datetime().nullable(),
});
export const staffList = z.array(staffMember);
export type StaffMember = z.infer<typeof staffMember>;

/** Staff ids are user ids (opaque strings), not integers. */
export const staffIdParam = z.object({
  id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((id) => !id.includes("\0"), "Invalid id"),
});
