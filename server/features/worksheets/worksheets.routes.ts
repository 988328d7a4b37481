import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import {
  type OcrFailureBody,
  ocrFailureBody,
  ocrResponse,
  WORKSHEET_FIELD,
  worksheetDetail,
  worksheetRecord,
} from "../../../domain/contracts/worksheets";
import { assertCan, clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { readMultipart, WORKSHEET_UPLOAD_TYPES } from "../../platform/uploads";
import {
  getWorksheet,
  readWorksheetImage,
  runWorksheetOcr,
  uploadWorksheet,
  type WorksheetDeps,
} from "./worksheets.service";

/**
 * Worksheet intake: upload (checked by content, stored encrypted), its page image, and OCR. An ultrasound machine's
 * DICOM Structured Report is taken by the same upload instead of the sheet; its "OCR" reads the report's codes.
 */
export const worksheetsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const feature: WorksheetDeps = { db: deps.database.db, store: deps.fileStore };

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

  app.post(
    "/api/worksheets/:id/ocr",
    {
      schema: { params: idParam, response: { 200: ocrResponse, 422: ocrFailureBody } },
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      const outcome = await runWorksheetOcr(feature, clinicContext(request), request.params.id, {
        // The error object only: it never carries patient data (the OCR child reports reasons, not text).
        log: (error) => request.log.warn({ err: error, worksheetId: request.params.id }, "worksheet OCR failed"),
      });
      if (outcome.ok) return { ocrResult: outcome.result };
      const body: OcrFailureBody = {
        error: "OCR Processing Failed",
        details: outcome.reason,
        code: "OCR_FAILED",
        requestId: request.id,
      };
      return reply.status(422).send(body);
    },
  );
};
