import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import {
  DICOM_SR_FIELD,
  type OcrFailureBody,
  ocrFailureBody,
  ocrResponse,
  ocrView,
  ocrWaitQuery,
  SAME_PATIENT_FIELD,
  WORKSHEET_FIELD,
  worksheetDetail,
  worksheetRecord,
} from "../../../domain/contracts/worksheets";
import { AppError } from "../../../domain/errors";
import { assertCan, clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { DICOM_TYPE, readMultipart, WORKSHEET_UPLOAD_TYPES } from "../../platform/uploads";
import { getWorksheetOcr, type OcrJobDeps, requestWorksheetOcr, toOcrView, waitForOcr } from "./ocr-jobs";
import { addDicomSr, assertOwnWorksheet, NOT_DICOM_MESSAGE } from "./worksheet-sr.service";
import { getWorksheet, readWorksheetImage, uploadWorksheet, type WorksheetDeps } from "./worksheets.service";

/**
 * Worksheet intake: upload (checked by content, stored encrypted), its page image, and OCR. An ultrasound machine's
 * DICOM Structured Report is taken by the same upload instead of the sheet; its "OCR" reads the report's codes.
 */
export const worksheetsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const feature: WorksheetDeps = {
    db: deps.database.db,
    store: deps.fileStore,
    srCodes: deps.config.srParameterCodes,
  };
  const ocr: OcrJobDeps = { ...feature, jobs: deps.jobQueue };

  app.post(
    "/api/worksheets/upload",
    {
      schema: { response: { 201: worksheetRecord } },
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const ctx = clinicContext(request);
      // Refuse before reading 10 MB from someone who may not upload at all.
      assertCan(ctx, "worksheet:upload");
      const form = await readMultipart(request, {
        files: { [WORKSHEET_FIELD]: { types: WORKSHEET_UPLOAD_TYPES, required: true } },
        maxBytes: MAX_UPLOAD_BYTES,
      });
      const record = await uploadWorksheet(feature, ctx, form.files.get(WORKSHEET_FIELD)!);
      return reply.status(201).send(record);
    },
  );

  /**
   * The ultrasound machine's DICOM SR of the same study, beside the read worksheet (issue 28): its measurements
   * merge into the worksheet's reading, answered as { ocrResult } like OCR. A patient who differs between the two is
   * refused (409, field "samePatient") until the form says samePatient=yes.
   */
  app.post(
    "/api/worksheets/:id/dicom-sr",
    {
      schema: { params: idParam, response: { 200: ocrResponse } },
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async (request) => {
      const ctx = clinicContext(request);
      assertCan(ctx, "worksheet:upload");
      await assertOwnWorksheet(feature, ctx, request.params.id);
      const form = await readMultipart(request, {
        files: { [DICOM_SR_FIELD]: { types: [DICOM_TYPE], required: true } },
        maxBytes: MAX_UPLOAD_BYTES,
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "UNSUPPORTED_MEDIA_TYPE") {
          throw new AppError(error.code, NOT_DICOM_MESSAGE, DICOM_SR_FIELD);
        }
        throw error;
      });
      const samePatient = form.fields[SAME_PATIENT_FIELD] === "yes";
      const upload = form.files.get(DICOM_SR_FIELD)!;
      return { ocrResult: await addDicomSr(feature, ctx, request.params.id, upload, { samePatient }) };
    },
  );

  app.get("/api/worksheets/:id", { schema: { params: idParam, response: { 200: worksheetDetail } } }, (request) =>
    getWorksheet(feature, clinicContext(request), request.params.id),
  );

  app.get("/api/worksheets/:id/image", { schema: { params: idParam } }, async (request, reply) => {
    const image = await readWorksheetImage(feature, clinicContext(request), request.params.id);
    return sendPrivateFile(reply, image.data, image.mimeType);
  });

  /**
   * Queues the worksheet's OCR and waits for it up to OCR_REQUEST_WAIT_SECONDS: the spec's { ocrResult } (or its
   * 422) when the job ended in time, else 202 with where the job is, to follow with GET.
   */
  app.post(
    "/api/worksheets/:id/ocr",
    {
      schema: {
        params: idParam,
        querystring: ocrWaitQuery,
        response: { 200: ocrResponse, 202: ocrView, 422: ocrFailureBody },
      },
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const ctx = clinicContext(request);
      const jobId = await requestWorksheetOcr(ocr, ctx, request.params.id);
      // A client may ask for less waiting than the server's setting (a batch queued in the background: none).
      const waitMs = Math.min(deps.config.ocrRequestWaitMs, (request.query.wait ?? Number.POSITIVE_INFINITY) * 1000);
      const row = await waitForOcr(ocr, ctx.clinicId, request.params.id, jobId, waitMs);
      const view = toOcrView(row);
      if (row.ocrJobId === jobId && view.state === "completed" && view.ocrResult) {
        return reply.status(200).send({ ocrResult: view.ocrResult });
      }
      if (row.ocrJobId === jobId && view.state === "failed") {
        const body: OcrFailureBody = {
          error: "OCR Processing Failed",
          details: view.error ?? "Text recognition failed on this worksheet.",
          code: "OCR_FAILED",
          requestId: request.id,
        };
        return reply.status(422).send(body);
      }
      return reply.status(202).send(view);
    },
  );

  app.get("/api/worksheets/:id/ocr", { schema: { params: idParam, response: { 200: ocrView } } }, (request) =>
    getWorksheetOcr(ocr, clinicContext(request), request.params.id),
  );
};
