import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { legendEntries } from "../../db/schema";

export type LegendEntryRow = typeof legendEntries.$inferSelect;
type NewLegendEntry = typeof legendEntries.$inferInsert;

export function listLegendEntries(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(legendEntries)
    .where(eq(legendEntries.clinicId, clinicId))
    .orderBy(asc(legendEntries.title), asc(legendEntries.id));
}

/** Active entries that have keywords: the only ones that can steer generation. */
export function listActiveKeywordEntries(db: Queryable, clinicId: number) {
  return db
    .select({
      id: legendEntries.id,
      title: legendEntries.title,
      medicalMeaning: legendEntries.medicalMeaning,
      keywords: legendEntries.keywords,
    })
    .from(legendEntries)
    .where(
      and(eq(legendEntries.clinicId, clinicId), eq(legendEntries.isActive, true), isNotNull(legendEntries.keywords)),
    )
    .orderBy(asc(legendEntries.id));
}

export function findLegendEntry(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(legendEntries)
    .where(and(eq(legendEntries.clinicId, clinicId), eq(legendEntries.id, id)))
    .then((rows) => rows[0]);
}

export async function insertLegendEntry(db: Queryable, values: NewLegendEntry) {
  const [row] = await db.insert(legendEntries).values(values).returning();
  return row!;
}

export function updateLegendEntry(db: Queryable, clinicId: number, id: number, values: Partial<NewLegendEntry>) {
  return db
    .update(legendEntries)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(legendEntries.clinicId, clinicId), eq(legendEntries.id, id)))
    .returning()
    .then((rows) => rows[0]);
}

export function deleteLegendEntry(db: Queryable, clinicId: number, id: number) {
  return db
    .delete(legendEntries)
    .where(and(eq(legendEntries.clinicId, clinicId), eq(legendEntries.id, id)))
    .returning({ id: legendEntries.id })
    .then((rows) => rows[0]);
}
