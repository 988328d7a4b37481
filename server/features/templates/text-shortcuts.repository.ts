import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { textShortcuts } from "../../db/schema";

type NewTextShortcut = typeof textShortcuts.$inferInsert;

export function listTextShortcuts(db: Queryable, clinicId: number) {
  return db
    .select()
    .from(textShortcuts)
    .where(eq(textShortcuts.clinicId, clinicId))
    .orderBy(desc(textShortcuts.usageCount), asc(textShortcuts.title), asc(textShortcuts.id));
}

export async function insertTextShortcut(db: Queryable, values: NewTextShortcut) {
  const [row] = await db.insert(textShortcuts).values(values).returning();
  return row!;
}

export function updateTextShortcut(db: Queryable, clinicId: number, id: number, values: Partial<NewTextShortcut>) {
  return db
    .update(textShortcuts)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(textShortcuts.clinicId, clinicId), eq(textShortcuts.id, id)))
    .returning()
    .then((rows) => rows[0]);
}

/** One statement, so concurrent uses never lose a count. */
export function incrementShortcutUsage(db: Queryable, clinicId: number, id: number) {
  return db
    .update(textShortcuts)
    .set({ usageCount: sql`${textShortcuts.usageCount} + 1` })
    .where(and(eq(textShortcuts.clinicId, clinicId), eq(textShortcuts.id, id)))
    .returning({ id: textShortcuts.id, usageCount: textShortcuts.usageCount })
    .then((rows) => rows[0]);
}

export function deleteTextShortcut(db: Queryable, clinicId: number, id: number) {
  return db
    .delete(textShortcuts)
    .where(and(eq(textShortcuts.clinicId, clinicId), eq(textShortcuts.id, id)))
    .returning({ id: textShortcuts.id })
    .then((rows) => rows[0]);
}
