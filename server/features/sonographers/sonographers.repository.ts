import { and, asc, count, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { digitalWorksheets, reports, sonographers } from "../../db/schema";

const columns = {
  id: sonographers.id,
  name: sonographers.name,
  initials: sonographers.initials,
  title: sonographers.title,
  department: sonographers.department,
  createdAt: sonographers.createdAt,
  updatedAt: sonographers.updatedAt,
};

type Editable = Pick<typeof sonographers.$inferInsert, "name" | "initials" | "title" | "department">;

export function listSonographers(db: Queryable, clinicId: number) {
  return db
    .select(columns)
    .from(sonographers)
    .where(eq(sonographers.clinicId, clinicId))
    .orderBy(asc(sonographers.name));
}

export function findSonographer(db: Queryable, clinicId: number, id: number) {
  return db
    .select(columns)
    .from(sonographers)
    .where(and(eq(sonographers.id, id), eq(sonographers.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export async function insertSonographer(db: Queryable, clinicId: number, values: Editable) {
  const [row] = await db
    .insert(sonographers)
    .values({ ...values, clinicId })
    .returning(columns);
  return row!;
}

export async function updateSonographer(db: Queryable, clinicId: number, id: number, values: Editable) {
  const [row] = await db
    .update(sonographers)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(sonographers.id, id), eq(sonographers.clinicId, clinicId)))
    .returning(columns);
  return row;
}

export async function deleteSonographer(db: Queryable, clinicId: number, id: number) {
  const rows = await db
    .delete(sonographers)
    .where(and(eq(sonographers.id, id), eq(sonographers.clinicId, clinicId)))
    .returning({ id: sonographers.id });
  return rows.length > 0;
}

/** Reports and drawing sessions that name this sonographer (they keep the id, so it must stay). */
export async function countRecordsOfSonographer(db: Queryable, clinicId: number, sonographerId: number) {
  const [r] = await db
    .select({ n: count() })
    .from(reports)
    .where(and(eq(reports.clinicId, clinicId), eq(reports.sonographerId, sonographerId)));
  const [d] = await db
    .select({ n: count() })
    .from(digitalWorksheets)
    .where(and(eq(digitalWorksheets.clinicId, clinicId), eq(digitalWorksheets.sonographerId, sonographerId)));
  return { reports: r?.n ?? 0, drawings: d?.n ?? 0 };
}
