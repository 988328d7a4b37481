import { and, asc, eq } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { users } from "../../db/schema";

export function listActiveStaff(db: Queryable, clinicId: number) {
  return listStaffWhere(db, clinicId, true);
}

export function listDeactivatedStaff(db: Queryable, clinicId: number) {
  return listStaffWhere(db, clinicId, false);
}

function listStaffWhere(db: Queryable, clinicId: number, isActive: boolean) {
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      joinedAt: users.joinedAt,
    })
    .from(users)
    .where(and(eq(users.clinicId, clinicId), eq(users.isActive, isActive)))
    .orderBy(asc(users.createdAt), asc(users.email));
}

export function findClinicMember(db: Queryable, clinicId: number, id: string) {
  return db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.clinicId, clinicId)))
    .then((rows) => rows[0]);
}

/** The clinic's active admins, row-locked: two admins deactivating each other at once cannot both win. */
export function lockActiveAdmins(db: Queryable, clinicId: number) {
  return db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.clinicId, clinicId), eq(users.role, "admin"), eq(users.isActive, true)))
    .orderBy(asc(users.id))
    .for("update");
}

export function setUserActive(db: Queryable, clinicId: number, id: string, isActive: boolean) {
  return db
    .update(users)
    .set({ isActive, updatedAt: new Date() })
    .where(and(eq(users.id, id), eq(users.clinicId, clinicId)));
}
