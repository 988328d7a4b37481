import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import {
  type OcrFailureBody,
  ocrFailureBody,
  ocrResponse,
  ocrView,
  ocrWaitQuery,
  WORKSHEET_FIELD,
  worksheetDetail,
  worksheetRecord,
} from "../../../domain/contracts/worksheets";
import { assertCan, clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { readMultipart, WORKSHEET_UPLOAD_TYPES } from "../../platform/uploads";
import { getWorksheetOcr, type OcrJobDeps, requestWorksheetOcr, toOcrView, waitForOcr } from "./ocr-jobs";
import { getWorksheet, readWorksheetImage, uploadWorksheet, type WorksheetDeps } from "./worksheets.service";

/**
 * Worksheet intake: upload (checked by content, stored encrypted), its page image, and OCR. An ultrasound machine's
 * DICOM Structured Report is taken by the same upload instead of the sheet; its "OCR" reads the report's codes.
 */
export const worksheetsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const feature: WorksheetDeps = { db: deps.database.db, store: deps.fileStore };
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
