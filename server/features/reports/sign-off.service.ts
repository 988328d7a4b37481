import type { Report } from "../../../domain/contracts/reports";
import type { SignOffItem, SignOffQueue, SignOffWorklist } from "../../../domain/contracts/sign-off";
import { AppError, notFound } from "../../../domain/errors";
import { can } from "../../../domain/permissions";
import { calendarDateIn, draftAge } from "../../../domain/turnaround";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { snapshotOf } from "./report-dto";
import { findPhysician, insertNextVersion, lockReport, updateReport } from "./reports.repository";
import { loadReport } from "./reports.service";
import {
  type AwaitingDraftRow,
  findAwaitingDrafts,
  findPhysicianOfUser,
  findTurnaroundTarget,
  listClinicPhysicians,
  WORKLIST_LIMIT,
} from "./sign-off.repository";

/** The clock and the time zone that say which calendar day it is for the clinic (the server's, as the exports). */
export type ClinicClock = { now: number; timeZone: string };

/** The same images the editor shows, digital drawing first (web/src/features/reports/worksheet-pane.tsx). */
const worksheetImageUrl = (row: Pick<AwaitingDraftRow, "worksheetId" | "digitalWorksheetId">) =>
  row.digitalWorksheetId
    ? `/api/digital-worksheets/${row.digitalWorksheetId}/image`
    : row.worksheetId
      ? `/api/worksheets/${row.worksheetId}/image`
      : null;

/**
 * When a draft's wait started: an amended report waits from its amendment; otherwise from the exam day, or
 * the day it was generated when no exam date was recorded.
 */
export function waitingStart(
  row: Pick<AwaitingDraftRow, "examDate" | "generatedAt" | "isAmended" | "amendedAt">,
  timeZone: string,
) {
  if (row.isAmended && row.amendedAt)
    return { date: calendarDateIn(row.amendedAt, timeZone), from: "amended" as const };
  if (row.examDate) return { date: row.examDate, from: "exam" as const };
  return { date: calendarDateIn(row.generatedAt, timeZone), from: "generated" as const };
}

export function toSignOffItem(row: AwaitingDraftRow, today: string, target: number, timeZone: string): SignOffItem {
  const start = waitingStart(row, timeZone);
  const age = draftAge(start.date, today, target);
  return {
    id: row.id,
    patientName: row.patientName,
    patientDob: row.patientDob,
    mrn: row.mrn,
    studyType: row.studyType,
    examDate: row.examDate,
    generatedAt: row.generatedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    physicianId: row.physicianId,
    worksheetImageUrl: worksheetImageUrl(row),
    warnings: row.warnings ?? [],
    isAmended: row.isAmended,
    waitingSince: start.date,
    waitingFrom: start.from,
    ...age,
  };
}

const queueOf = (
  physician: { id: number; name: string; userId: string | null } | null,
  items: SignOffItem[],
): SignOffQueue => ({
  physicianId: physician?.id ?? null,
  physicianName: physician?.name ?? null,
  signerUserId: physician?.userId ?? null,
  overdueCount: items.filter((i) => i.overdue).length,
  items,
});

/**
 * "Awaiting my signature": a physician's own drafts; an admin's view of every physician's queue and of the
 * drafts no physician is assigned to. Listing is not opening a report, so it is not audited (opening is).
 */
export async function signOffWorklist(db: Db, ctx: Ctx, clock: ClinicClock): Promise<SignOffWorklist> {
  assertCan(ctx, "report:sign-off");
  const today = calendarDateIn(clock.now, clock.timeZone);
  const target = await findTurnaroundTarget(db, ctx.clinicId);
  const mine = await findPhysicianOfUser(db, ctx.clinicId, ctx.user.id);
  const item = (row: AwaitingDraftRow) => toSignOffItem(row, today, target, clock.timeZone);
  const base = { myPhysicianId: mine?.id ?? null, targetDays: target, today };
  // Whoever may hand drafts to physicians sees every queue (admins); anyone else their own.
  if (!can(ctx.user.role, "report:assign")) {
    const queues = mine
      ? [
          queueOf(
            mine,
            (await findAwaitingDrafts(db, ctx.clinicId, { physicianId: mine.id, limit: WORKLIST_LIMIT })).map(item),
          ),
        ]
      : [];
    return { scope: "mine", ...base, queues };
  }
  const [physicianRows, drafts] = await Promise.all([
    listClinicPhysicians(db, ctx.clinicId),
    findAwaitingDrafts(db, ctx.clinicId, { limit: WORKLIST_LIMIT }),
  ]);
  const byPhysician = new Map<number | null, SignOffItem[]>();
  for (const row of drafts) {
    // A physician id that is not the clinic's (a deleted physician) counts as unassigned.
    const key = physicianRows.some((p) => p.id === row.physicianId) ? row.physicianId : null;
    byPhysician.set(key, [...(byPhysician.get(key) ?? []), item(row)]);
  }
  // The admin's own queue first when they sign as a physician, then by name; the unassigned drafts last.
  const ordered = [...physicianRows].sort((a, b) => Number(b.id === mine?.id) - Number(a.id === mine?.id));
  const queues = [
    ...ordered.map((p) => queueOf(p, byPhysician.get(p.id) ?? [])),
    queueOf(null, byPhysician.get(null) ?? []),
  ];
  return { scope: "clinic", ...base, queues };
}

/**
 * An admin hands a draft to another physician (or leaves it unassigned). Signed reports keep their physician:
 * the signature names them. Stored as a version and audited with both physicians.
 */
export async function reassignReport(db: Db, ctx: Ctx, id: number, physicianId: number | null): Promise<Report> {
  assertCan(ctx, "report:assign");
  return db.transaction(async (tx) => {
    const row = await lockReport(tx, ctx.clinicId, id);
    if (!row) throw notFound("Report");
    if (row.isFinalized) {
      throw new AppError("CONFLICT", "A signed report keeps its physician; amend it first to hand it to another");
    }
    if (physicianId !== null && !(await findPhysician(tx, ctx.clinicId, physicianId))) {
      throw new AppError("NOT_FOUND", "Physician not found", "physicianId");
    }
    if (row.physicianId === physicianId) return loadReport(tx, ctx, id);
    await updateReport(tx, ctx.clinicId, id, { physicianId });
    const version = await insertNextVersion(tx, {
      clinicId: ctx.clinicId,
      reportId: id,
      kind: "edited",
      snapshot: snapshotOf({ ...row, physicianId }),
      reason: null,
      createdBy: ctx.user.id,
    });
    await recordAudit(tx, {
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      ip: ctx.ip,
      requestId: ctx.requestId,
      action: "report.reassigned",
      entityType: "report",
      entityId: id,
      details: { fromPhysicianId: row.physicianId, toPhysicianId: physicianId, version },
    });
    return loadReport(tx, ctx, id);
  });
}
