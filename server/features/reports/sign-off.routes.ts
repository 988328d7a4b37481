import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import { reportSchema } from "../../../domain/contracts/reports";
import {
  reassignReportRequest,
  signOffWorklistSchema,
  turnaroundQuery,
  turnaroundReportSchema,
} from "../../../domain/contracts/sign-off";
import { clinicContext, requireUser } from "../../platform/context";
import { type AppDeps, clockOf } from "../../platform/deps";
import { type ClinicClock, reassignReport, signOffWorklist } from "./sign-off.service";
import { turnaroundReport } from "./turnaround.service";

/** The clinic's calendar day is the server's, as in the exports (server/features/exports/exports.routes.ts). */
const serverTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The sign-off worklist, reassigning a draft, and the turnaround dashboard (issue 26). */
export const signOffRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const now = clockOf(deps);
  const clinicClock = (): ClinicClock => ({ now: now(), timeZone: serverTimeZone() });
  // Signed-out requests answer 401 before their query or body is validated.
  app.addHook("onRequest", async (request) => {
    requireUser(request);
  });

  app.get("/api/reports/sign-off", { schema: { response: { 200: signOffWorklistSchema } } }, async (request) =>
    signOffWorklist(db, clinicContext(request), clinicClock()),
  );

  app.patch(
    "/api/reports/:id/physician",
    { schema: { params: idParam, body: reassignReportRequest, response: { 200: reportSchema } } },
    async (request) => reassignReport(db, clinicContext(request), request.params.id, request.body.physicianId),
  );

  app.get(
    "/api/reports/turnaround",
    { schema: { querystring: turnaroundQuery, response: { 200: turnaroundReportSchema } } },
    async (request) => turnaroundReport(db, clinicContext(request), request.query, clinicClock()),
  );
};
