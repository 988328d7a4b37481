import { clinicLocaleOf } from "../../../domain/date-format";
import { notFound } from "../../../domain/errors";
import { docxFileNameFromList, pdfFileName } from "../../../domain/exports/file-names";
import {
  buildDocumentView,
  type DocumentImage,
  type DocumentView,
  type ReportDocument,
} from "../../../domain/exports/report-document";
import { resolveTemplateSettings } from "../../../domain/exports/template-settings";
import type { Db, Queryable } from "../../db/client";
import { recordAuditAlone } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { fileIdFromUrl, findClinicFileRows, readFileBytes } from "../files/files.service";
import { reportCriticalState } from "../reports/report-critical";
import { cachedDocumentImage, prepareDocumentImage } from "./export-images";
import { findClinicTemplate, findDefaultTemplate, findExportReport, findUserNames } from "./exports.repository";
import type { PdfOptions } from "./render-pdf";
import { renderPool } from "./render-pool";
import { renderPrintHtml } from "./render-print-html";

export type ExportFormat = "html" | "pdf" | "docx";

/**
 * PDF and DOCX are rendered by the render pool's worker threads (decision 025): pdfkit and docx load there on the
 * first export, never in the web thread nor at server start (20-35 MB of idle memory, issue 30).
 */
const renderPdf = (view: DocumentView, pdf?: PdfOptions) => renderPool().render({ format: "pdf", view, pdf });
const renderDocx = (view: DocumentView) => renderPool().render({ format: "docx", view });

export type ExportDeps = { db: Db; fileStore: FileStore; timeZone?: string };

export type ExportRequest = {
  reportId: number;
  format: ExportFormat;
  /** The PDF as PDF/A-2b (archival: fonts embedded, XMP metadata, sRGB output intent). */
  pdfa?: boolean;
  /** A template chosen by the client; unknown or another clinic's is a 404. */
  templateId?: number;
  /** A download name already checked against the safe shape; null gives the list rule's name. */
  fileName?: string | null;
};

export type ExportResult = { contentType: string; body: string | Buffer; fileName: string | null };

const displayName = (user: { firstName: string | null; lastName: string | null; email: string }) =>
  [user.firstName, user.lastName].filter(Boolean).join(" ").trim() || user.email;

type FileRow = Awaited<ReturnType<typeof findClinicFileRows>>[number];

/** How a document gets its logo and signature from their file rows: the bytes to draw now, or a reference. */
export type ImageLoader = (row: FileRow) => Promise<DocumentImage | null>;

/**
 * The clinic's image ready to draw. The prepared image is looked up by the file's SHA-256 before the bytes are
 * read: the same logo and signature are on every report of a clinic, and reading them means a trip to the file
 * store (S3) and a decryption.
 */
const clinicImage =
  (store: FileStore): ImageLoader =>
  async (row) => {
    const cached = cachedDocumentImage(row.sha256);
    return cached !== undefined ? cached : prepareDocumentImage(await readFileBytes(store, row), row.sha256);
  };

/** Template order: the one asked for, then the report's own, then the clinic's default, then the spec's fallbacks. */
async function chooseTemplate(db: Queryable, clinicId: number, asked: number | undefined, own: number | null) {
  if (asked !== undefined) {
    const template = await findClinicTemplate(db, clinicId, asked);
    if (!template) throw notFound("Template");
    return template;
  }
  // The report's template may since have been deleted: that falls through rather than failing the export.
  const ownTemplate = own === null ? undefined : await findClinicTemplate(db, clinicId, own);
  return ownTemplate ?? (await findDefaultTemplate(db, clinicId)) ?? null;
}

/** Reads one report as a document of its clinic; another clinic's or a deleted report is a 404. */
export async function loadReportDocument(
  deps: ExportDeps,
  ctx: Ctx,
  reportId: number,
  templateId?: number,
): Promise<ReportDocument> {
  return (await loadDocument(deps.db, clinicImage(deps.fileStore), ctx, reportId, templateId)).document;
}

type ExportRows = NonNullable<Awaited<ReturnType<typeof findExportReport>>>;

type LoadedDocument = {
  document: ReportDocument;
  templateId: number | null;
  /** The rows read, for FHIR and HL7 (which carry fields the printed document does not show). */
  rows: {
    report: ExportRows["report"];
    physician: ExportRows["physician"];
    clinicName: string | null;
  };
};

type Reads<T extends unknown[]> = { [K in keyof T]: () => Promise<T[K]> };

/** Side by side on the pool; one after another in a transaction (one connection: pg@9 refuses overlapping queries). */
async function readAll<T extends unknown[]>(oneByOne: boolean, ...reads: Reads<T>): Promise<T> {
  if (!oneByOne) return (await Promise.all(reads.map((read) => read()))) as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}

/** Reads the document in `db` (`inTransaction`: a transaction's connection); its images as `images` gives them. */
export async function loadDocument(
  db: Queryable,
  images: ImageLoader,
  ctx: Ctx,
  reportId: number,
  templateId: number | undefined,
  inTransaction = false,
): Promise<LoadedDocument> {
  assertCan(ctx, "report:read");
  const found = await findExportReport(db, ctx.clinicId, reportId);
  if (!found) throw notFound("Report");
  const { report, clinic, physician } = found;
  const signerIds = [report.finalizedBy, report.amendedBy].filter((id): id is string => Boolean(id));
  // A logo stored on the report (one of ours) wins; otherwise the clinic's current logo.
  const logoId = fileIdFromUrl(report.logoUrl) ?? fileIdFromUrl(clinic.logoUrl);
  const signatureId = physician ? fileIdFromUrl(physician.signatureUrl) : null;
  const [template, signers, files] = await readAll(
    inTransaction,
    () => chooseTemplate(db, ctx.clinicId, templateId, report.templateId),
    () => findUserNames(db, ctx.clinicId, signerIds),
    // Both file rows in one query, whether the template shows them or not (a row is small; a query is a round trip).
    () =>
      findClinicFileRows(
        db,
        ctx.clinicId,
        [logoId, signatureId].filter((id): id is number => id !== null),
      ),
  );
  const names = new Map(signers.map((u) => [u.id, displayName(u)]));
  const settings = resolveTemplateSettings(template);
  const imageOf = async (shown: boolean, id: number | null) => {
    const row = shown && id !== null ? files.find((file) => file.id === id) : undefined;
    return row ? images(row) : null;
  };
  const [logo, signature] = await readAll<[DocumentImage | null, DocumentImage | null]>(
    inTransaction,
    () => imageOf(settings.showHeader && settings.showLogo, logoId),
    () => imageOf(settings.showSignature, signatureId),
  );
  const document: ReportDocument = {
    report,
    template: settings,
    clinic: {
      name: clinic?.name ?? null,
      address: clinic?.address ?? null,
      city: clinic?.city,
      state: clinic?.state,
      zipCode: clinic?.zipCode,
      phone: clinic?.phone ?? null,
      logo,
      locale: clinicLocaleOf(clinic?.reportSpelling),
    },
    physician: physician
      ? { name: physician.name, title: physician.title, specialty: physician.specialty, signature }
      : null,
    signedBy: report.finalizedBy ? (names.get(report.finalizedBy) ?? null) : null,
    amendedBy: report.amendedBy ? (names.get(report.amendedBy) ?? null) : null,
    patientId: report.mrn,
    critical: await reportCriticalState(db, ctx.clinicId, report).then((state) => ({
      results: state.criticalResults,
      communications: state.criticalCommunications,
    })),
  };
  return {
    document,
    templateId: template?.id ?? null,
    rows: { report, physician: physician ?? null, clinicName: clinic?.name ?? null },
  };
}

/**
 * The report's PDF as its template lays it out, with the rows it came from: what FHIR and HL7 messages carry.
 * Records no audit event: the caller records its own (an export, or a delivery).
 */
export async function renderReportPdfWithRows(deps: ExportDeps, ctx: Ctx, reportId: number) {
  const loaded = await loadDocument(deps.db, clinicImage(deps.fileStore), ctx, reportId, undefined);
  const pdf = await renderPdf(buildDocumentView(loaded.document, { timeZone: deps.timeZone }));
  return { ...loaded, pdf };
}

/** Renders one export and records it in the audit trail (the only write an export makes). */
export async function exportReport(deps: ExportDeps, ctx: Ctx, request: ExportRequest): Promise<ExportResult> {
  const { document, templateId } = await loadDocument(
    deps.db,
    clinicImage(deps.fileStore),
    ctx,
    request.reportId,
    request.templateId,
  );
  const view = buildDocumentView(document, { timeZone: deps.timeZone });
  const { report } = document;
  let result: ExportResult;
  if (request.format === "html") {
    result = { contentType: "text/html; charset=utf-8", body: renderPrintHtml(view), fileName: null };
  } else if (request.format === "pdf") {
    result = {
      contentType: "application/pdf",
      body: await renderPdf(view, { pdfa: request.pdfa }),
      fileName: request.fileName ?? pdfFileName(report.patientName, report.id),
    };
  } else {
    result = {
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      body: await renderDocx(view),
      fileName: request.fileName ?? docxFileNameFromList(report.patientName, report.id),
    };
  }
  await recordAuditAlone(deps.db, {
    action: "report.exported",
    clinicId: ctx.clinicId,
    actorUserId: ctx.user.id,
    entityType: "report",
    entityId: report.id,
    // Never the patient's name or the file name (it carries the name): format and template only.
    details: { format: request.format, templateId, ...(request.pdfa ? { pdfa: "PDF/A-2b" } : {}) },
    ip: ctx.ip,
    requestId: ctx.requestId,
  });
  return result;
}
