import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import {
  createReportTemplateRequest,
  reportTemplate,
  updateReportTemplateRequest,
} from "../../../domain/contracts/templates";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  type ReportTemplateRow,
  updateTemplate,
} from "./report-templates.service";

type ReportTemplateOut = z.output<typeof reportTemplate>;
// The columns are varchar; only the contract's choices are ever written, so the narrowing holds.
const out = (row: ReportTemplateRow) => row as ReportTemplateOut;

export const reportTemplatesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/templates", { schema: { response: { 200: z.array(reportTemplate) } } }, async (request) =>
    (await listTemplates(db, clinicContext(request))).map(out),
  );

  app.post(
    "/api/templates",
    { schema: { body: createReportTemplateRequest, response: { 201: reportTemplate } } },
    async (request, reply) =>
      reply.status(201).send(out(await createTemplate(db, clinicContext(request), request.body))),
  );

  app.patch(
    "/api/templates/:id",
    { schema: { params: idParam, body: updateReportTemplateRequest, response: { 200: reportTemplate } } },
    async (request) => out(await updateTemplate(db, clinicContext(request), request.params.id, request.body)),
  );

  app.delete("/api/templates/:id", { schema: { params: idParam } }, async (request, reply) => {
    await deleteTemplate(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });
};
