import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import {
  createDigitalWorksheetRequest,
  digitalWorksheetSchema,
  saveDigitalWorksheetRequest,
} from "../../../domain/contracts/drawings";
import { reportSchema } from "../../../domain/contracts/reports";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { createDraftFromDrawing } from "./drawing-draft.service";
import {
  drawingImage,
  getDrawingSession,
  listDrawingSessions,
  saveDrawingSession,
  startDrawingSession,
  toDigitalWorksheet,
} from "./drawings.service";

export const drawingsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get(
    "/api/digital-worksheets",
    { schema: { response: { 200: z.array(digitalWorksheetSchema) } } },
    async (request) => listDrawingSessions(db, clinicContext(request)),
  );

  app.post(
    "/api/digital-worksheets",
    { schema: { body: createDigitalWorksheetRequest, response: { 201: digitalWorksheetSchema } } },
    async (request, reply) =>
      reply.status(201).send(await startDrawingSession(db, clinicContext(request), request.body)),
  );

  app.get(
    "/api/digital-worksheets/:id",
    { schema: { params: idParam, response: { 200: digitalWorksheetSchema } } },
    async (request) => {
      const ctx = clinicContext(request);
      return toDigitalWorksheet(db, await getDrawingSession(db, ctx, request.params.id));
    },
  );

  app.put(
    "/api/digital-worksheets/:id",
    { schema: { params: idParam, body: saveDigitalWorksheetRequest, response: { 200: digitalWorksheetSchema } } },
    async (request) => saveDrawingSession(db, clinicContext(request), request.params.id, request.body),
  );

  app.get("/api/digital-worksheets/:id/image", { schema: { params: idParam } }, async (request, reply) => {
    const image = await drawingImage(db, clinicContext(request), request.params.id);
    return sendPrivateFile(reply, image.data, image.mimeType);
  });

  app.post(
    "/api/digital-worksheets/:id/create-draft-report",
    { schema: { params: idParam, response: { 201: reportSchema } } },
    async (request, reply) =>
      reply.status(201).send(await createDraftFromDrawing(deps, clinicContext(request), request.params.id)),
  );
};
