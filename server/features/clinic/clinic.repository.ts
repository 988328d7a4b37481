import { and, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, storedFiles } from "../../db/schema";

export function findClinic(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(clinics)
    .where(eq(clinics.id, clinicId))
    .then((rows) => rows[0]);
}

export async function updateClinic(db: Queryable, clinicId: number, values: Partial<typeof clinics.$inferInsert>) {
  const [row] = await db
    .update(clinics)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(clinics.id, clinicId))
    .returning();
  return row;
}

/** A stored file of this clinic and of this kind; undefined for any other clinic's or kind's file. */
export function findClinicFileOfKind(db: Queryable, clinicId: number, fileId: number, kind: string) {
  return db
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(and(eq(storedFiles.id, fileId), eq(storedFiles.clinicId, clinicId), eq(storedFiles.kind, kind)))
    .then((rows) => rows[0]);
}
