import {
  type AmendReportRequest,
  type EditableReportFields,
  editableFieldNames,
  FINALIZED_DELETE_MESSAGE,
  FINALIZED_EDIT_MESSAGE,
  type FinalizeReportRequest,
  type Report,
  type ReportList,
  type ReportListFilters,
  type UpdateReportRequest,
} from "../../../domain/contracts/reports";
import { dateProblems, latestIsoDateAnywhere } from "../../../domain/dates";
import { AppError, notFound } from "../../../domain/errors";
import { can } from "../../../domain/permissions";
import type { Db, Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { enqueueReportDeliveries } from "../delivery/delivery.service";
import { queueSignedArchive } from "../exports/report-archives";
import {
  assertCriticalCommunicated,
  criticalRulesOff,
  criticalStates,
  reportCriticalState,
  uncommunicatedCondition,
} from "./report-critical";
import { snapshotOf, toReportDto } from "./report-dto";
import { parseSearch } from "./report-search";
import { assertMaySign, type SigningAct, type SigningClock } from "./report-signing";
import { resolveSonographer } from "./report-sonographer";
import {
  findPhysician,
  findReport,
  findTemplateId,
  insertNextVersion,
  listReports as listReportRows,
  lockReport,
  type ReportRow,
  type ReportWithPeople,
  recentReports as recentReportRows,
  updateReport as updateReportRow,
} from "./reports.repository";

export const RECENT_REPORTS_LIMIT = 50;

const audit = (ctx: Ctx) => ({
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  ip: ctx.ip,
  requestId: ctx.requestId,
});

/** Reads a live report of the clinic (after a write, inside its transaction). */
export async function loadReport(db: Queryable, ctx: Ctx, id: number): Promise<Report> {
  const row = await findReport(db, ctx.clinicId, id);
  if (!row) throw notFound("Report");
  return toReportDto(row, await reportCriticalState(db, ctx.clinicId, row.report));
}

/** Opening a report shows patient data, so it is audited. */
export async function getReport(db: Db, ctx: Ctx, id: number): Promise<Report> {
  assertCan(ctx, "report:read");
  return db.transaction(async (tx) => {
    const report = await loadReport(tx, ctx, id);
    await recordAudit(tx, { ...audit(ctx), action: "report.viewed", entityType: "report", entityId: id });
    return report;
  });
}

/** Reports with their critical state, read for the page's rows only. */
async function withCriticalState(db: Queryable, ctx: Ctx, rows: ReportWithPeople[]): Promise<Report[]> {
  const states = await criticalStates(
    db,
    ctx.clinicId,
    rows.map((r) => r.report),
  );
  return rows.map((row) => toReportDto(row, states.get(row.report.id)));
}

export async function listReports(db: Db, ctx: Ctx, query: ReportListFilters): Promise<ReportList> {
  assertCan(ctx, "report:read");
  const { search, page, pageSize, sort, critical, ...filters } = query;
  const { rows, total } = await listReportRows(db, ctx.clinicId, {
    tokens: parseSearch(search),
    filters,
    sort,
    limit: pageSize,
    offset: (page - 1) * pageSize,
    critical: critical === "uncommunicated" ? uncommunicatedCondition(await criticalRulesOff(db, ctx.clinicId)) : null,
  });
  return { items: await withCriticalState(db, ctx, rows), total };
}

export async function recentReports(db: Db, ctx: Ctx): Promise<Report[]> {
  assertCan(ctx, "report:read");
  return withCriticalState(db, ctx, await recentReportRows(db, ctx.clinicId, RECENT_REPORTS_LIMIT));
}

/**
 * The edited fields that differ from the row; physician and template must be the clinic's own. A changed
 * sonographer name is matched to the clinic's sonographers again.
 */
async function changedFields(
  tx: Queryable,
  ctx: Ctx,
  row: ReportRow,
  body: Partial<EditableReportFields>,
): Promise<Partial<EditableReportFields> & { sonographerId?: number | null }> {
  const changes: Record<string, unknown> = {};
  for (const field of editableFieldNames) {
    const value = body[field];
    if (value !== undefined && value !== row[field]) changes[field] = value;
  }
  // Handing a report to another physician is an admin's act (report:assign), as from the sign-off worklist.
  if ("physicianId" in changes && !can(ctx.user.role, "report:assign")) {
    throw new AppError("FORBIDDEN", "Only a clinic admin can hand a report to another physician", "physicianId");
  }
  if (typeof changes.physicianId === "number" && !(await findPhysician(tx, ctx.clinicId, changes.physicianId))) {
    throw new AppError("NOT_FOUND", "Physician not found", "physicianId");
  }
  if (typeof changes.templateId === "number" && !(await findTemplateId(tx, ctx.clinicId, changes.templateId))) {
    throw new AppError("NOT_FOUND", "Template not found", "templateId");
  }
  if ("sonographerName" in changes) {
    const name = changes.sonographerName as string | null;
    changes.sonographerId = (await resolveSonographer(tx, ctx.clinicId, null, name)).sonographerId;
  }
  return changes as Partial<EditableReportFields>;
}

async function lockLiveReport(tx: Queryable, ctx: Ctx, id: number): Promise<ReportRow> {
  const row = await lockReport(tx, ctx.clinicId, id);
  if (!row) throw notFound("Report");
  return row;
}

async function storeVersion(
  tx: Queryable,
  ctx: Ctx,
  row: ReportRow,
  kind: "edited" | "finalized" | "amended",
  amendment: { number: number; reason: string } | null = null,
): Promise<number> {
  return insertNextVersion(tx, {
    clinicId: ctx.clinicId,
    reportId: row.id,
    kind,
    snapshot: snapshotOf(row, amendment),
    reason: amendment?.reason ?? null,
    createdBy: ctx.user.id,
  });
}

/** The signed state; the first signature's time is kept through amendments (turnaround counts to it). */
const signature = (ctx: Ctx, act: SigningAct, clock: SigningClock, row: ReportRow) => ({
  isFinalized: true,
  isDraft: false,
  finalizedAt: new Date(clock.now),
  finalizedBy: ctx.user.id,
  finalizedOnBehalf: act.onBehalf,
  firstFinalizedAt: row.firstFinalizedAt ?? new Date(clock.now),
});

/**
 * Dates that cannot be right (born after the exam, an exam in the future, ...) are signed only when the
 * clinician confirmed them; the confirmation is audited (which checks, never the dates themselves).
 */
async function checkDatesBeforeSigning(
  tx: Queryable,
  ctx: Ctx,
  dates: { id: number; patientDob: string | null; examDate: string | null },
  acknowledged: boolean | undefined,
): Promise<void> {
  const problems = dateProblems(dates, latestIsoDateAnywhere());
  if (problems.length === 0) return;
  if (!acknowledged) {
    const said = problems.map((p) => p.message).join(" ");
    throw new AppError(
      "BAD_REQUEST",
      `${said} Correct the dates, or confirm in the report editor that they are right, before finalizing.`,
      "acknowledgeDateWarnings",
    );
  }
  await recordAudit(tx, {
    ...audit(ctx),
    action: "report.date_warnings_acknowledged",
    entityType: "report",
    entityId: dates.id,
    details: { checks: problems.map((p) => p.kind) },
  });
}

/** The audit entry of a signature names the signer and, when on behalf, the physician in the same words as the exports. */
const signedDetails = (act: SigningAct, physicianId: number | null, version: number) => ({
  version,
  physicianId,
  onBehalf: act.onBehalf,
  signature: act.signatureLine,
});

/**
 * Edits a draft; a signed report changes only through amendment. finalize: true signs in the same save,
 * under the signing rule (judged on the report as this save leaves it, physician included).
 */
export async function updateReport(
  db: Db,
  ctx: Ctx,
  id: number,
  body: UpdateReportRequest,
  clock: SigningClock,
): Promise<Report> {
  assertCan(ctx, "report:write");
  if (body.finalize) assertCan(ctx, "report:finalize");
  return db.transaction(async (tx) => {
    const row = await lockLiveReport(tx, ctx, id);
    if (row.isFinalized) throw new AppError("CONFLICT", FINALIZED_EDIT_MESSAGE);
    const changes = await changedFields(tx, ctx, row, body);
    const changed = Object.keys(changes);
    if (changed.length === 0 && !body.finalize) return loadReport(tx, ctx, id);
    const physicianId = changes.physicianId !== undefined ? changes.physicianId : row.physicianId;
    const act = body.finalize ? await assertMaySign(tx, ctx, physicianId, clock) : null;
    if (act) await checkDatesBeforeSigning(tx, ctx, { ...row, ...changes }, body.acknowledgeDateWarnings);
    if (act) await assertCriticalCommunicated(tx, ctx, row);
    const values = { ...changes, ...(act ? signature(ctx, act, clock, row) : {}) };
    await updateReportRow(tx, ctx.clinicId, id, values);
    const version = await storeVersion(tx, ctx, { ...row, ...values }, body.finalize ? "finalized" : "edited");
    if (changed.length > 0) {
      await recordAudit(tx, {
        ...audit(ctx),
        action: "report.updated",
        entityType: "report",
        entityId: id,
        details: { fields: changed, version },
      });
    }
    if (act) {
      await enqueueReportDeliveries(tx, ctx, row);
      await queueSignedArchive(tx, ctx, id, version);
      await recordAudit(tx, {
        ...audit(ctx),
        action: "report.finalized",
        entityType: "report",
        entityId: id,
        details: signedDetails(act, physicianId, version),
      });
    }
    return loadReport(tx, ctx, id);
  });
}

/**
 * The electronic signature: the signed state is stored as its own version and never changed after. Only the
 * physician's linked user signs (or staff on their behalf when the clinic allows it), after re-authentication.
 */
export async function finalizeReport(
  db: Db,
  ctx: Ctx,
  id: number,
  clock: SigningClock,
  body: FinalizeReportRequest = null,
): Promise<Report> {
  assertCan(ctx, "report:finalize");
  return db.transaction(async (tx) => {
    const row = await lockLiveReport(tx, ctx, id);
    if (row.isFinalized) throw new AppError("CONFLICT", "This report is already finalized");
    const act = await assertMaySign(tx, ctx, row.physicianId, clock);
    await checkDatesBeforeSigning(tx, ctx, row, body?.acknowledgeDateWarnings);
    await assertCriticalCommunicated(tx, ctx, row);
    const values = signature(ctx, act, clock, row);
    await updateReportRow(tx, ctx.clinicId, id, values);
    const version = await storeVersion(tx, ctx, { ...row, ...values }, "finalized");
    // Queued in the signing transaction: a signature and its deliveries commit together (issue 28).
    await enqueueReportDeliveries(tx, ctx, row);
    // The archive copy's document as signed, in the same transaction; the job renders it (decision 026).
    await queueSignedArchive(tx, ctx, id, version);
    await recordAudit(tx, {
      ...audit(ctx),
      action: "report.finalized",
      entityType: "report",
      entityId: id,
      details: signedDetails(act, row.physicianId, version),
    });
    return loadReport(tx, ctx, id);
  });
}

/**
 * Changes a signed report with a recorded reason. The signed versions stay untouched in report_versions;
 * the report itself loses its signature and must be finalized again (spec part 1, section 4).
 */
export async function amendReport(db: Db, ctx: Ctx, id: number, body: AmendReportRequest): Promise<Report> {
  assertCan(ctx, "report:amend");
  const reason = body.reason.trim();
  if (!reason) throw new AppError("BAD_REQUEST", "Amendment reason is required", "reason");
  return db.transaction(async (tx) => {
    const row = await lockLiveReport(tx, ctx, id);
    if (!row.isFinalized) {
      throw new AppError("CONFLICT", "Only finalized reports can be amended; edit the draft instead");
    }
    const changes = await changedFields(tx, ctx, row, body);
    const amendmentNumber = row.amendmentCount + 1;
    const values = {
      ...changes,
      isAmended: true,
      amendedAt: new Date(),
      amendedBy: ctx.user.id,
      amendmentReason: reason,
      amendmentCount: amendmentNumber,
      isFinalized: false,
      isDraft: true,
      finalizedAt: null,
    };
    await updateReportRow(tx, ctx.clinicId, id, values);
    const version = await storeVersion(tx, ctx, { ...row, ...values }, "amended", {
      number: amendmentNumber,
      reason,
    });
    await recordAudit(tx, {
      ...audit(ctx),
      action: "report.amended",
      entityType: "report",
      entityId: id,
      // The spec records the reason in the audit trail; it is the clinician's words about the change.
      details: { version, amendmentNumber, reason, fields: Object.keys(changes) },
    });
    return loadReport(tx, ctx, id);
  });
}

/** Soft delete of a report that was never signed; signed reports are kept for records retention. */
export async function deleteReport(db: Db, ctx: Ctx, id: number): Promise<{ success: true; id: number }> {
  assertCan(ctx, "report:delete");
  return db.transaction(async (tx) => {
    const row = await lockLiveReport(tx, ctx, id);
    // finalizedBy survives an amendment, so it tells whether the report was ever signed.
    if (row.isFinalized || row.isAmended || row.finalizedBy !== null)
      throw new AppError("CONFLICT", FINALIZED_DELETE_MESSAGE);
    await updateReportRow(tx, ctx.clinicId, id, { deletedAt: new Date() });
    await recordAudit(tx, { ...audit(ctx), action: "report.deleted", entityType: "report", entityId: id });
    return { success: true as const, id };
  });
}
