import type { Physician, physicianCreate, physicianUpdate } from "../../../domain/contracts/physicians";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { UploadSource } from "../../platform/uploads";
import { assertOwnFileUrl, type UploadDeps } from "../clinic/clinic.service";
import { normalizeImage, SIGNATURE_BOX } from "../clinic/clinic-images";
import { saveFile } from "../files/files.service";
import {
  countReportsOfPhysician,
  deletePhysician,
  findClinicUser,
  findPhysician,
  findPhysicianOfUser,
  insertPhysician,
  listPhysicians,
  updatePhysician,
} from "./physicians.repository";

type CreateInput = ReturnType<typeof physicianCreate.parse>;
type UpdateInput = ReturnType<typeof physicianUpdate.parse>;

type PhysicianAction =
  | "physician.created"
  | "physician.updated"
  | "physician.deleted"
  | "physician.linked"
  | "physician.unlinked";

const audit = (ctx: Ctx, action: PhysicianAction, id: number) => ({
  action,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  entityType: "physician",
  entityId: id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

export async function getPhysicians(db: Queryable, ctx: Ctx): Promise<Physician[]> {
  assertCan(ctx, "clinic:read");
  return listPhysicians(db, ctx.clinicId);
}

/** One physician of the clinic, for other features (report generation, exports); undefined if not ours. */
export async function getPhysician(db: Queryable, ctx: Ctx, id: number): Promise<Physician | undefined> {
  assertCan(ctx, "clinic:read");
  return findPhysician(db, ctx.clinicId, id);
}

export async function createPhysician(db: Db, ctx: Ctx, input: CreateInput): Promise<Physician> {
  assertCan(ctx, "clinic:manage");
  return db.transaction(async (tx) => {
    if (input.signatureUrl) await assertOwnFileUrl(tx, ctx, input.signatureUrl, "signature", "signatureUrl");
    const row = await insertPhysician(tx, { ...input, clinicId: ctx.clinicId });
    await recordAudit(tx, audit(ctx, "physician.created", row.id));
    return row;
  });
}

/** Roles whose accounts may sign as a physician: physicians, and admins who are physicians themselves. */
const LINKABLE_ROLES = ["physician", "admin"];

/**
 * A linked account signs this physician's reports, so it must be an active account of this clinic with a
 * physician or admin role, and sign as no other physician.
 */
async function assertLinkable(tx: Queryable, ctx: Ctx, physicianId: number, userId: string): Promise<void> {
  const user = await findClinicUser(tx, ctx.clinicId, userId);
  if (!user) throw new AppError("NOT_FOUND", "User not found in your clinic", "userId");
  if (!user.isActive) throw new AppError("BAD_REQUEST", "This account is deactivated and cannot sign", "userId");
  if (!LINKABLE_ROLES.includes(user.role)) {
    throw new AppError("BAD_REQUEST", "Only a physician's or an admin's account can sign as a physician", "userId");
  }
  const current = await findPhysicianOfUser(tx, ctx.clinicId, userId);
  if (current && current.id !== physicianId) {
    throw new AppError("CONFLICT", `This account already signs as ${current.name}`, "userId");
  }
}

export async function changePhysician(db: Db, ctx: Ctx, id: number, input: UpdateInput): Promise<Physician> {
  assertCan(ctx, "clinic:manage");
  return db.transaction(async (tx) => {
    const before = await findPhysician(tx, ctx.clinicId, id);
    if (!before) throw notFound("Physician");
    if (input.signatureUrl) await assertOwnFileUrl(tx, ctx, input.signatureUrl, "signature", "signatureUrl");
    if (input.userId) await assertLinkable(tx, ctx, id, input.userId);
    const values = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const row = await updatePhysician(tx, ctx.clinicId, id, values);
    if (!row) throw notFound("Physician");
    await recordAudit(tx, { ...audit(ctx, "physician.updated", id), details: { fields: Object.keys(values) } });
    if (input.userId !== undefined && input.userId !== before.userId) {
      if (before.userId) {
        await recordAudit(tx, { ...audit(ctx, "physician.unlinked", id), details: { userId: before.userId } });
      }
      if (input.userId) {
        await recordAudit(tx, { ...audit(ctx, "physician.linked", id), details: { userId: input.userId } });
      }
    }
    return row;
  });
}

/**
 * Accepting a physician's invitation links the new account to that physician, unless an admin linked
 * another account meanwhile (then the account joins unlinked, and the admin decides on the card).
 */
export async function linkInvitedPhysician(
  tx: Queryable,
  link: { clinicId: number; physicianId: number; userId: string; ip?: string; requestId?: string },
): Promise<boolean> {
  const physician = await findPhysician(tx, link.clinicId, link.physicianId);
  if (!physician || physician.userId !== null) return false;
  if (await findPhysicianOfUser(tx, link.clinicId, link.userId)) return false;
  await updatePhysician(tx, link.clinicId, link.physicianId, { userId: link.userId });
  await recordAudit(tx, {
    action: "physician.linked",
    clinicId: link.clinicId,
    actorUserId: link.userId,
    entityType: "physician",
    entityId: link.physicianId,
    details: { userId: link.userId, byInvitation: true },
    ip: link.ip,
    requestId: link.requestId,
  });
  return true;
}

/**
 * Reports keep their physicianId and show that physician's signature block, so a physician named by any
 * report is not deleted: the request is refused with 409 and the count, and the reports stay intact.
 */
export async function removePhysician(db: Db, ctx: Ctx, id: number): Promise<void> {
  assertCan(ctx, "clinic:manage");
  await db.transaction(async (tx) => {
    if (!(await findPhysician(tx, ctx.clinicId, id))) throw notFound("Physician");
    const used = await countReportsOfPhysician(tx, ctx.clinicId, id);
    if (used > 0) {
      throw new AppError("CONFLICT", `This physician is used by ${used} report${used === 1 ? "" : "s"}`);
    }
    await deletePhysician(tx, ctx.clinicId, id);
    await recordAudit(tx, audit(ctx, "physician.deleted", id));
  });
}

/** Stores an uploaded or drawn signature (PNG after re-encoding); the physician is saved separately. */
export async function uploadSignature(deps: UploadDeps, ctx: Ctx, image: UploadSource) {
  assertCan(ctx, "clinic:manage");
  const upload = await image();
  const png = await normalizeImage(upload, SIGNATURE_BOX, "signature");
  return deps.db.transaction(async (tx) => {
    const file = await saveFile(tx, deps.fileStore, {
      clinicId: ctx.clinicId,
      kind: "signature",
      data: png,
      mimeType: "image/png",
      originalName: upload.filename,
      createdBy: ctx.user.id,
    });
    await recordAudit(tx, {
      action: "physician.signature_uploaded",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "stored_file",
      entityId: file.id,
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return { url: file.url };
  });
}
