import { matchSonographer } from "../../../domain/sonographer-match";
import type { Queryable } from "../../db/client";
import { listSonographers } from "./reports.repository";

/**
 * The sonographer as a report stores it: a given id (a drawing session's) names its sonographer; a written
 * name is matched to the clinic's sonographers and kept as written when none fits.
 */
export async function resolveSonographer(
  db: Queryable,
  clinicId: number,
  id: number | null | undefined,
  writtenName: string | null,
): Promise<{ sonographerId: number | null; sonographerName: string | null }> {
  if (!id && !writtenName) return { sonographerId: null, sonographerName: null };
  const staff = await listSonographers(db, clinicId);
  if (id) return { sonographerId: id, sonographerName: writtenName ?? staff.find((s) => s.id === id)?.name ?? null };
  return { sonographerId: matchSonographer(writtenName, staff)?.id ?? null, sonographerName: writtenName };
}
