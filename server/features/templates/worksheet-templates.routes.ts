import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import { worksheetTemplate } from "../../../domain/contracts/templates";
import { saveZonesRequest, worksheetZonesResponse } from "../../../domain/contracts/worksheet-zones";
import { clinicContext } from "../../platform/context";
import { type AppDeps, MAX_UPLOAD_BYTES } from "../../platform/deps";
import { sendPrivateFile } from "../../platform/send-file";
import { readMultipart, WORKSHEET_TYPES } from "../../platform/uploads";
import { saveWorksheetTemplateZones, worksheetTemplateZones } from "./form-zones.service";
import type { WorksheetTemplateRow } from "./worksheet-templates.repository";
import {
  createWorksheetTemplate,
  deleteWorksheetTemplateFor,
  listWorksheetTemplatesFor,
  worksheetTemplateImage,
  worksheetTemplateImageUrl,
} from "./worksheet-templates.service";

type WorksheetTemplateOut = z.output<typeof worksheetTemplate>;
const out = (row: WorksheetTemplateRow): WorksheetTemplateOut => ({
  ...(row as Omit<WorksheetTemplateOut, "imageUrl">),
  imageUrl: worksheetTemplateImageUrl(row.id),
});

export const worksheetTemplatesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/worksheet-templates", { schema: { response: { 200: z.array(worksheetTemplate) } } }, async (request) =>
    (await listWorksheetTemplatesFor(db, clinicContext(request))).map(out),
  );

  app.post("/api/worksheet-templates", { schema: { response: { 201: worksheetTemplate } } }, async (request, reply) => {
    const ctx = clinicContext(request);
    const form = await readMultipart(request, {
      files: { worksheetFile: { types: WORKSHEET_TYPES, required: false } },
      maxBytes: MAX_UPLOAD_BYTES,
    });
    return reply.status(201).send(out(await createWorksheetTemplate(db, deps.fileStore, ctx, form)));
  });

  app.delete("/api/worksheet-templates/:id", { schema: { params: idParam } }, async (request, reply) => {
    await deleteWorksheetTemplateFor(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.get(
    "/api/worksheet-templates/:id/zones",
    { schema: { params: idParam, response: { 200: worksheetZonesResponse } } },
    async (request) => worksheetTemplateZones(db, clinicContext(request), request.params.id),
  );

  app.put(
    "/api/worksheet-templates/:id/zones",
    { schema: { params: idParam, body: saveZonesRequest, response: { 200: worksheetZonesResponse } } },
    async (request) => saveWorksheetTemplateZones(db, clinicContext(request), request.params.id, request.body.zones),
  );

  app.get("/api/worksheet-templates/:id/image", { schema: { params: idParam } }, async (request, reply) => {
    const image = await worksheetTemplateImage(db, deps.fileStore, clinicContext(request), request.params.id);
    return sendPrivateFile(reply, image.data, image.mimeType);
  });
};
