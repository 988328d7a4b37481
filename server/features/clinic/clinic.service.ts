import {
  type ClinicInfo,
  type ClinicRecord,
  type clinicUpdate,
  criteriaSets,
  DEFAULT_CLINIC_NAME,
  defaultCriteriaSetId,
} from "../../../domain/contracts/clinic";
import { fieldName } from "../../../domain/contracts/validation-messages";
import { AppError, notFound } from "../../../domain/errors";
import { criticalRuleIds } from "../../../domain/report-engine/critical-results";
import type { Db, Queryable } from "../../db/client";
import type { clinics } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import type { UploadSource } from "../../platform/uploads";
import { fileIdFromUrl, saveFile } from "../files/files.service";
import { criticalRulesChanged, criticalRulesOff } from "../reports/report-critical";
import { findClinic, findClinicFileOfKind, updateClinic } from "./clinic.repository";
import { LOGO_BOX, normalizeImage } from "./clinic-images";

type ClinicRow = typeof clinics.$inferSelect;
type ClinicUpdateInput = ReturnType<typeof clinicUpdate.parse>;

const knownCriteriaSet = (id: string) => criteriaSets.find((set) => set.id === id)?.id ?? defaultCriteriaSetId;

function toRecord(row: ClinicRow): ClinicRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    address: row.address,
    city: row.city,
    state: row.state,
    zipCode: row.zipCode,
    phone: row.phone,
    fax: row.fax,
    website: row.website,
    logoUrl: row.logoUrl,
    subscription: row.subscription,
    // Rows created before the criteria sets were named hold "sru-2003", which is the default set.
    carotidCriteriaSet: knownCriteriaSet(row.carotidCriteriaSet),
    reportSpelling: row.reportSpelling === "en-GB" ? ("en-GB" as const) : ("en-US" as const),
    allowSignOnBehalf: row.allowSignOnBehalf,
    turnaroundTargetDays: row.turnaroundTargetDays,
    criticalRules: Object.fromEntries(
      criticalRuleIds.map((id) => [id, !(row.criticalRulesOff ?? []).includes(id)]),
    ) as ClinicRecord["criticalRules"],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getClinic(db: Queryable, ctx: Ctx): Promise<ClinicRecord> {
  assertCan(ctx, "clinic:read");
  const row = await findClinic(db, ctx.clinicId);
  if (!row) throw notFound("Clinic");
  return toRecord(row);
}

/** The report header: the clinic's name (or the generic heading), its logo, address and phone. */
export async function getClinicInfo(db: Queryable, ctx: Ctx): Promise<ClinicInfo> {
  assertCan(ctx, "clinic:read");
  const row = await findClinic(db, ctx.clinicId);
  return {
    name: row?.name || DEFAULT_CLINIC_NAME,
    logoUrl: row?.logoUrl ?? null,
    address: row?.address ?? null,
    city: row?.city ?? null,
    state: row?.state ?? null,
    zipCode: row?.zipCode ?? null,
    phone: row?.phone ?? null,
  };
}

/**
 * A signature or logo URL must name a file this clinic uploaded, of the right kind. Anything else (an
 * external address, another clinic's file, a worksheet scan) is refused as if it did not exist.
 */
export async function assertOwnFileUrl(db: Queryable, ctx: Ctx, url: string, kind: string, field: string) {
  const fileId = fileIdFromUrl(url);
  const found = fileId === null ? undefined : await findClinicFileOfKind(db, ctx.clinicId, fileId, kind);
  if (!found) {
    throw new AppError("BAD_REQUEST", `${fieldName([field])} must be an image uploaded to this clinic.`, field);
  }
}

export async function updateClinicInfo(db: Db, ctx: Ctx, clinicId: number, input: ClinicUpdateInput) {
  assertCan(ctx, "clinic:manage");
  // Only one's own clinic exists from here: another clinic's id is not confirmed.
  if (clinicId !== ctx.clinicId) throw notFound("Clinic");
  return db.transaction(async (tx) => {
    // The contact address is not an identity and not unique (decision 018): any address is taken, so the
    // answer never says whether another clinic uses it.
    if (input.logoUrl) await assertOwnFileUrl(tx, ctx, input.logoUrl, "logo", "logoUrl");
    const { carotidCriteriaSet, criticalRules, ...fields } = input;
    const values = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    const row = await updateClinic(tx, ctx.clinicId, {
      ...values,
      ...(carotidCriteriaSet ? { carotidCriteriaSet } : {}),
      ...(criticalRules ? { criticalRulesOff: await rulesOffAfter(tx, ctx.clinicId, criticalRules) } : {}),
    });
    if (!row) throw notFound("Clinic");
    // The reports list marks and filters reports by the rules that are on: its remembered answers are renewed.
    if (criticalRules) await criticalRulesChanged(tx, ctx.clinicId);
    await recordAudit(tx, {
      action: "clinic.updated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "clinic",
      entityId: ctx.clinicId,
      details: { fields: Object.keys(input).filter((k) => input[k as keyof ClinicUpdateInput] !== undefined) },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return toRecord(row);
  });
}

/** The rules that are off once this change is applied; a rule the change leaves out keeps its state. */
async function rulesOffAfter(
  tx: Queryable,
  clinicId: number,
  change: Partial<Record<(typeof criticalRuleIds)[number], boolean>>,
): Promise<string[]> {
  const current = await criticalRulesOff(tx, clinicId);
  return criticalRuleIds.filter((id) => (change[id] === undefined ? current.includes(id) : change[id] === false));
}

export type UploadDeps = { db: Db; fileStore: FileStore };

/** Stores the logo and points the clinic at it, with its audit event, in one transaction. */
export async function uploadLogo(deps: UploadDeps, ctx: Ctx, image: UploadSource) {
  assertCan(ctx, "clinic:manage");
  const upload = await image();
  const png = await normalizeImage(upload, LOGO_BOX, "logo");
  return deps.db.transaction(async (tx) => {
    const file = await saveFile(tx, deps.fileStore, {
      clinicId: ctx.clinicId,
      kind: "logo",
      data: png,
      mimeType: "image/png",
      originalName: upload.filename,
      createdBy: ctx.user.id,
    });
    await updateClinic(tx, ctx.clinicId, { logoUrl: file.url });
    await recordAudit(tx, {
      action: "clinic.logo_uploaded",
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
