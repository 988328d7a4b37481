import { z } from "zod";
import { clinicalFindings, type TrainingPair } from "../../../domain/contracts/admin";
import { AppError } from "../../../domain/errors";
import { scanTypes } from "../../../domain/report-engine/vocabulary";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import type { SessionUser } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import type { MultipartForm } from "../../platform/uploads";
import { saveFile } from "../files/files.service";
import { extractReportText } from "./extract-report-text";
import { examplesOfScanType, insertTrainingPair, listTrainingPairs } from "./training.repository";

export const MISSING_TRAINING_INPUT = "Please upload both files and select category and complexity level";

const trainingFields = z.object({
  category: z.enum(scanTypes, { message: "Please select a scan type" }),
  complexityLevel: z.enum(clinicalFindings.map((f) => f.value) as ["normal", "abnormal", "complex"], {
    message: "Please select a clinical finding",
  }),
});

/** Stores a worksheet/report pair platform-wide (no clinic), with the report's text when it has one. */
export async function addTrainingPair(deps: AppDeps, admin: SessionUser, form: MultipartForm): Promise<TrainingPair> {
  const worksheet = form.files.get("worksheet");
  const report = form.files.get("report");
  if (!worksheet || !report || !form.fields.category || !form.fields.complexityLevel) {
    throw new AppError("BAD_REQUEST", MISSING_TRAINING_INPUT);
  }
  const parsed = trainingFields.safeParse(form.fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError("VALIDATION_FAILED", issue.message, String(issue.path[0]));
  }
  const reportText = await extractReportText(report.data, report.mimeType);
  const { db } = deps.database;
  const row = await db.transaction(async (tx) => {
    const common = { clinicId: null, createdBy: admin.id };
    const worksheetFile = await saveFile(tx, deps.fileStore, {
      ...common,
      kind: "training-worksheet",
      data: worksheet.data,
      mimeType: worksheet.mimeType,
      originalName: worksheet.filename,
    });
    const reportFile = await saveFile(tx, deps.fileStore, {
      ...common,
      kind: "training-report",
      data: report.data,
      mimeType: report.mimeType,
      originalName: report.filename,
    });
    const pair = await insertTrainingPair(tx, {
      worksheetUrl: worksheetFile.url,
      reportUrl: reportFile.url,
      worksheetFileId: worksheetFile.id,
      reportFileId: reportFile.id,
      category: parsed.data.category,
      complexityLevel: parsed.data.complexityLevel,
      reportText,
      uploadedBy: admin.id,
    });
    await recordAudit(tx, {
      action: "training.uploaded",
      actorUserId: admin.id,
      entityType: "training_pair",
      entityId: pair.id,
      details: { category: pair.category, hasText: reportText !== null },
    });
    return pair;
  });
  return toTrainingPair(row);
}

export async function trainingHistory(db: Queryable): Promise<TrainingPair[]> {
  return (await listTrainingPairs(db)).map(toTrainingPair);
}

/** Examples for the language model: report texts of the same scan type (see server/llm). */
export async function trainingExamples(db: Queryable, scanType: string, limit = 3) {
  const rows = await examplesOfScanType(db, scanType, limit);
  return rows.map((r) => ({ scanType: r.scanType, reportText: r.reportText ?? "" }));
}

function toTrainingPair(row: Awaited<ReturnType<typeof listTrainingPairs>>[number]): TrainingPair {
  return {
    id: row.id,
    uploadedAt: row.uploadedAt ? row.uploadedAt.toISOString() : null,
    category: row.category,
    complexityLevel: row.complexityLevel,
    reportTextLength: row.reportText?.length ?? 0,
  };
}
