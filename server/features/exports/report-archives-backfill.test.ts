import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportVersionSummary } from "../../../domain/contracts/reports";
import { reportArchives, reports } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { manualJobQueue } from "../../test-support/manual-job-queue";
import { readyToSign } from "../../test-support/signing";
import { physicianWithSignature } from "../../test-support/signing-physician";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { saveFile } from "../files/files.service";
import { sampleReportText } from "./export-samples";

/**
 * Migration 0029: versions signed before archive copies were jobs (0027) had their copy recorded only in the audit
 * trail. The migration gives them their report_archives row, so the history shows them like newer ones.
 */
const backfill = fs.readFileSync(
  path.join(import.meta.dirname, "../../db/migrations/0029_report_archives_backfill.sql"),
  "utf8",
);

// The job never runs here: each signature's row is removed to stand for a version signed before 0027.
const { jobQueue } = manualJobQueue();
let t: TestApp;
let admin: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { jobQueue });
  admin = await registerClinic(t.app, "Backfill Clinic");
  other = await registerClinic(t.app, "Other Clinic");
});
afterAll(async () => {
  await t?.close();
});

/** A report signed as before 0027: no archive row; its copy (if any) stored and audited as the old code did. */
async function signedBefore0027(copyOwner: SignedIn | null) {
  const { db } = t.deps.database;
  const physician = await physicianWithSignature(t, admin.clinicId);
  const [row] = await db
    .insert(reports)
    .values({ clinicId: admin.clinicId, physicianId: physician.id, ...sampleReportText })
    .returning({ id: reports.id });
  const reportId = row!.id;
  await readyToSign(t, admin, reportId);
  const signed = await as(t.app, admin)({ method: "POST", url: `/api/reports/${reportId}/finalize`, payload: {} });
  expect(signed.statusCode, signed.body).toBe(200);
  await db.delete(reportArchives).where(eq(reportArchives.reportId, reportId));
  const version = (await versions(reportId)).at(-1)!.versionNumber;
  if (copyOwner) {
    const file = await saveFile(db, t.deps.fileStore, {
      clinicId: copyOwner.clinicId,
      kind: "report_archive",
      data: Buffer.from(`%PDF-1.7 archive of report ${reportId}`),
      mimeType: "application/pdf",
    });
    await recordAudit(db, {
      action: "report.archived",
      clinicId: admin.clinicId,
      actorUserId: admin.userId,
      entityType: "report",
      entityId: reportId,
      details: { version, fileId: file.id, sha256: file.sha256, byteSize: file.byteSize, format: "PDF/A-2b" },
    });
    return { reportId, version, fileId: file.id, sha256: file.sha256 };
  }
  return { reportId, version, fileId: null, sha256: null };
}

async function versions(reportId: number) {
  const res = await as(t.app, admin)({ url: `/api/reports/${reportId}/versions` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportVersionSummary[];
}

const runBackfill = () => t.deps.database.executeSql(backfill);

describe("archive copies of versions signed before 0027 (migration 0029)", () => {
  it("shows an audited copy in the history, once, and takes no other clinic's file", async () => {
    const audited = await signedBefore0027(admin);
    const lost = await signedBefore0027(null);
    const foreign = await signedBefore0027(other);
    expect((await versions(audited.reportId)).at(-1)!.archive).toBeNull();

    await runBackfill();
    await runBackfill();

    const archive = (await versions(audited.reportId)).at(-1)!.archive;
    expect(archive).toMatchObject({ status: "archived", fileId: audited.fileId, sha256: audited.sha256 });
    expect(archive!.archivedAt).not.toBeNull();
    const rows = await t.deps.database.db
      .select()
      .from(reportArchives)
      .where(and(eq(reportArchives.reportId, audited.reportId), eq(reportArchives.versionNumber, audited.version)));
    expect(rows).toHaveLength(1);
    // No copy was ever made, or the audited file is another clinic's: nothing to show.
    expect((await versions(lost.reportId)).at(-1)!.archive).toBeNull();
    expect((await versions(foreign.reportId)).at(-1)!.archive).toBeNull();
  });
});
