import { and, asc, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { worksheetTemplates } from "../../db/schema";

export type WorksheetTemplateRow = typeof worksheetTemplates.$inferSelect;

export function listWorksheetTemplates(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(worksheetTemplates)
    .where(eq(worksheetTemplates.clinicId, clinicId))
    .orderBy(asc(worksheetTemplates.name), asc(worksheetTemplates.id));
}

export function findWorksheetTemplate(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(worksheetTemplates)
    .where(and(eq(worksheetTemplates.clinicId, clinicId), eq(worksheetTemplates.id, id)))
    .then((rows) => rows[0]);
}

export async function insertWorksheetTemplate(db: Queryable, values: typeof worksheetTemplates.$inferInsert) {
  const [row] = await db.insert(worksheetTemplates).values(values).returning();
  return row!;
}

export async function setWorksheetTemplateImageUrl(db: Queryable, clinicId: number, id: number, imageUrl: string) {
  const [row] = await db
    .update(worksheetTemplates)
    .set({ imageUrl })
    .where(and(eq(worksheetTemplates.clinicId, clinicId), eq(worksheetTemplates.id, id)))
    .returning();
  return row!;
}

export function deleteWorksheetTemplate(db: Queryable, clinicId: number, id: number) {
  return db
    .delete(worksheetTemplates)
    .where(and(eq(worksheetTemplates.clinicId, clinicId), eq(worksheetTemplates.id, id)))
    .returning({ id: worksheetTemplates.id, imageFileId: worksheetTemplates.imageFileId })
    .then((rows) => rows[0]);
}
