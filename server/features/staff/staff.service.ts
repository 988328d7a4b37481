import { AppError, notFound } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { destroyUserSessions } from "../../platform/sessions";
import {
  findClinicMember,
  listActiveStaff,
  listDeactivatedStaff,
  lockActiveAdmins,
  setUserActive,
} from "./staff.repository";

type StaffRow = Awaited<ReturnType<typeof listActiveStaff>>[number];
const toMember = (r: StaffRow) => ({ ...r, joinedAt: r.joinedAt?.toISOString() ?? null });

export async function listStaff(db: Db, ctx: Ctx) {
  assertCan(ctx, "staff:read");
  return (await listActiveStaff(db, ctx.clinicId)).map(toMember);
}

/** Deactivated members, so that one deactivated by mistake (or back from leave) can be reactivated. */
export async function listFormerStaff(db: Db, ctx: Ctx) {
  assertCan(ctx, "staff:manage");
  return (await listDeactivatedStaff(db, ctx.clinicId)).map(toMember);
}

/** Deactivates a member and ends their sessions in the same transaction: their next request is signed out. */
export async function deactivateStaff(db: Db, ctx: Ctx, id: string): Promise<void> {
  assertCan(ctx, "staff:manage");
  await db.transaction(async (tx) => {
    const admins = await lockActiveAdmins(tx, ctx.clinicId);
    const member = await findClinicMember(tx, ctx.clinicId, id);
    if (!member) throw notFound("Staff member");
    if (member.id === ctx.user.id) throw new AppError("FORBIDDEN", "You cannot deactivate your own account");
    if (!member.isActive) throw new AppError("CONFLICT", "This staff member is already deactivated");
    if (member.role === "admin" && admins.length <= 1) {
      throw new AppError("CONFLICT", "The clinic's last active admin cannot be deactivated");
    }
    await setUserActive(tx, ctx.clinicId, id, false);
    await destroyUserSessions(tx, id);
    await recordAudit(tx, {
      action: "staff.deactivated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "user",
      entityId: id,
      details: { role: member.role },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
}

/** Lets a deactivated member sign in again, with their old role, password and physician link. */
export async function reactivateStaff(db: Db, ctx: Ctx, id: string): Promise<void> {
  assertCan(ctx, "staff:manage");
  await db.transaction(async (tx) => {
    const member = await findClinicMember(tx, ctx.clinicId, id);
    if (!member) throw notFound("Staff member");
    if (member.isActive) throw new AppError("CONFLICT", "This staff member is already active");
    await setUserActive(tx, ctx.clinicId, id, true);
    await recordAudit(tx, {
      action: "staff.reactivated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "user",
      entityId: id,
      details: { role: member.role },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
}
