import { randomBytes, randomUUID } from "node:crypto";
import type { Bundle } from "@medplum/fhirtypes";
import { reportToFhirBundle } from "../../../domain/interop/fhir-report";
import { reportToOruR01 } from "../../../domain/interop/hl7-oru";
import type { InteropReport } from "../../../domain/interop/interop-report";
import { recordAuditAlone } from "../../platform/audit";
import type { Ctx } from "../../platform/context";
import { type ExportDeps, renderReportPdfWithRows } from "./exports.service";

/**
 * FHIR R4 and HL7 v2.5.1 forms of one report (issue 28). They read the same rows as the PDF
 * (docs/decisions/003-export-read-model.md) and carry the PDF itself, so what a receiving system files is what
 * the clinic prints.
 */

/** The report as the interop builders take it; another clinic's or a deleted report is a 404 (report:read first). */
export async function loadInteropReport(deps: ExportDeps, ctx: Ctx, reportId: number): Promise<InteropReport> {
  const { document, rows, pdf } = await renderReportPdfWithRows(deps, ctx, reportId);
  const { report, physician } = rows;
  return {
    clinic: { id: ctx.clinicId, name: rows.clinicName?.trim() || "Clinic" },
    report: {
      id: report.id,
      patientName: report.patientName,
      patientDob: report.patientDob,
      patientSex: report.patientSex,
      examDate: report.examDate,
      mrn: report.mrn,
      studyType: report.studyType,
      indication: report.indication,
      findings: report.findings,
      impression: report.impression,
      isFinalized: report.isFinalized,
      finalizedAt: report.finalizedAt,
      amendmentCount: report.amendmentCount,
      finalizedOnBehalf: report.finalizedOnBehalf,
      generatedAt: report.generatedAt,
      updatedAt: report.updatedAt,
    },
    physician: physician ? { id: physician.id, name: physician.name, title: physician.title } : null,
    signer:
      report.isFinalized && report.finalizedBy
        ? { id: report.finalizedBy, name: document.signedBy ?? "the signing clinician" }
        : null,
    measurements: report.measurements ?? null,
    pdf,
  };
}

/** MSH-10: 20 characters at most, unique per message. */
export const newControlId = () =>
  `SS${Date.now().toString(36).toUpperCase()}${randomBytes(4).toString("hex").toUpperCase()}`.slice(0, 20);

export function fhirBundleOf(input: InteropReport, type: "collection" | "transaction", now = new Date()): Bundle {
  return reportToFhirBundle(input, { type, uuid: randomUUID, now });
}

export function hl7MessageOf(input: InteropReport, now = new Date()): string {
  return reportToOruR01(input, { controlId: newControlId(), now });
}

async function auditExport(deps: ExportDeps, ctx: Ctx, reportId: number, format: "fhir" | "hl7") {
  await recordAuditAlone(deps.db, {
    action: "report.exported",
    clinicId: ctx.clinicId,
    actorUserId: ctx.user.id,
    entityType: "report",
    entityId: reportId,
    details: { format, templateId: null },
    ip: ctx.ip,
    requestId: ctx.requestId,
  });
}

/** GET /api/reports/{id}/fhir: a collection Bundle, audited as an export. */
export async function exportFhirBundle(deps: ExportDeps, ctx: Ctx, reportId: number): Promise<Bundle> {
  const bundle = fhirBundleOf(await loadInteropReport(deps, ctx, reportId), "collection");
  await auditExport(deps, ctx, reportId, "fhir");
  return bundle;
}

/** GET /api/reports/{id}/hl7: an ORU^R01 message, audited as an export. */
export async function exportHl7Message(deps: ExportDeps, ctx: Ctx, reportId: number): Promise<string> {
  const message = hl7MessageOf(await loadInteropReport(deps, ctx, reportId));
  await auditExport(deps, ctx, reportId, "hl7");
  return message;
}
