import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReportVersionSummary } from "../../../domain/contracts/reports";
import { auditEvents, reportArchives, reports } from "../../db/schema";
import { manualJobQueue } from "../../test-support/manual-job-queue";
import { readyToSign } from "../../test-support/signing";
import { physicianWithSignature } from "../../test-support/signing-physician";
import { as, createTestApp, registerClinic, type SignedIn, type TestApp } from "../../test-support/test-app";
import { sampleReportText } from "./export-samples";
import { ARCHIVE_QUEUE } from "./report-archives";

/**
 * The PDF/A archive copy of a signed version is a job (issue 27, decision 026): the signature answers without
 * waiting for it, the job renders the document as it was signed (not as the report reads by then), and a failed
 * attempt is kept, shown and retried. This queue runs nothing by itself: the test runs the job when it chooses.
 */

const run = promisify(execFile);
const { jobQueue, sent, run: runJob } = manualJobQueue();
/** One "report-archives" job, as the queue runs it (after a signature, or the minute's). */
const runArchiveJob = () => runJob(ARCHIVE_QUEUE);

let t: TestApp;
let admin: SignedIn;
let physicianId: number;
let work: string;

beforeAll(async () => {
  t = await createTestApp({}, { jobQueue });
  admin = await registerClinic(t.app, "Archive Clinic");
  work = fs.mkdtempSync(path.join(os.tmpdir(), "archive-test-"));
  physicianId = (await physicianWithSignature(t, admin.clinicId)).id;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

async function signedReport(impression: string) {
  const [row] = await t.deps.database.db
    .insert(reports)
    .values({ clinicId: admin.clinicId, physicianId, ...sampleReportText, impression })
    .returning({ id: reports.id });
  await readyToSign(t, admin, row!.id);
  const signed = await as(t.app, admin)({ method: "POST", url: `/api/reports/${row!.id}/finalize`, payload: {} });
  expect(signed.statusCode, signed.body).toBe(200);
  return row!.id;
}

const versions = async (reportId: number) => {
  const res = await as(t.app, admin)({ url: `/api/reports/${reportId}/versions` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ReportVersionSummary[];
};
const signedVersion = async (reportId: number) => (await versions(reportId)).find((v) => v.kind === "finalized")!;

const archivedEvents = (reportId: number) =>
  t.deps.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, "report.archived"), eq(auditEvents.entityId, String(reportId))));

async function pdfText(pdf: Buffer, name: string) {
  const file = path.join(work, name);
  fs.writeFileSync(file, pdf);
  return (await run("pdftotext", [file, "-"])).stdout;
}

describe("archive copy as a job", () => {
  it("answers the signature before the archive exists; the job archives the document as signed", async () => {
    sent.length = 0;
    const reportId = await signedReport("Left ICA stenosis 70-99%, as signed.");
    // The signature is in; the copy is queued, not made.
    expect(sent).toContain(ARCHIVE_QUEUE);
    expect(await archivedEvents(reportId)).toHaveLength(0);
    const pending = await signedVersion(reportId);
    expect(pending.archive).toMatchObject({ status: "pending", fileId: null, attempts: 0, lastError: null });

    // The report is amended before the job runs: the archive is still the signed text, not the amendment.
    const amend = await as(
      t.app,
      admin,
    )({
      method: "POST",
      url: `/api/reports/${reportId}/amend`,
      payload: { reason: "Side corrected", impression: "Right ICA stenosis 50-69%, amended." },
    });
    expect(amend.statusCode, amend.body).toBe(200);

    await runArchiveJob();
    const done = (await signedVersion(reportId)).archive!;
    expect(done).toMatchObject({ status: "archived", attempts: 1, lastError: null, nextAttemptAt: null });
    const file = await as(t.app, admin)({ url: `/api/files/${done.fileId}` });
    expect(file.statusCode).toBe(200);
    expect(createHash("sha256").update(file.rawPayload).digest("hex")).toBe(done.sha256);
    const text = await pdfText(file.rawPayload, "signed.pdf");
    expect(text).toContain("Left ICA stenosis 70-99%, as signed.");
    expect(text).not.toContain("amended");
    expect(text).toContain("Electronically signed by");
    const [event] = await archivedEvents(reportId);
    expect(event!.details).toMatchObject({ version: pending.versionNumber, fileId: done.fileId, sha256: done.sha256 });
    expect(event!.actorUserId).toBe(admin.userId);

    // Done once: the next job finds nothing to do for it.
    await runArchiveJob();
    expect(await archivedEvents(reportId)).toHaveLength(1);
  });

  it("keeps a failed attempt visible with its error and retries it later, never twice at once", async () => {
    const reportId = await signedReport("Retried archive.");
    const put = vi.spyOn(t.deps.fileStore, "put").mockRejectedValueOnce(new Error("object storage unavailable"));
    await runArchiveJob();
    put.mockRestore();
    const failed = (await signedVersion(reportId)).archive!;
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lastError: "object storage unavailable" });
    expect(Date.parse(failed.nextAttemptAt!)).toBeGreaterThan(Date.now());
    expect(await archivedEvents(reportId)).toHaveLength(0);

    // Not due yet: the next job leaves it.
    await runArchiveJob();
    expect((await signedVersion(reportId)).archive!.attempts).toBe(1);

    // Once due, the retry archives it.
    await t.deps.database.db
      .update(reportArchives)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(reportArchives.reportId, reportId));
    // Two jobs at once (two workers): one takes the row, the other finds nothing due.
    await Promise.all([runArchiveJob(), runArchiveJob()]);
    const retried = (await signedVersion(reportId)).archive!;
    expect(retried).toMatchObject({ status: "archived", attempts: 2, lastError: null });
    expect(await archivedEvents(reportId)).toHaveLength(1);
    expect(
      await pdfText((await as(t.app, admin)({ url: `/api/files/${retried.fileId}` })).rawPayload, "r.pdf"),
    ).toContain("Retried archive.");
  });
});
