import { type PatientSex, patientSexes, type Report, type ReportSnapshot } from "../../../domain/contracts/reports";
import { type CriticalState, noCriticalState } from "./report-critical";
import type { ReportRow, ReportWithPeople } from "./reports.repository";

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const sexOf = (value: string | null): PatientSex | null =>
  patientSexes.includes(value as PatientSex) ? (value as PatientSex) : null;

/** The response shape: whitelisted fields, ISO timestamps, the physician and the signers' names. */
export function toReportDto(row: ReportWithPeople, critical: CriticalState = noCriticalState): Report {
  const r = row.report;
  return {
    id: r.id,
    worksheetId: r.worksheetId,
    digitalWorksheetId: r.digitalWorksheetId,
    patientName: r.patientName,
    patientDob: r.patientDob,
    examDate: r.examDate,
    mrn: r.mrn,
    patientSex: sexOf(r.patientSex),
    referringPhysician: r.referringPhysician,
    sonographerName: r.sonographerName,
    sonographerComments: r.sonographerComments,
    studyType: r.studyType,
    indication: r.indication,
    findings: r.findings,
    impression: r.impression,
    conclusions: Array.isArray(r.conclusions) ? r.conclusions : [],
    warnings: r.warnings ?? [],
    physicianId: r.physicianId,
    sonographerId: r.sonographerId,
    templateId: r.templateId,
    logoUrl: r.logoUrl,
    isDraft: r.isDraft,
    isFinalized: r.isFinalized,
    finalizedAt: iso(r.finalizedAt),
    finalizedBy: r.finalizedBy,
    finalizedByName: r.finalizedBy ? row.finalizedByName : null,
    finalizedOnBehalf: r.finalizedOnBehalf,
    isAmended: r.isAmended,
    amendedAt: iso(r.amendedAt),
    amendedBy: r.amendedBy,
    amendedByName: r.amendedBy ? row.amendedByName : null,
    amendmentReason: r.amendmentReason,
    amendmentCount: r.amendmentCount,
    generatedAt: r.generatedAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    physician:
      row.physicianName === null
        ? null
        : {
            name: row.physicianName,
            title: row.physicianTitle ?? "",
            specialty: row.physicianSpecialty ?? "",
            signatureUrl: row.physicianSignatureUrl,
          },
    ...critical,
  };
}

/** What a version stores: the report as it stood after the change (schemaVersion 1). */
export function snapshotOf(r: ReportRow, amendment: { number: number; reason: string } | null = null): ReportSnapshot {
  return {
    schemaVersion: 1,
    patientName: r.patientName,
    patientDob: r.patientDob,
    examDate: r.examDate,
    mrn: r.mrn,
    patientSex: r.patientSex,
    referringPhysician: r.referringPhysician,
    sonographerName: r.sonographerName,
    studyType: r.studyType,
    indication: r.indication,
    findings: r.findings,
    impression: r.impression,
    templateId: r.templateId,
    physicianId: r.physicianId,
    conclusions: Array.isArray(r.conclusions) ? r.conclusions : [],
    warnings: r.warnings ?? [],
    isFinalized: r.isFinalized,
    finalizedAt: iso(r.finalizedAt),
    finalizedBy: r.finalizedBy,
    finalizedOnBehalf: r.finalizedOnBehalf,
    amendmentNumber: amendment?.number ?? null,
    amendmentReason: amendment?.reason ?? null,
  };
}
