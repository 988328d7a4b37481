import { createHash } from "node:crypto";
import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { VersionArchive } from "../../../domain/contracts/reports";
import { buildDocumentView, type DocumentImage, type DocumentView } from "../../../domain/exports/report-document";
import type { Db, Queryable } from "../../db/client";
import { reportArchives } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import type { Ctx } from "../../platform/context";
import type { JobQueue } from "../../platform/deps";
import type { FileStore } from "../../platform/file-store";
import { retryDelayMs } from "../../platform/retry-delay";
import { findClinicFileRow, readFileBytes, saveFile } from "../files/files.service";
import { prepareDocumentImage } from "./export-images";
import { type ImageLoader, loadDocument } from "./exports.service";
import { renderPool } from "./render-pool";

/**
 * The PDF/A archive copy of every signed version as a job (issue 27, decision 026). The signing transaction stores
 * the document as signed (its view, images named by file id and SHA-256) in a `report_archives` row; the
 * "report-archives" job renders that view as PDF/A-2b, stores it encrypted as a clinic file and audits
 * `report.archived`, in one transaction with the row's new state. The signature does not wait for it. A failed
 * attempt keeps the row pending with its error and a later next attempt (doubling, at most an hour), for ever:
 * the copy is never given up on, and its state is in the report's version history.
 */

export const ARCHIVE_QUEUE = "report-archives";

/** Dates in the archive are written in the server's zone, as the exports write them. */
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The first retry a minute after a failure, then doubling (at most an hour). */
const RETRY_BASE_MS = 60_000;
/** An attempt's claim: past this another worker may take the row (the first one died). */
const CLAIM_MS = 180_000;
/** A job starts no new archive after this, well inside the queue's expiry; the next minute's job goes on. */
const RUN_BUDGET_MS = 120_000;

/** A signed document's image as a reference to its stored file: the archive draws exactly these bytes. */
const imageReference: ImageLoader = async (row) => ({ mimeType: row.mimeType, fileId: row.id, sha256: row.sha256 });

/**
 * In the signing transaction, after the signed version is stored: the document as signed, kept for the archive
 * job. Signature and archive row commit together, so no signed version is left without its copy on its way.
 */
export async function queueSignedArchive(tx: Queryable, ctx: Ctx, reportId: number, versionNumber: number) {
  const { document } = await loadDocument(tx, imageReference, ctx, reportId, undefined, true);
  const view = buildDocumentView(document, { timeZone });
  await tx
    .insert(reportArchives)
    .values({ clinicId: ctx.clinicId, reportId, versionNumber, view, signedBy: ctx.user.id });
}

/** After the signature committed: the job now rather than at the next minute's (which finds the row anyway). */
export async function sendArchiveJob(jobs: Pick<JobQueue, "send">, logger: Pick<Logger, "warn">) {
  try {
    await jobs.send(ARCHIVE_QUEUE, {});
  } catch (error) {
    logger.warn({ err: error }, "archive: could not queue the job; the next minute's job makes the copy");
  }
}

/** The archive state of each signed version of a report, by version number. */
export async function archiveStates(db: Queryable, clinicId: number, reportId: number) {
  const rows = await db
    .select()
    .from(reportArchives)
    .where(and(eq(reportArchives.clinicId, clinicId), eq(reportArchives.reportId, reportId)));
  return new Map(
    rows.map((r): [number, VersionArchive] => [
      r.versionNumber,
      {
        status: r.status === "archived" ? "archived" : "pending",
        fileId: r.fileId,
        sha256: r.sha256,
        attempts: r.attempts,
        lastError: r.lastError,
        nextAttemptAt: r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
        archivedAt: r.archivedAt?.toISOString() ?? null,
      },
    ]),
  );
}

export type ArchiveDeps = { db: Db; fileStore: FileStore; logger: Pick<Logger, "info" | "warn" | "error"> };

type Claimed = typeof reportArchives.$inferSelect;

/** Takes one due row (SKIP LOCKED: workers share the rows), counting the attempt and holding it for a while. */
async function claimOne(db: Db, now: Date): Promise<Claimed | null> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: reportArchives.id })
      .from(reportArchives)
      .where(
        and(
          eq(reportArchives.status, "pending"),
          lte(reportArchives.nextAttemptAt, now),
          or(isNull(reportArchives.lockedUntil), lt(reportArchives.lockedUntil, now)),
        ),
      )
      .orderBy(asc(reportArchives.nextAttemptAt), asc(reportArchives.id))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!due) return null;
    const [row] = await tx
      .update(reportArchives)
      .set({
        lockedUntil: new Date(now.getTime() + CLAIM_MS),
        attempts: sql`${reportArchives.attempts} + 1`,
        updatedAt: now,
      })
      .where(eq(reportArchives.id, due.id))
      .returning();
    return row ?? null;
  });
}

/** The view's referenced images as bytes, each checked against the SHA-256 it had when signed. */
async function withImages(deps: ArchiveDeps, clinicId: number, view: DocumentView): Promise<DocumentView> {
  const resolve = async (image: DocumentImage | null | undefined) => {
    if (!image?.fileId) return image ?? null;
    const row = await findClinicFileRow(deps.db, clinicId, image.fileId);
    if (!row || row.sha256 !== image.sha256) {
      throw new Error(`the signed document's image (file ${image.fileId}) is no longer the one signed`);
    }
    const prepared = await prepareDocumentImage(await readFileBytes(deps.fileStore, row), row.sha256);
    if (!prepared) throw new Error(`the signed document's image (file ${image.fileId}) cannot be decoded`);
    return prepared;
  };
  return {
    ...view,
    letterhead: view.letterhead && { ...view.letterhead, logo: await resolve(view.letterhead.logo) },
    signature: view.signature && { ...view.signature, image: await resolve(view.signature.image) },
  };
}

/** Renders and stores one claimed archive; the row changes only while this attempt's claim is still its own. */
async function archiveOne(deps: ArchiveDeps, row: Claimed): Promise<void> {
  const view = await withImages(deps, row.clinicId, row.view as DocumentView);
  const pdf = await renderPool().render({ format: "pdf", view, pdf: { pdfa: true } });
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  await deps.db.transaction(async (tx) => {
    const file = await saveFile(tx, deps.fileStore, {
      clinicId: row.clinicId,
      kind: "report_archive",
      data: pdf,
      mimeType: "application/pdf",
      originalName: `report-${row.reportId}-v${row.versionNumber}.pdf`,
      createdBy: row.signedBy ?? undefined,
    });
    const updated = await tx
      .update(reportArchives)
      .set({
        status: "archived",
        view: null,
        fileId: file.id,
        sha256,
        byteSize: pdf.length,
        archivedAt: new Date(),
        lockedUntil: null,
        lastError: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(reportArchives.id, row.id),
          eq(reportArchives.status, "pending"),
          eq(reportArchives.attempts, row.attempts),
        ),
      )
      .returning({ id: reportArchives.id });
    // Another worker took the row after this claim ran out: its attempt is the one that counts.
    if (updated.length === 0) throw new Error("the archive was taken over by another attempt");
    await recordAudit(tx, {
      action: "report.archived",
      clinicId: row.clinicId,
      actorUserId: row.signedBy,
      entityType: "report",
      entityId: row.reportId,
      details: {
        version: row.versionNumber,
        fileId: file.id,
        sha256,
        byteSize: pdf.length,
        format: "PDF/A-2b",
        attempts: row.attempts,
      },
    });
  });
}

async function recordFailure(deps: ArchiveDeps, row: Claimed, error: unknown, now: Date): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  deps.logger.error({ err: error, reportId: row.reportId, version: row.versionNumber }, "archive attempt failed");
  await deps.db
    .update(reportArchives)
    .set({
      lastError: message.slice(0, 1000),
      nextAttemptAt: new Date(now.getTime() + retryDelayMs(RETRY_BASE_MS, row.attempts)),
      lockedUntil: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(reportArchives.id, row.id),
        eq(reportArchives.status, "pending"),
        eq(reportArchives.attempts, row.attempts),
      ),
    );
}

/**
 * What one "report-archives" job does: archives the due rows one by one until none is left or the budget is
 * spent. Answers how many it archived and how many attempts failed.
 */
export async function runDueArchives(
  deps: ArchiveDeps,
  now: () => Date = () => new Date(),
): Promise<{ archived: number; failed: number }> {
  const started = Date.now();
  let archived = 0;
  let failed = 0;
  while (Date.now() - started < RUN_BUDGET_MS) {
    const row = await claimOne(deps.db, now());
    if (!row) break;
    try {
      await archiveOne(deps, row);
      archived++;
    } catch (error) {
      failed++;
      await recordFailure(deps, row, error, now());
    }
  }
  return { archived, failed };
}
