import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { reportTemplates } from "../../db/schema";

export type ReportTemplateRow = typeof reportTemplates.$inferSelect;
type NewReportTemplate = typeof reportTemplates.$inferInsert;

export function listReportTemplates(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(reportTemplates)
    .where(eq(reportTemplates.clinicId, clinicId))
    .orderBy(desc(reportTemplates.isDefault), asc(reportTemplates.name), asc(reportTemplates.id));
}

export function findReportTemplate(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.id, id)))
    .then((rows) => rows[0]);
}

export function findDefaultReportTemplate(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.isDefault, true)))
    .limit(1)
    .then((rows) => rows[0]);
}

export async function insertReportTemplate(db: Queryable, values: NewReportTemplate) {
  const [row] = await db.insert(reportTemplates).values(values).returning();
  return row!;
}

export function updateReportTemplate(db: Queryable, clinicId: number, id: number, values: Partial<NewReportTemplate>) {
  return db
    .update(reportTemplates)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.id, id)))
    .returning()
    .then((rows) => rows[0]);
}

/** Clears the default flag on every other template of the clinic (one default per clinic). */
export async function clearOtherDefaults(db: Queryable, clinicId: number, keepId: number) {
  await db
    .update(reportTemplates)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(
      and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.isDefault, true), ne(reportTemplates.id, keepId)),
    );
}

export function deleteReportTemplate(db: Queryable, clinicId: number, id: number) {
  return db
    .delete(reportTemplates)
    .where(and(eq(reportTemplates.clinicId, clinicId), eq(reportTemplates.id, id)))
    .returning({ id: reportTemplates.id })
    .then((rows) => rows[0]);
}

/** Serialises default changes of one clinic, so two concurrent "make default" calls cannot both win. */
export async function lockClinicTemplateDefaults(db: Queryable, clinicId: number) {
  await db.execute(sql`select pg_advisory_xact_lock(${DEFAULT_LOCK}, ${clinicId})`);
}

/** Arbitrary constant naming the lock space of report-template defaults. */
const DEFAULT_LOCK = 730_201;
