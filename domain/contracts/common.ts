import { z } from "zod";

/** Route ids: positive 32-bit integers; anything else is a 400 naming the parameter. */
export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
