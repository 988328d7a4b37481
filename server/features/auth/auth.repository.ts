import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, users } from "../../db/schema";

export function findUserByEmail(db: Queryable, email: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
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

export function findUserById(db: Queryable, id: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0]);
}

/** Stores a new secret while enrolment is pending: TOTP stays off until a code proves the app has it. */
export function setPendingTotpSecret(db: Queryable, userId: string, secretEnc: string) {
  return db
    .update(users)
    .set({ totpSecretEnc: secretEnc, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.totpEnabled, false)));
}

export function enableTotp(db: Queryable, userId: string, recoveryCodeHashes: string[], usedStep: number) {
  return db
    .update(users)
    .set({ totpEnabled: true, recoveryCodeHashes, totpLastStep: usedStep, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

export function disableTotp(db: Queryable, userId: string) {
  return db
    .update(users)
    .set({ totpEnabled: false, totpSecretEnc: null, recoveryCodeHashes: [], totpLastStep: null, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Removes one recovery code if it is still there; true when this call used it (each code works once). */
export async function consumeRecoveryCode(db: Queryable, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ recoveryCodeHashes: sql`${users.recoveryCodeHashes} - ${codeHash}::text` })
    .where(and(eq(users.id, userId), sql`jsonb_exists(${users.recoveryCodeHashes}, ${codeHash}::text)`))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Takes a TOTP time step for the user if it is later than any taken before: a code is good once. */
export async function claimTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), sql`(${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`))
    .returning({ id: users.id });
  return rows.length === 1;
}

export function findUserByOidcSubject(db: Queryable, subject: string) {
  return db
    .select()
    .from(users)
    .where(eq(users.oidcSubject, subject))
    .then((rows) => rows[0]);
}

export function linkOidcSubject(db: Queryable, userId: string, subject: string) {
  return db.update(users).set({ oidcSubject: subject, updatedAt: new Date() }).where(eq(users.id, userId));
}
