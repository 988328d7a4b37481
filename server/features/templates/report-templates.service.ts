import {
  type CreateReportTemplateRequest,
  TEMPLATE_NAME_REQUIRED,
  type UpdateReportTemplateRequest,
} from "../../../domain/contracts/templates";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import {
  clearOtherDefaults,
  deleteReportTemplate,
  findDefaultReportTemplate,
  findReportTemplate,
  insertReportTemplate,
  listReportTemplates,
  lockClinicTemplateDefaults,
  type ReportTemplateRow,
  updateReportTemplate,
} from "./report-templates.repository";

export type { ReportTemplateRow };

const audit = (ctx: Ctx, action: "template.created" | "template.updated" | "template.deleted", id: number) => ({
  action,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  entityType: "report_template",
  entityId: id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

function requiredName(name: string | undefined): string {
  const trimmed = name?.trim() ?? "";
  if (!trimmed) throw new AppError("VALIDATION_FAILED", TEMPLATE_NAME_REQUIRED, "name");
  return trimmed;
}

export async function listTemplates(db: Db, ctx: Ctx) {
  assertCan(ctx, "template:read");
  return listReportTemplates(db, ctx.clinicId);
}

export async function createTemplate(db: Db, ctx: Ctx, input: CreateReportTemplateRequest) {
  assertCan(ctx, "template:write");
  const name = requiredName(input.name);
  return db.transaction(async (tx) => {
    if (input.isDefault) await lockClinicTemplateDefaults(tx, ctx.clinicId);
    const row = await insertReportTemplate(tx, { ...input, name, clinicId: ctx.clinicId, userId: ctx.user.id });
    if (row.isDefault) await clearOtherDefaults(tx, ctx.clinicId, row.id);
    await recordAudit(tx, { ...audit(ctx, "template.created", row.id), details: { isDefault: row.isDefault } });
    return row;
  });
}

export async function updateTemplate(db: Db, ctx: Ctx, id: number, input: UpdateReportTemplateRequest) {
  assertCan(ctx, "template:write");
  const values = { ...input, ...(input.name !== undefined ? { name: requiredName(input.name) } : {}) };
  return db.transaction(async (tx) => {
    if (values.isDefault) await lockClinicTemplateDefaults(tx, ctx.clinicId);
    const row = await updateReportTemplate(tx, ctx.clinicId, id, values);
    if (!row) throw notFound("Template");
    if (values.isDefault) await clearOtherDefaults(tx, ctx.clinicId, row.id);
    await recordAudit(tx, { ...audit(ctx, "template.updated", row.id), details: { fields: Object.keys(input) } });
    return row;
  });
}

export async function deleteTemplate(db: Db, ctx: Ctx, id: number) {
  assertCan(ctx, "template:write");
  await db.transaction(async (tx) => {
    const row = await deleteReportTemplate(tx, ctx.clinicId, id);
    if (!row) throw notFound("Template");
    await recordAudit(tx, audit(ctx, "template.deleted", id));
  });
}

/**
 * The layout an export uses: the named template of the clinic, else the clinic's default, else null
 * (the caller then uses the spec's defaults). Another clinic's id is treated as absent, never leaked.
 */
export async function templateForExport(
  db: Queryable,
  clinicId: number,
  templateId?: number | null,
): Promise<ReportTemplateRow | null> {
  if (templateId) {
    const chosen = await findReportTemplate(db, clinicId, templateId);
    if (chosen) return chosen;
  }
  return (await findDefaultReportTemplate(db, clinicId)) ?? null;
}

export async function getTemplate(db: Queryable, ctx: Ctx, id: number) {
  assertCan(ctx, "template:read");
  const row = await findReportTemplate(db, ctx.clinicId, id);
  if (!row) throw notFound("Template");
  return row;
}
