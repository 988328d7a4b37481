import { diffLines } from "diff";
import {
  diffedFields,
  type ReportDiff,
  type ReportVersion,
  type ReportVersionSummary,
  restoreSnapshot,
  type VersionKind,
} from "../../../domain/contracts/reports";
import { AppError, notFound } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAuditAlone } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { archiveStates } from "../exports/report-archives";
import { findReport, findVersions, listVersions } from "./reports.repository";

type VersionRow = Awaited<ReturnType<typeof listVersions>>[number];

function toSummary(row: VersionRow): ReportVersionSummary {
  const snapshot = restoreSnapshot(row.snapshot);
  return {
    versionNumber: row.versionNumber,
    kind: row.kind as VersionKind,
    reason: row.reason,
    amendmentNumber: snapshot.amendmentNumber,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

async function assertReport(db: Db, ctx: Ctx, id: number) {
  if (!(await findReport(db, ctx.clinicId, id))) throw notFound("Report");
}

const viewed = (ctx: Ctx, id: number, details: Record<string, unknown>) => ({
  action: "report.viewed" as const,
  clinicId: ctx.clinicId,
  actorUserId: ctx.user.id,
  ip: ctx.ip,
  requestId: ctx.requestId,
  entityType: "report",
  entityId: id,
  details,
});

export async function reportVersions(db: Db, ctx: Ctx, id: number): Promise<ReportVersionSummary[]> {
  assertCan(ctx, "report:read");
  await assertReport(db, ctx, id);
  const [versions, archives] = await Promise.all([
    listVersions(db, ctx.clinicId, id),
    archiveStates(db, ctx.clinicId, id),
  ]);
  // A signed version's PDF/A archive copy (decision 026): made by a job after the signature, so it may be pending.
  return versions.map((row) => ({ ...toSummary(row), archive: archives.get(row.versionNumber) ?? null }));
}

/** One stored version, as it was saved (signed versions included). */
export async function reportVersion(db: Db, ctx: Ctx, id: number, n: number): Promise<ReportVersion> {
  assertCan(ctx, "report:read");
  await assertReport(db, ctx, id);
  const [row] = await findVersions(db, ctx.clinicId, id, [n]);
  if (!row) throw notFound("Version");
  await recordAuditAlone(db, viewed(ctx, id, { version: n }));
  return { ...toSummary(row), snapshot: restoreSnapshot(row.snapshot) };
}

/** Line differences of each text field between two versions (from -> to). */
export async function reportDiff(db: Db, ctx: Ctx, id: number, from: number, to: number): Promise<ReportDiff> {
  assertCan(ctx, "report:read");
  await assertReport(db, ctx, id);
  const rows = await findVersions(db, ctx.clinicId, id, [from, to]);
  const before = rows.find((r) => r.versionNumber === from);
  const after = rows.find((r) => r.versionNumber === to);
  if (!before) throw new AppError("NOT_FOUND", `Version ${from} not found`, "from");
  if (!after) throw new AppError("NOT_FOUND", `Version ${to} not found`, "to");
  const a = restoreSnapshot(before.snapshot);
  const b = restoreSnapshot(after.snapshot);
  await recordAuditAlone(db, viewed(ctx, id, { diff: [from, to] }));
  return {
    from,
    to,
    fields: diffedFields.map((field) => {
      const oldText = a[field] ?? "";
      const newText = b[field] ?? "";
      const parts = diffLines(oldText, newText).map((p) => ({
        value: p.value,
        added: Boolean(p.added),
        removed: Boolean(p.removed),
      }));
      return { field, changed: oldText !== newText, parts };
    }),
  };
}
