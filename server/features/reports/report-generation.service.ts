import type { z } from "zod";
import { ocrResultSchema } from "../../../domain/contracts/ocr";
import type { GenerateReportRequest, Report } from "../../../domain/contracts/reports";
import {
  describeIssue,
  describeStudyItemIssue,
  type Measurement,
  measurementSchema,
  type Observation,
  observationSchema,
  type Study,
  studySchema,
} from "../../../domain/contracts/study";
import { AppError, notFound } from "../../../domain/errors";
import { criteriaSetIds } from "../../../domain/report-engine/criteria-sets";
import { type CriteriaSetId, generateDraft } from "../../../domain/report-engine/generate-draft";
import { type ScanType, scanTypes } from "../../../domain/report-engine/vocabulary";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { refineDraftWithLlm } from "../../llm/refine-draft";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import { activeLegendMatches } from "../templates/legend.service";
import { trainingExamples } from "../training/training.service";
import { legendNotes } from "./legend-match";
import { observationsFromOcr } from "./observations-from-ocr";
import { findPriorReport, priorStudyOf } from "./prior-report.service";
import { criticalStateOf } from "./report-critical";
import { snapshotOf, toReportDto } from "./report-dto";
import { noHeader, type ReportHeader, reportHeader } from "./report-header";
import { resolveSonographer } from "./report-sonographer";
import {
  findDraftSettings,
  findPhysicianShown,
  findTemplateId,
  findWorksheet,
  insertReport,
  insertVersion,
  type PhysicianShown,
} from "./reports.repository";

const MAX_EXAMPLES = 3;

export type NewReportFromStudy = {
  study: Study;
  patient: { patientName: string; patientDob: string | null; examDate: string | null };
  /** The worksheet's header fields; the indication also goes into the study. */
  header?: ReportHeader;
  worksheetId?: number | null;
  digitalWorksheetId?: number | null;
  physicianId?: number | null;
  /** The physician of physicianId when the caller has read it already (the draft answers its names). */
  physician?: PhysicianShown;
  sonographerId?: number | null;
  templateId?: number | null;
  logoUrl?: string | null;
  /** Text searched for legend keywords: the worksheet's OCR text, drawing notes. */
  keywordText?: string;
  /** Warnings found before the engine ran (for example OCR values that were left out). */
  warnings?: string[];
  llm: Config["llm"];
};

/** Only our own file routes may appear as the report's logo (the header renders it as an image). */
const safeLogoUrl = (url: string | null | undefined) => (url && /^\/api\/[\w\-/]+$/.test(url) ? url : null);

/**
 * Drafts a report from a study and stores it as a draft with version 1, in one transaction with its audit
 * event. Shared by generation from worksheets and by drafts from digital drawings.
 */
export async function createReportFromStudy(db: Db, ctx: Ctx, input: NewReportFromStudy): Promise<Report> {
  assertCan(ctx, "report:write");
  const { spelling, criteriaSet: clinicSet, criticalRulesOff } = await findDraftSettings(db, ctx.clinicId);
  const criteriaSetId = criteriaSetIds.find((id) => id === clinicSet) as CriteriaSetId | undefined;
  const header = input.header ?? noHeader;
  // The patient's prior finalized study of this scan type in this clinic, which the draft is compared with.
  const prior = await findPriorReport(db, ctx.clinicId, {
    patientName: input.patient.patientName,
    patientDob: input.patient.patientDob,
    mrn: header.mrn,
    studyType: input.study.scanType,
    examDate: input.patient.examDate,
  });
  const comparison =
    prior && input.patient.examDate ? { examDate: input.patient.examDate, prior: priorStudyOf(prior) } : undefined;
  const engineDraft = generateDraft(input.study, { criteriaSetId, spelling, comparison });
  // The clinic's active legend entries whose keywords occur in the worksheet text or drawing notes.
  const legend = await activeLegendMatches(db, ctx.clinicId, input.keywordText ?? "");
  const examples = await trainingExamples(db, input.study.scanType, MAX_EXAMPLES);
  // Time-outs and model errors come back as the engine's draft with a warning; they never fail generation.
  const draft = await refineDraftWithLlm(
    {
      study: input.study,
      draft: engineDraft,
      legend: legend.map((e) => ({ title: e.title, medicalMeaning: e.medicalMeaning })),
      examples,
    },
    input.llm,
  );
  const notes = legendNotes(legend);
  const templateId =
    input.templateId && (await findTemplateId(db, ctx.clinicId, input.templateId)) ? input.templateId : null;
  const sonographer = await resolveSonographer(db, ctx.clinicId, input.sonographerId, header.sonographerName);
  const physician = await physicianShown(db, ctx, input);

  return db.transaction(async (tx) => {
    const row = await insertReport(tx, {
      clinicId: ctx.clinicId,
      worksheetId: input.worksheetId ?? null,
      digitalWorksheetId: input.digitalWorksheetId ?? null,
      patientName: input.patient.patientName,
      patientDob: input.patient.patientDob,
      examDate: input.patient.examDate,
      mrn: header.mrn,
      patientSex: header.patientSex,
      referringPhysician: header.referringPhysician,
      sonographerName: sonographer.sonographerName,
      sonographerComments: header.sonographerComments,
      studyType: draft.studyType,
      // The sheet's own words (or the clinician's correction): the language model may not rephrase them.
      indication: input.study.indication?.trim() || draft.indication,
      findings: notes ? `${draft.findings}\n\n${notes}` : draft.findings,
      impression: draft.impression,
      conclusions: draft.conclusions,
      // Every rule's flags are stored; the clinic's rules that are off are left out when read.
      criticalResults: engineDraft.criticalResults,
      comparedPriorId: comparison ? prior?.id : null,
      warnings: [...(input.warnings ?? []), ...draft.warnings],
      measurements: input.study.measurements,
      physicianId: input.physicianId ?? null,
      sonographerId: sonographer.sonographerId,
      templateId,
      logoUrl: safeLogoUrl(input.logoUrl),
      isDraft: true,
      createdBy: ctx.user.id,
    });
    await insertVersion(tx, {
      clinicId: ctx.clinicId,
      reportId: row.id,
      versionNumber: 1,
      kind: "generated",
      snapshot: snapshotOf(row),
      createdBy: ctx.user.id,
    });
    await recordAudit(tx, {
      action: "report.generated",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      ip: ctx.ip,
      requestId: ctx.requestId,
      entityType: "report",
      entityId: row.id,
      details: {
        worksheetId: row.worksheetId,
        digitalWorksheetId: row.digitalWorksheetId,
        scanType: draft.studyType,
        criteriaSetId: criteriaSetId ?? "default",
        legendEntries: legend.length,
        priorReportId: prior?.id ?? null,
        warnings: row.warnings.length,
      },
    });
    // The stored row as RETURNING gave it: a new draft has no signer and no communication records yet, so
    // reading it again (report, people, critical state) would be two round trips for what is known here.
    const shown = { report: row, ...noPhysician, ...physician, finalizedByName: null, amendedByName: null };
    return toReportDto(shown, criticalStateOf(row, criticalRulesOff, []));
  });
}

const noPhysician = {
  physicianName: null,
  physicianTitle: null,
  physicianSpecialty: null,
  physicianSignatureUrl: null,
};

/** The draft's physician as the report shows it: the caller's when it read it, else read here (in the clinic). */
async function physicianShown(db: Db, ctx: Ctx, input: NewReportFromStudy) {
  if (input.physicianId == null) return noPhysician;
  if (input.physician?.id === input.physicianId) return input.physician;
  return (await findPhysicianShown(db, ctx.clinicId, input.physicianId)) ?? noPhysician;
}

/** Client input is checked strictly: a bad measurement is a 400 saying which one, with `field` naming it. */
function parseClientList<T>(items: unknown[], schema: z.ZodType<T>, field: "measurements" | "observations"): T[] {
  return items.map((item, i) => {
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = describeIssue({ ...issue, path: [field, i, ...issue.path] }).split(":")[0];
      throw new AppError("BAD_REQUEST", describeStudyItemIssue(issue, field, i, item), path);
    }
    return parsed.data;
  });
}

const isScanType = (value: unknown): value is ScanType => scanTypes.includes(value as ScanType);

/** POST /api/reports/generate: from the clinician's checked measurements, else the worksheet's OCR result. */
export async function generateReport(
  db: Db,
  ctx: Ctx,
  body: GenerateReportRequest,
  llm: Config["llm"],
): Promise<Report> {
  assertCan(ctx, "report:write");
  if (!body.worksheetId) throw new AppError("BAD_REQUEST", "Please upload a worksheet first", "worksheetId");
  if (!body.physicianId) throw new AppError("BAD_REQUEST", "Please select a reporting physician", "physicianId");
  const worksheet = await findWorksheet(db, ctx.clinicId, body.worksheetId);
  if (!worksheet) throw notFound("Worksheet");
  const physician = await findPhysicianShown(db, ctx.clinicId, Number(body.physicianId));
  if (!physician) throw notFound("Physician");

  const ocr = ocrResultSchema.safeParse(worksheet.ocrResult);
  const ocrResult = ocr.success ? ocr.data : null;
  const scanType = [body.scanType, worksheet.scanType, ocrResult?.scanType].find(isScanType);
  if (!scanType) throw new AppError("BAD_REQUEST", "Please select the scan type", "scanType");

  const warnings: string[] = [];
  let measurements: Measurement[];
  if (body.measurements) {
    measurements = parseClientList(body.measurements, measurementSchema, "measurements");
  } else {
    // OCR output may hold codes outside the engine's vocabulary: those are left out, and the draft says so.
    const read = ocrResult?.measurements ?? [];
    measurements = read.flatMap((m) => {
      const parsed = measurementSchema.safeParse({
        site: m.site,
        side: m.side,
        parameter: m.parameter,
        value: m.value,
        unit: m.unit,
      });
      return parsed.success ? [parsed.data] : [];
    });
    if (measurements.length < read.length) {
      warnings.push(
        `${read.length - measurements.length} value(s) read from the worksheet were not recognised and were left out; check them against the worksheet.`,
      );
    }
  }
  // Without the clinician's list, what the sheet's check boxes say (a plaque's character), as for measurements.
  const observations: Observation[] = body.observations
    ? parseClientList(body.observations, observationSchema, "observations")
    : observationsFromOcr(ocrResult);
  const header = reportHeader(body.patient, ocrResult);
  const sex = header.patientSex === "other" ? null : header.patientSex;
  const study = studySchema.safeParse({ scanType, measurements, observations, indication: header.indication, sex });
  if (!study.success) {
    const issue = study.error.issues[0]!;
    throw new AppError("BAD_REQUEST", issue.message, issue.path.join("."));
  }

  const patient = body.patient;
  return createReportFromStudy(db, ctx, {
    study: study.data,
    patient: {
      patientName: (patient?.patientName ?? worksheet.patientName ?? "").trim(),
      patientDob: (patient ? patient.patientDob : worksheet.patientDob) || null,
      examDate: (patient ? patient.examDate : worksheet.examDate) || null,
    },
    header,
    worksheetId: worksheet.id,
    physicianId: Number(body.physicianId),
    physician,
    templateId: body.templateId ?? null,
    logoUrl: body.logoUrl ?? null,
    keywordText: ocrResult?.text ?? "",
    warnings,
    llm,
  });
}
