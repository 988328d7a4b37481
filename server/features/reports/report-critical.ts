import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import {
  type CommunicationMethod,
  CRITICAL_NOT_COMMUNICATED_CODE,
  type CriticalCommunication,
  communicationLine,
  type ReportCriticalResult,
  type recordCommunicationRequest,
} from "../../../domain/contracts/critical-communication";
import type { Report } from "../../../domain/contracts/reports";
import { AppError, notFound } from "../../../domain/errors";
import type { CriticalResult } from "../../../domain/report-engine/critical-results";
import type { Db, Queryable } from "../../db/client";
import { clinics, criticalCommunications, reports, users } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { renewReportLists } from "./reports.repository";

// Critical results on a stored report (issue 26 item 4): the engine's flags (reports.critical_results) less
// the clinic's rules that are off, each covered or not by a communication record.

type CommunicationRow = typeof criticalCommunications.$inferSelect & { recordedByName: string | null };

/** What a report's responses say about its critical results. */
export type CriticalState = Pick<Report, "criticalResults" | "criticalCommunications" | "criticalUncommunicated">;

export const noCriticalState: CriticalState = {
  criticalResults: [],
  criticalCommunications: [],
  criticalUncommunicated: false,
};

/** The clinic's critical-result rules that are off. */
/** The clinic turned rules on or off (clinic.service.ts): the list's remembered answers mark by the old rules. */
export const criticalRulesChanged = (tx: Queryable, clinicId: number) => renewReportLists(tx, clinicId);

export async function criticalRulesOff(db: Queryable, clinicId: number): Promise<string[]> {
  const [row] = await db.select({ off: clinics.criticalRulesOff }).from(clinics).where(eq(clinics.id, clinicId));
  return Array.isArray(row?.off) ? row.off : [];
}

const recorderName = sql<
  string | null
>`coalesce(nullif(trim(coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')), ''), ${users.email})`;

/**
 * The clinic's rules that are off and the communication records of reports, in one query (a round trip less
 * than reading the clinic apart on every open, edit and export of a flagged report: issue 27).
 */
async function criticalRecordsOf(
  db: Queryable,
  clinicId: number,
  reportIds: number[],
): Promise<{ off: string[]; records: CommunicationRow[] }> {
  const rows = await db
    .select({ off: clinics.criticalRulesOff, record: criticalCommunications, recordedByName: recorderName })
    .from(clinics)
    .leftJoin(
      criticalCommunications,
      and(eq(criticalCommunications.clinicId, clinics.id), inArray(criticalCommunications.reportId, reportIds)),
    )
    .leftJoin(users, eq(users.id, criticalCommunications.recordedBy))
    .where(eq(clinics.id, clinicId))
    .orderBy(criticalCommunications.communicatedAt, criticalCommunications.id);
  const off = rows[0]?.off;
  return {
    off: Array.isArray(off) ? off : [],
    records: rows.flatMap((r) => (r.record ? [{ ...r.record, recordedByName: r.recordedByName }] : [])),
  };
}

const storedResults = (value: unknown): CriticalResult[] => (Array.isArray(value) ? (value as CriticalResult[]) : []);

function toCommunication(row: CommunicationRow): CriticalCommunication {
  return {
    id: row.id,
    recipient: row.recipient,
    method: row.method as CommunicationMethod,
    communicatedAt: row.communicatedAt.toISOString(),
    readBack: row.readBack,
    notes: row.notes,
    recordedBy: row.recordedBy,
    recordedByName: row.recordedByName,
    recordedAt: row.createdAt.toISOString(),
    amendmentNumber: row.amendmentNumber,
    results: storedResults(row.results),
  };
}

/** The critical state of one report from its stored flags, the rules that are off and its records. */
export function criticalStateOf(
  report: { criticalResults: unknown; isFinalized: boolean },
  off: readonly string[],
  records: readonly CommunicationRow[],
): CriticalState {
  const covered = new Set(records.flatMap((r) => r.resultKeys));
  const results: ReportCriticalResult[] = storedResults(report.criticalResults)
    .filter((r) => !off.includes(r.rule))
    .map((r) => ({ ...r, communicated: covered.has(r.key) }));
  return {
    criticalResults: results,
    criticalCommunications: records.map(toCommunication),
    criticalUncommunicated: !report.isFinalized && results.some((r) => !r.communicated),
  };
}

/** The critical state of each report of a list, in one query. */
export async function criticalStates(
  db: Queryable,
  clinicId: number,
  rows: readonly { id: number; criticalResults: unknown; isFinalized: boolean }[],
): Promise<Map<number, CriticalState>> {
  const flagged = rows.filter((r) => storedResults(r.criticalResults).length > 0);
  const states = new Map<number, CriticalState>();
  if (flagged.length === 0) return states;
  const { off, records } = await criticalRecordsOf(
    db,
    clinicId,
    flagged.map((r) => r.id),
  );
  for (const row of flagged) {
    states.set(
      row.id,
      criticalStateOf(
        row,
        off,
        records.filter((r) => r.reportId === row.id),
      ),
    );
  }
  return states;
}

/**
 * The list filter "critical, not communicated": an unsigned report with a flag under a rule that is on and
 * no record covering it. Same meaning as `criticalUncommunicated`.
 */
export function uncommunicatedCondition(off: readonly string[]): SQL {
  return sql`(${reports.isFinalized} = false and exists (
    select 1 from jsonb_array_elements(${reports.criticalResults}) as flag
    where not (${JSON.stringify(off)}::jsonb ? (flag->>'rule'))
      and not exists (
        select 1 from ${criticalCommunications} c
        where c.clinic_id = ${reports.clinicId} and c.report_id = ${reports.id} and c.result_keys ? (flag->>'key'))))`;
}

/**
 * Signing is refused (409) while a critical result of the report has no communication record: the refusal
 * names the results so the signer knows what to record.
 */
export async function assertCriticalCommunicated(
  tx: Queryable,
  ctx: Ctx,
  report: { id: number; criticalResults: unknown },
): Promise<void> {
  if (storedResults(report.criticalResults).length === 0) return;
  const { off, records } = await criticalRecordsOf(tx, ctx.clinicId, [report.id]);
  const state = criticalStateOf({ ...report, isFinalized: false }, off, records);
  const open = state.criticalResults.filter((r) => !r.communicated);
  if (open.length === 0) return;
  const list = open.map((r) => `${r.finding} (${r.ruleName})`).join("; ");
  throw new AppError(
    CRITICAL_NOT_COMMUNICATED_CODE,
    `This report has a critical result that must be communicated before signing: ${list}. Record to whom, how and when it was communicated, then sign.`,
  );
}

const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * Records that the report's critical results (those under rules that are on) were communicated; the record
 * covers every one of them, so a result that appears later (an amendment, a rule turned on) needs its own.
 */
export async function recordCommunication(
  db: Db,
  ctx: Ctx,
  reportId: number,
  body: ReturnType<typeof recordCommunicationRequest.parse>,
  now: number,
): Promise<CriticalCommunication> {
  assertCan(ctx, "report:communicate-critical");
  const communicatedAt = new Date(body.communicatedAt);
  if (communicatedAt.getTime() > now + FUTURE_TOLERANCE_MS) {
    throw new AppError("BAD_REQUEST", "The time of the communication cannot be in the future", "communicatedAt");
  }
  return db.transaction(async (tx) => {
    const [report] = await tx
      .select({
        id: reports.id,
        criticalResults: reports.criticalResults,
        amendmentCount: reports.amendmentCount,
        isFinalized: reports.isFinalized,
      })
      .from(reports)
      .where(and(eq(reports.clinicId, ctx.clinicId), eq(reports.id, reportId), sql`${reports.deletedAt} is null`))
      .for("update");
    if (!report) throw notFound("Report");
    const off = await criticalRulesOff(tx, ctx.clinicId);
    const results = storedResults(report.criticalResults).filter((r) => !off.includes(r.rule));
    if (results.length === 0) {
      throw new AppError("CONFLICT", "This report has no critical result to communicate");
    }
    const [inserted] = await tx
      .insert(criticalCommunications)
      .values({
        clinicId: ctx.clinicId,
        reportId,
        resultKeys: results.map((r) => r.key),
        results,
        recipient: body.recipient,
        method: body.method,
        communicatedAt,
        readBack: body.readBack,
        notes: body.notes,
        recordedBy: ctx.user.id,
        amendmentNumber: report.amendmentCount,
      })
      .returning();
    // The reports list shows the marker and filters on it: its remembered answers must be renewed.
    await renewReportLists(tx, ctx.clinicId);
    const byName = [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(" ").trim() || ctx.user.email;
    await recordAudit(tx, {
      action: "report.critical_result_communicated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      ip: ctx.ip,
      requestId: ctx.requestId,
      entityType: "report",
      entityId: reportId,
      details: {
        communicationId: inserted!.id,
        rules: results.map((r) => r.rule),
        results: results.map((r) => r.key),
        method: body.method,
        readBack: body.readBack,
        communicatedAt: communicatedAt.toISOString(),
        amendmentNumber: report.amendmentCount,
        statement: communicationLine(body, byName, communicatedAt.toISOString()),
      },
    });
    return toCommunication({ ...inserted!, recordedByName: byName });
  });
}

/** The communication records of one report, for a response (the report's own read checks the permission). */
export async function reportCriticalState(
  db: Queryable,
  clinicId: number,
  report: { id: number; criticalResults: unknown; isFinalized: boolean },
): Promise<CriticalState> {
  const { off, records } = await criticalRecordsOf(db, clinicId, [report.id]);
  if (storedResults(report.criticalResults).length === 0 && records.length === 0) return noCriticalState;
  return criticalStateOf(report, off, records);
}
