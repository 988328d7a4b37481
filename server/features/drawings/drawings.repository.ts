import { and, desc, eq, isNull } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { digitalWorksheets, reports, sonographers, worksheetTemplates } from "../../db/schema";

export type DigitalWorksheetRow = typeof digitalWorksheets.$inferSelect;

export async function insertDigitalWorksheet(db: Queryable, values: typeof digitalWorksheets.$inferInsert) {
  const [row] = await db.insert(digitalWorksheets).values(values).returning();
  return row!;
}

export function findDigitalWorksheet(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(digitalWorksheets)
    .where(and(eq(digitalWorksheets.id, id), eq(digitalWorksheets.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export function listDigitalWorksheets(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(digitalWorksheets)
    .where(eq(digitalWorksheets.clinicId, clinicId))
    .orderBy(desc(digitalWorksheets.updatedAt))
    .limit(100);
}

/** Saves only while the session is a draft: a completed drawing is part of a report's record. */
export async function updateDraftDigitalWorksheet(
  db: Queryable,
  clinicId: number,
  id: number,
  values: Partial<typeof digitalWorksheets.$inferInsert>,
) {
  const [row] = await db
    .update(digitalWorksheets)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(digitalWorksheets.id, id),
        eq(digitalWorksheets.clinicId, clinicId),
        isNull(digitalWorksheets.completedAt),
      ),
    )
    .returning();
  return row;
}

export async function clinicHasTemplate(db: Queryable, clinicId: number, id: number) {
  const rows = await db
    .select({ id: worksheetTemplates.id })
    .from(worksheetTemplates)
    .where(and(eq(worksheetTemplates.id, id), eq(worksheetTemplates.clinicId, clinicId)));
  return rows.length > 0;
}

export async function clinicHasSonographer(db: Queryable, clinicId: number, id: number) {
  const rows = await db
    .select({ id: sonographers.id })
    .from(sonographers)
    .where(and(eq(sonographers.id, id), eq(sonographers.clinicId, clinicId)));
  return rows.length > 0;
}

export function reportOfDrawing(db: Queryable, clinicId: number, digitalWorksheetId: number) {
  return db
    .select({ id: reports.id })
    .from(reports)
    .where(
      and(
        eq(reports.clinicId, clinicId),
        eq(reports.digitalWorksheetId, digitalWorksheetId),
        isNull(reports.deletedAt),
      ),
    )
    .then((rows) => rows[0]);
}
