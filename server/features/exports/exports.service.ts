import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
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
import { reportVersions } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { fileIdFromUrl, readClinicFile, saveFile } from "../files/files.service";
import { reportCriticalState } from "../reports/report-critical";
import { prepareDocumentImage } from "./export-images";
import {
  findClinicTemplate,
  findDefaultTemplate,
  findExportClinic,
  findExportPhysician,
  findExportReport,
  findUserNames,
} from "./exports.repository";
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

async function clinicImage(deps: ExportDeps, clinicId: number, url: string | null | undefined) {
  const id = fileIdFromUrl(url);
  if (id === null) return null;
  const file = await readClinicFile(deps.db, deps.fileStore, clinicId, id);
  return file ? prepareDocumentImage(file.data, file.row.sha256) : null;
}

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
  return (await loadDocument(deps, ctx, reportId, templateId)).document;
}

type LoadedDocument = {
  document: ReportDocument;
  templateId: number | null;
  /** The rows read, for FHIR and HL7 (which carry fields the printed document does not show). */
  rows: {
    report: NonNullable<Awaited<ReturnType<typeof findExportReport>>>;
    physician: Awaited<ReturnType<typeof findExportPhysician>> | null;
    clinicName: string | null;
  };
};

async function loadDocument(
  deps: ExportDeps,
  ctx: Ctx,
  reportId: number,
  templateId: number | undefined,
): Promise<LoadedDocument> {
  assertCan(ctx, "report:read");
  const { db } = deps;
  const report = await findExportReport(db, ctx.clinicId, reportId);
  if (!report) throw notFound("Report");
  const [template, clinic, physician] = await Promise.all([
    chooseTemplate(db, ctx.clinicId, templateId, report.templateId),
    findExportClinic(db, ctx.clinicId),
    report.physicianId === null ? undefined : findExportPhysician(db, ctx.clinicId, report.physicianId),
  ]);
  const signerIds = [report.finalizedBy, report.amendedBy].filter((id): id is string => Boolean(id));
  const names = new Map((await findUserNames(db, ctx.clinicId, signerIds)).map((u) => [u.id, displayName(u)]));
  const settings = resolveTemplateSettings(template);
  // A logo stored on the report (one of ours) wins; otherwise the clinic's current logo.
  const logoUrl = fileIdFromUrl(report.logoUrl) !== null ? report.logoUrl : clinic?.logoUrl;
  const [logo = null, signature = null]: (DocumentImage | null)[] = await Promise.all([
    settings.showHeader && settings.showLogo ? clinicImage(deps, ctx.clinicId, logoUrl) : null,
    settings.showSignature && physician ? clinicImage(deps, ctx.clinicId, physician.signatureUrl) : null,
  ]);
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
  const loaded = await loadDocument(deps, ctx, reportId, undefined);
  const pdf = await renderPdf(buildDocumentView(loaded.document, { timeZone: deps.timeZone }));
  return { ...loaded, pdf };
}

/** Renders one export and records it in the audit trail (the only write an export makes). */
export async function exportReport(deps: ExportDeps, ctx: Ctx, request: ExportRequest): Promise<ExportResult> {
  const { document, templateId } = await loadDocument(deps, ctx, request.reportId, request.templateId);
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
  await deps.db.transaction((tx) =>
    recordAudit(tx, {
      action: "report.exported",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "report",
      entityId: report.id,
      // Never the patient's name or the file name (it carries the name): format and template only.
      details: { format: request.format, templateId, ...(request.pdfa ? { pdfa: "PDF/A-2b" } : {}) },
      ip: ctx.ip,
      requestId: ctx.requestId,
    }),
  );
  return result;
}

/**
 * The archive copy of a signed version (issue 28): the report as PDF/A-2b, stored encrypted as a clinic file, with
 * its SHA-256 and the version number in the audit trail (`report.archived`). A draft is not archived (null).
 */
export async function archiveSignedVersion(deps: ExportDeps, ctx: Ctx, reportId: number) {
  const { document } = await loadDocument(deps, ctx, reportId, undefined);
  if (!document.report.isFinalized) return null;
  const pdf = await renderPdf(buildDocumentView(document, { timeZone: deps.timeZone }), { pdfa: true });
  const sha256 = createHash("sha256").update(pdf).digest("hex");
  const [latest] = await deps.db
    .select({ versionNumber: reportVersions.versionNumber })
    .from(reportVersions)
    .where(and(eq(reportVersions.clinicId, ctx.clinicId), eq(reportVersions.reportId, reportId)))
    .orderBy(desc(reportVersions.versionNumber))
    .limit(1);
  const version = latest?.versionNumber ?? null;
  return deps.db.transaction(async (tx) => {
    const file = await saveFile(tx, deps.fileStore, {
      clinicId: ctx.clinicId,
      kind: "report_archive",
      data: pdf,
      mimeType: "application/pdf",
      originalName: `report-${reportId}-v${version ?? 0}.pdf`,
      createdBy: ctx.user.id,
    });
    await recordAudit(tx, {
      action: "report.archived",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "report",
      entityId: reportId,
      details: { version, fileId: file.id, sha256, byteSize: pdf.length, format: "PDF/A-2b" },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return { fileId: file.id, url: file.url, sha256, version };
  });
}
