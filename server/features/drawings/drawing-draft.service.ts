import type { Report } from "../../../domain/contracts/reports";
import { type Measurement, measurementSchema } from "../../../domain/contracts/study";
import { restoreDrawing, typedText } from "../../../domain/drawing/drawing-document";
import { parseTypedMeasurements } from "../../../domain/drawing/typed-measurements";
import { AppError } from "../../../domain/errors";
import { type ScanType, scanTypes } from "../../../domain/report-engine/vocabulary";
import { loadWorksheetPages, recognizeWorksheet } from "../../ocr/ocr-service";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { createReportFromStudy } from "../reports/report-generation.service";
import { getReport } from "../reports/reports.service";
import { reportOfDrawing, updateDraftDigitalWorksheet } from "./drawings.repository";
import { decodeImageDataUrl, getDrawingSession } from "./drawings.service";

/** OCR values of a drawing enter the draft only when the recogniser is this sure; the clinician checks them. */
const OCR_MIN_CONFIDENCE = 0.9;

const key = (m: { site: string; side?: string | null; parameter: string }) =>
  `${m.site}|${m.side ?? ""}|${m.parameter}`;

/**
 * Turns a drawing session into a draft report with the same engine as uploads: typed text is read from
 * the vectors (exact), the flattened image through OCR (checked), and legend keywords from both.
 * Idempotent: a second call returns the report already made from this drawing.
 */
export async function createDraftFromDrawing(deps: AppDeps, ctx: Ctx, id: number): Promise<Report> {
  assertCan(ctx, "drawing:write");
  const { db } = deps.database;
  const session = await getDrawingSession(db, ctx, id);
  const existing = await reportOfDrawing(db, ctx.clinicId, id);
  if (existing) return getReport(db, ctx, existing.id);
  if (!session.drawingData)
    throw new AppError("BAD_REQUEST", "The drawing is empty: draw or type on the worksheet first");

  const typed = typedText(restoreDrawing(session.vectorData));
  const typedMeasurements = parseTypedMeasurements(typed);
  const ocr = await recognizeWorksheet(
    await loadWorksheetPages((await decodeImageDataUrl(session.drawingData)).data),
  ).catch(() => null);
  const warnings: string[] = [];
  if (!ocr) warnings.push("The drawing could not be read by OCR; only typed text was used");

  const seen = new Set(typedMeasurements.map(key));
  const ocrMeasurements = (ocr?.measurements ?? []).filter(
    (m) => m.confidence >= OCR_MIN_CONFIDENCE && !seen.has(key(m)),
  );
  if (ocrMeasurements.length > 0) {
    warnings.push(`${ocrMeasurements.length} values were read by OCR from the drawing: check them against the drawing`);
  }
  // Only values the engine's vocabulary knows go in; the rest stay visible on the drawing for the clinician.
  const measurements: Measurement[] = [...typedMeasurements, ...ocrMeasurements].flatMap((m) => {
    const parsed = measurementSchema.safeParse({ ...m, unit: m.unit || null });
    return parsed.success ? [parsed.data] : [];
  });

  const scanType = [session.studyType, ocr?.scanType].find((t): t is ScanType => scanTypes.includes(t as ScanType));
  if (!scanType) {
    throw new AppError(
      "BAD_REQUEST",
      "Set the study type of this drawing session to one of the scan types",
      "studyType",
    );
  }
  const report = await createReportFromStudy(db, ctx, {
    study: { scanType, indication: undefined, measurements, observations: [] },
    patient: { patientName: session.patientName, patientDob: session.patientDob, examDate: session.examDate },
    digitalWorksheetId: session.id,
    sonographerId: session.sonographerId,
    keywordText: [typed, session.annotations ?? "", ocr?.text ?? ""].join("\n"),
    warnings,
    llm: deps.config.llm,
  });
  await db.transaction(async (tx) => {
    await updateDraftDigitalWorksheet(tx, ctx.clinicId, id, { completedAt: new Date(), isDraft: false });
    await recordAudit(tx, {
      action: "drawing.draft_report_created",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "digital_worksheet",
      entityId: id,
      details: { reportId: report.id, typedValues: typedMeasurements.length, ocrValues: ocrMeasurements.length },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
  });
  return report;
}
