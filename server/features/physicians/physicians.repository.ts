import { and, asc, count, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { physicians, reports, users } from "../../db/schema";

const columns = {
  id: physicians.id,
  name: physicians.name,
  title: physicians.title,
  specialty: physicians.specialty,
  signatureUrl: physicians.signatureUrl,
  userId: physicians.userId,
};

export function listPhysicians(db: Queryable, clinicId: number) {
  return db.select(columns).from(physicians).where(eq(physicians.clinicId, clinicId)).orderBy(asc(physicians.name));
}

export function findPhysician(db: Queryable, clinicId: number, id: number) {
  return db
    .select(columns)
    .from(physicians)
    .where(and(eq(physicians.id, id), eq(physicians.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export async function insertPhysician(db: Queryable, values: typeof physicians.$inferInsert) {
  const [row] = await db.insert(physicians).values(values).returning(columns);
  return row!;
}

export async function updatePhysician(
  db: Queryable,
  clinicId: number,
  id: number,
  values: Partial<Pick<typeof physicians.$inferInsert, "name" | "title" | "specialty" | "signatureUrl" | "userId">>,
) {
  const [row] = await db
    .update(physicians)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(physicians.id, id), eq(physicians.clinicId, clinicId)))
    .returning(columns);
  return row;
}

export async function deletePhysician(db: Queryable, clinicId: number, id: number) {
  const rows = await db
    .delete(physicians)
    .where(and(eq(physicians.id, id), eq(physicians.clinicId, clinicId)))
    .returning({ id: physicians.id });
  return rows.length > 0;
}

/** Reports (soft-deleted ones included: they are kept, and still name their physician). */
export async function countReportsOfPhysician(db: Queryable, clinicId: number, physicianId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.clinicId, clinicId), eq(reports.physicianId, physicianId)));
  return row?.n ?? 0;
}

/** The physician a user signs as, if any (one account signs as at most one physician). */
export function findPhysicianOfUser(db: Queryable, clinicId: number, userId: string) {
  return db
    .select(columns)
    .from(physicians)
    .where(and(eq(physicians.clinicId, clinicId), eq(physicians.userId, userId)))
    .then((rows) => rows[0]);
}

/** A user of this clinic, for linking; undefined when the id is another clinic's or unknown. */
export function findClinicUser(db: Queryable, clinicId: number, userId: string) {
  return db
    .select({ id: users.id, role: users.role, isActive: users.isActive })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.clinicId, clinicId)))
    .then((rows) => rows[0]);
}
