import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { clinics, userInvitations, users } from "../../db/schema";

const pendingIn = (clinicId: number) =>
  and(
    eq(userInvitations.clinicId, clinicId),
    eq(userInvitations.isActive, true),
    isNull(userInvitations.acceptedAt),
    gt(userInvitations.expiresAt, new Date()),
  );

export async function insertInvitation(db: Queryable, values: typeof userInvitations.$inferInsert) {
  const [row] = await db.insert(userInvitations).values(values).returning();
  return row!;
}

export function listPendingInvitations(db: Queryable, clinicId: number) {
  return db.select().from(userInvitations).where(pendingIn(clinicId)).orderBy(desc(userInvitations.createdAt));
}

/** Pending invitations of one e-mail in one clinic: a new invitation replaces them. */
export function cancelPendingForEmail(db: Queryable, clinicId: number, email: string) {
  return db
    .update(userInvitations)
    .set({ isActive: false })
    .where(and(pendingIn(clinicId), eq(userInvitations.email, email)))
    .returning({ id: userInvitations.id });
}

export function findClinicInvitation(db: Queryable, clinicId: number, id: number) {
  return db
    .select()
    .from(userInvitations)
    .where(and(eq(userInvitations.id, id), eq(userInvitations.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

export function deactivateInvitation(db: Queryable, clinicId: number, id: number) {
  return db
    .update(userInvitations)
    .set({ isActive: false })
    .where(and(eq(userInvitations.id, id), eq(userInvitations.clinicId, clinicId)));
}

/** By token hash, with its clinic; locked when inside a transaction that will consume it. */
export function findInvitationByTokenHash(db: Queryable, tokenHash: string, lock = false) {
  const query = db
    .select({ invitation: userInvitations, clinic: clinics })
    .from(userInvitations)
    .innerJoin(clinics, eq(clinics.id, userInvitations.clinicId))
    .where(eq(userInvitations.tokenHash, tokenHash));
  return (lock ? query.for("update", { of: userInvitations }) : query).then((rows) => rows[0]);
}

export function markInvitationAccepted(db: Queryable, id: number) {
  return db.update(userInvitations).set({ acceptedAt: new Date() }).where(eq(userInvitations.id, id));
}

export function findActiveMemberByEmail(db: Queryable, clinicId: number, email: string) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clinicId, clinicId), eq(users.email, email), eq(users.isActive, true)))
    .then((rows) => rows[0]);
}

export function joinClinic(
  db: Queryable,
  userId: string,
  values: { clinicId: number; role: string; invitedBy: string; invitedAt: Date },
) {
  return db
    .update(users)
    .set({ ...values, joinedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, userId));
}
