import { z } from "zod";

export const sonographer = z.object({
  id: z.number(),
  name: z.string(),
  initials: z.string(),
  title: z.string().nullable(),
  department: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Sonographer = z.infer<typeof sonographer>;
export const sonographerList = z.array(sonographer);

export const INITIALS_MAX = 10;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => v || null);

/** POST and PUT (the whole record without id and timestamps; unknown keys are dropped). */
export const sonographerInput = z.object({
  name: z.string({ error: "Sonographer name is required" }).trim().min(1, "Sonographer name is required").max(255),
  // Upper case here too, not only in the form: other clients must not store "jd" beside "JD".
  // Checked after upper-casing: a few letters grow (ß -> SS), and the column holds 10.
  initials: z
    .string({ error: "Initials are required" })
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(
      z
        .string()
        .min(1, "Initials are required")
        .max(INITIALS_MAX, `Initials must be at most ${INITIALS_MAX} characters`),
    ),
  title: optionalText(100),
  department: optionalText(100),
});
export type SonographerInput = z.input<typeof sonographerInput>;
