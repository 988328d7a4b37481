import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { trainingPairs } from "../../db/schema";

export async function insertTrainingPair(db: Queryable, values: typeof trainingPairs.$inferInsert) {
  const [row] = await db.insert(trainingPairs).values(values).returning();
  return row!;
}

export function listTrainingPairs(db: Queryable) {
  return db.select().from(trainingPairs).orderBy(desc(trainingPairs.uploadedAt), desc(trainingPairs.id));
}

/** Up to `limit` examples of one scan type that have report text, newest first. */
export function examplesOfScanType(db: Queryable, scanType: string, limit: number) {
  return db
    .select({ scanType: trainingPairs.category, reportText: trainingPairs.reportText })
    .from(trainingPairs)
    .where(and(eq(trainingPairs.category, scanType), isNotNull(trainingPairs.reportText)))
    .orderBy(desc(trainingPairs.uploadedAt))
    .limit(limit);
}
