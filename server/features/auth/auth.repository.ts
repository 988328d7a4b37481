import { eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, users } from "../../db/schema";

export function findUserByEmail(db: Queryable, email: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .then((rows) => rows[0]);
}

export function findClinicByEmail(db: Queryable, email: string) {
  return db
    .select({ id: clinics.id })
    .from(clinics)
    .where(eq(clinics.email, email.toLowerCase()))
    .then((rows) => rows[0]);
}

export async function insertClinic(db: Queryable, values: typeof clinics.$inferInsert) {
  const [clinic] = await db.insert(clinics).values(values).returning();
  return clinic!;
}

export async function insertUser(db: Queryable, values: typeof users.$inferInsert) {
  const [user] = await db.insert(users).values(values).returning();
  return user!;
}

export function touchUserLastSeen(db: Queryable, userId: string) {
  return db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, userId));
}
