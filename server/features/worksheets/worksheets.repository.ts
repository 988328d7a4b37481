import { and, eq, ne } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { worksheets } from "../../db/schema";

export type WorksheetRow = typeof worksheets.$inferSelect;

export async function insertWorksheet(db: Queryable, values: typeof worksheets.$inferInsert): Promise<WorksheetRow> {
  const [row] = await db.insert(worksheets).values(values).returning();
  return row!;
}

export function findClinicWorksheet(db: Queryable, clinicId: number, id: number): Promise<WorksheetRow | undefined> {
  return db
    .select()
    .from(worksheets)
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export async function updateClinicWorksheet(
  db: Queryable,
  clinicId: number,
  id: number,
  values: Partial<typeof worksheets.$inferInsert>,
): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set(values)
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId)))
    .returning();
  return row;
}

/**
 * Claims a worksheet for OCR in one statement, so two clicks (or two instances) never run it twice:
 * undefined when it does not exist in the clinic or is already being processed.
 */
export async function claimForOcr(db: Queryable, clinicId: number, id: number): Promise<WorksheetRow | undefined> {
  const [row] = await db
    .update(worksheets)
    .set({ ocrStatus: "processing", ocrError: null })
    .where(and(eq(worksheets.id, id), eq(worksheets.clinicId, clinicId), ne(worksheets.ocrStatus, "processing")))
    .returning();
  return row;
}

/** Every worksheet still marked "processing", across clinics (start-up recovery only). */
export async function failAllProcessing(
  db: Queryable,
  message: string,
): Promise<Array<{ id: number; clinicId: number }>> {
  return db
    .update(worksheets)
    .set({ ocrStatus: "failed", ocrError: message })
    .where(eq(worksheets.ocrStatus, "processing"))
    .returning({ id: worksheets.id, clinicId: worksheets.clinicId });
}
