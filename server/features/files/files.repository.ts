import { and, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { storedFiles } from "../../db/schema";

export async function insertStoredFile(db: Queryable, values: typeof storedFiles.$inferInsert) {
  const [row] = await db.insert(storedFiles).values(values).returning();
  return row!;
}

export function findClinicFile(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.id, id), eq(storedFiles.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

/** Several of a clinic's file rows in one query; ids of another clinic's files find nothing. */
export async function findClinicFiles(db: Queryable, clinicId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(storedFiles)
    .where(and(inArray(storedFiles.id, ids), eq(storedFiles.clinicId, clinicId)));
}

export function findFile(db: Queryable, id: number) {
  return db
    .select()
    .from(storedFiles)
    .where(eq(storedFiles.id, id))
    .then((rows) => rows[0]);
}

export async function allStorageKeys(db: Queryable): Promise<Set<string>> {
  const rows = await db.select({ key: storedFiles.storageKey }).from(storedFiles);
  return new Set(rows.map((r) => r.key));
}
