import { createHash, randomBytes } from "node:crypto";
import {
  type CreateInvitationRequest,
  INVITATION_DAYS,
  type RegisterViaInvitationRequest,
} from "../../../domain/contracts/invitations";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx, type SessionUser } from "../../platform/context";
import { hashPassword } from "../../platform/passwords";
import { createInvitedUser } from "../auth/auth.service";
import { getPhysician, linkInvitedPhysician } from "../physicians/physicians.service";
import {
  cancelPendingForEmail,
  deactivateInvitation,
  findActiveMemberByEmail,
  findClinicInvitation,
  findInvitationByTokenHash,
  insertInvitation,
  joinClinic,
  listPendingInvitations,
  markInvitationAccepted,
} from "./invitations.repository";

export const INVALID_INVITATION = "Invalid or expired invitation";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const toIso = (d: Date) => d.toISOString();

type RequestInfo = { ip?: string; requestId?: string };

/** Creates an invitation; only the token's hash is stored, the token itself goes into the link once. */
export async function createInvitation(db: Db, ctx: Ctx, input: CreateInvitationRequest) {
  assertCan(ctx, "staff:manage");
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3_600_000);
  const invitation = await db.transaction(async (tx) => {
    if (await findActiveMemberByEmail(tx, ctx.clinicId, input.email)) {
      throw new AppError("CONFLICT", "This person is already a member of your clinic", "email");
    }
    if (input.physicianId !== undefined) await assertInvitablePhysician(tx, ctx, input);
    // The old link cannot be shown again (only its hash is kept), so inviting again replaces it.
    const replaced = await cancelPendingForEmail(tx, ctx.clinicId, input.email);
    const row = await insertInvitation(tx, {
      email: input.email,
      clinicId: ctx.clinicId,
      role: input.role,
      physicianId: input.physicianId ?? null,
      invitedBy: ctx.user.id,
      tokenHash: hashToken(token),
      expiresAt,
    });
    await recordAudit(tx, {
      action: "invitation.created",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "invitation",
      entityId: row.id,
      details: { role: input.role, physicianId: input.physicianId ?? null, replaced: replaced.map((r) => r.id) },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return row;
  });
  return { invitation, token };
}

/** An invitation from a physician's card is for that physician's own account, which signs their reports. */
async function assertInvitablePhysician(tx: Queryable, ctx: Ctx, input: CreateInvitationRequest): Promise<void> {
  if (input.role !== "physician") {
    throw new AppError("BAD_REQUEST", "A physician is invited with the physician role", "role");
  }
  const physician = await getPhysician(tx, ctx, input.physicianId!);
  if (!physician) throw new AppError("NOT_FOUND", "Physician not found", "physicianId");
  if (physician.userId) {
    throw new AppError("CONFLICT", `${physician.name} already has a linked account`, "physicianId");
  }
}

export async function listInvitations(db: Db, ctx: Ctx) {
  assertCan(ctx, "staff:read");
  const rows = await listPendingInvitations(db, ctx.clinicId);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    createdAt: toIso(r.createdAt),
    expiresAt: toIso(r.expiresAt),
    physicianId: r.physicianId,
  }));
}

export async function cancelInvitation(db: Db, ctx: Ctx, id: number): Promise<void> {
  assertCan(ctx, "staff:manage");
  await db.transaction(async (tx) => {
    const row = await findClinicInvitation(tx, ctx.clinicId, id);
    if (!row) throw notFound("Invitation");
    if (!row.isActive || row.acceptedAt) {
      throw new AppError("CONFLICT", "This invitation is no longer pending");
    }
    await deactivateInvitation(tx, ctx.clinicId, id);
    await recordAudit(tx, {
      action: "invitation.cancelled",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "invitation",
      entityId: id,
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
}

type Found = NonNullable<Awaited<ReturnType<typeof findInvitationByTokenHash>>>;

/** The spec's "Invalid Invitation" reasons; the token is the secret, so naming the reason leaks nothing. */
function usable(found: Found | undefined): Found {
  if (!found?.clinic.isActive) throw new AppError("NOT_FOUND", INVALID_INVITATION);
  const { invitation } = found;
  if (invitation.acceptedAt) throw new AppError("NOT_FOUND", "This invitation has already been used");
  if (!invitation.isActive) throw new AppError("NOT_FOUND", "This invitation has been cancelled");
  if (invitation.expiresAt.getTime() <= Date.now()) throw new AppError("NOT_FOUND", "This invitation has expired");
  return found;
}

/** What the invitation page shows; public, because holding the token is what entitles one to see it. */
export async function invitationDetails(db: Db, token: string) {
  const { invitation, clinic } = usable(await findInvitationByTokenHash(db, hashToken(token)));
  const address = [clinic.address, [clinic.city, clinic.state].filter(Boolean).join(", "), clinic.zipCode]
    .filter(Boolean)
    .join(", ");
  return {
    clinic: { name: clinic.name, address: address || null },
    role: invitation.role,
    email: invitation.email,
    expiresAt: toIso(invitation.expiresAt),
  };
}

/**
 * A signed-in user accepts. The invitation is for one e-mail address, so only that account may use it; an
 * account that already belongs to another clinic is refused rather than moved silently (its reports stay
 * with its clinic, and one account belongs to one clinic).
 */
export async function acceptInvitation(db: Db, user: SessionUser, token: string, info: RequestInfo) {
  return db.transaction(async (tx) => {
    const { invitation, clinic } = usable(await findInvitationByTokenHash(tx, hashToken(token), true));
    if (invitation.email !== user.email.toLowerCase()) {
      throw new AppError(
        "FORBIDDEN",
        `This invitation was sent to ${invitation.email}. Log in with that account to accept it.`,
      );
    }
    if (user.clinicId !== null && user.clinicId !== invitation.clinicId) {
      throw new AppError(
        "CONFLICT",
        "Your account already belongs to another clinic. An account can belong to one clinic only: ask the clinic to invite a different e-mail address.",
      );
    }
    if (user.clinicId === null) {
      await joinClinic(tx, user.id, {
        clinicId: invitation.clinicId,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
        invitedAt: invitation.createdAt,
      });
    }
    await markInvitationAccepted(tx, invitation.id);
    if (invitation.physicianId !== null && user.clinicId === null) {
      await linkInvitedPhysician(tx, {
        clinicId: invitation.clinicId,
        physicianId: invitation.physicianId,
        userId: user.id,
        ...info,
      });
    }
    await recordAudit(tx, {
      action: "invitation.accepted",
      clinicId: invitation.clinicId,
      actorUserId: user.id,
      entityType: "invitation",
      entityId: invitation.id,
      details: { role: invitation.role, alreadyMember: user.clinicId === invitation.clinicId },
      ...info,
    });
    return { clinicId: clinic.id, clinicName: clinic.name };
  });
}

/** A person without an account creates one for the invited e-mail and joins the clinic in one step. */
export async function registerViaInvitation(
  db: Db,
  token: string,
  input: RegisterViaInvitationRequest,
  info: RequestInfo,
) {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const { invitation, clinic } = usable(await findInvitationByTokenHash(tx, hashToken(token), true));
    const user = await createInvitedUser(tx, {
      email: invitation.email,
      passwordHash,
      firstName: input.firstName,
      lastName: input.lastName,
      clinicId: invitation.clinicId,
      role: invitation.role,
      invitedBy: invitation.invitedBy,
      invitedAt: invitation.createdAt,
    });
    await markInvitationAccepted(tx, invitation.id);
    if (invitation.physicianId !== null) {
      await linkInvitedPhysician(tx, {
        clinicId: invitation.clinicId,
        physicianId: invitation.physicianId,
        userId: user.id,
        ...info,
      });
    }
    await recordAudit(tx, {
      action: "invitation.accepted",
      clinicId: invitation.clinicId,
      actorUserId: user.id,
      entityType: "invitation",
      entityId: invitation.id,
      details: { role: invitation.role, newAccount: true },
      ...info,
    });
    return { user, clinicId: clinic.id, clinicName: clinic.name };
  });
}
