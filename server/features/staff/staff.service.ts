import { AppError, notFound } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { destroyUserSessions } from "../../platform/sessions";
import { deactivateUser, findClinicMember, listActiveStaff, lockActiveAdmins } from "./staff.repository";

export async function listStaff(db: Db, ctx: Ctx) {
  assertCan(ctx, "staff:read");
  const rows = await listActiveStaff(db, ctx.clinicId);
  return rows.map((r) => ({ ...r, joinedAt: r.joinedAt?.toISOString() ?? null }));
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
    await deactivateUser(tx, ctx.clinicId, id);
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
