import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParam } from "../../../domain/contracts/common";
import {
  criticalCommunicationSchema,
  recordCommunicationRequest,
} from "../../../domain/contracts/critical-communication";
import {
  amendReportRequest,
  deleteReportResponse,
  diffQuery,
  finalizeReportRequest,
  generateReportRequest,
  priorReportAnswer,
  reportDiffSchema,
  reportListQuery,
  reportListSchema,
  reportSchema,
  reportVersionSchema,
  reportVersionSummarySchema,
  updateReportRequest,
  versionParams,
} from "../../../domain/contracts/reports";
import { assertCan, type Ctx, clinicContext, requireUser } from "../../platform/context";
import { type AppDeps, clockOf } from "../../platform/deps";
import { sessionReauthAt } from "../auth/reauth.service";
import { sendDeliveriesNow } from "../delivery/delivery.service";
import { sendArchiveJob } from "../exports/report-archives";
import { recordReadingReview } from "../worksheets/reading-corrections.service";
import { priorOfReport } from "./prior-report.service";
import { recordCommunication } from "./report-critical";
import { generateReport } from "./report-generation.service";
import { reportDiff, reportVersion, reportVersions } from "./report-history.service";
import { ReportListMemo } from "./report-list-memo";
import type { SigningClock } from "./report-signing";
import {
  amendReport,
  deleteReport,
  finalizeReport,
  getReport,
  listReports,
  recentReports,
  updateReport,
} from "./reports.service";

const recentReportsSchema = z.array(reportSchema);

/** Already-serialized JSON (and maybe compressed): Fastify sends a Buffer as it is. */
function sendJson(reply: FastifyReply, body: { bytes: Buffer; encoding: string }) {
  reply.header("vary", "accept-encoding").type("application/json; charset=utf-8");
  if (body.encoding !== "identity") reply.header("content-encoding", body.encoding);
  return reply.send(body.bytes);
}

export const reportsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const memo = new ReportListMemo(deps.config.reportListMemoBytes);
  const now = clockOf(deps);
  // The session's re-authentication time, read fresh from the sessions table when a signature is asked for.
  const signingClock = async (request: FastifyRequest): Promise<SigningClock> => ({
    reauthAt: await sessionReauthAt(db, request.auth!.token),
    now: now(),
  });
  // Signed-out requests answer 401 before their body is validated (a 400 would tell them about the route).
  app.addHook("onRequest", async (request) => {
    requireUser(request);
  });

  app.post(
    "/api/reports/generate",
    { schema: { body: generateReportRequest, response: { 201: reportSchema } } },
    async (request, reply) => {
      const ctx = clinicContext(request);
      const report = await generateReport(db, ctx, request.body, deps.config.llm);
      // What the clinician corrected in the worksheet's reading is kept for the reader to learn from; a failure
      // there never costs the clinician the report.
      await recordReadingReview(
        { db, store: deps.fileStore },
        ctx,
        report.worksheetId ?? 0,
        request.body.patient,
        new Date(now()),
      ).catch((error) => request.log.error({ err: error }, "keeping the reading's corrections failed"));
      return reply.status(201).send(report);
    },
  );

  // Lists are answered from the memo while the clinic's report-list version (read with the session on this
  // request) is unchanged; the session, the user and the permission are still checked on every request.
  app.get(
    "/api/reports",
    { schema: { querystring: reportListQuery, response: { 200: reportListSchema } } },
    async (request, reply) => {
      const ctx = clinicContext(request);
      assertCan(ctx, "report:read");
      const key = ReportListMemo.listKey(ctx.clinicId, request.auth!.reportsVersion, request.query);
      const answer = await memo.answer(key, reportListSchema, () => listReports(db, ctx, request.query));
      return sendJson(reply, memo.body(key, answer, request.headers["accept-encoding"]));
    },
  );

  app.get("/api/reports/recent", { schema: { response: { 200: recentReportsSchema } } }, async (request, reply) => {
    const ctx = clinicContext(request);
    assertCan(ctx, "report:read");
    const key = ReportListMemo.recentKey(ctx.clinicId, request.auth!.reportsVersion);
    const answer = await memo.answer(key, recentReportsSchema, () => recentReports(db, ctx));
    return sendJson(reply, memo.body(key, answer, request.headers["accept-encoding"]));
  });

  app.get("/api/reports/:id", { schema: { params: idParam, response: { 200: reportSchema } } }, async (request) =>
    getReport(db, clinicContext(request), request.params.id),
  );

  /**
   * Every signed version is archived as PDF/A-2b by the "report-archives" job from the document stored with the
   * signature (decision 026): the request does not wait for it; the signature never depends on it.
   */
  const afterSignature = async (request: FastifyRequest, ctx: Ctx, reportId: number) => {
    await sendDeliveriesNow({ db, jobs: deps.jobQueue, logger: request.log }, ctx, reportId);
    await sendArchiveJob(deps.jobQueue, request.log);
  };

  app.patch(
    "/api/reports/:id",
    { schema: { params: idParam, body: updateReportRequest, response: { 200: reportSchema } } },
    async (request) => {
      const ctx = clinicContext(request);
      const clock = request.body.finalize ? await signingClock(request) : { reauthAt: null, now: now() };
      const report = await updateReport(db, ctx, request.params.id, request.body, clock);
      if (request.body.finalize) await afterSignature(request, ctx, report.id);
      return report;
    },
  );

  app.post(
    "/api/reports/:id/finalize",
    { schema: { params: idParam, body: finalizeReportRequest, response: { 200: reportSchema } } },
    async (request) => {
      const ctx = clinicContext(request);
      const report = await finalizeReport(db, ctx, request.params.id, await signingClock(request), request.body);
      await afterSignature(request, ctx, report.id);
      return report;
    },
  );

  // Issue 26: the communication of the report's critical results (to whom, how, when, read back); by the session user.
  app.post(
    "/api/reports/:id/critical-communication",
    {
      schema: { params: idParam, body: recordCommunicationRequest, response: { 201: criticalCommunicationSchema } },
    },
    async (request, reply) => {
      const record = await recordCommunication(db, clinicContext(request), request.params.id, request.body, now());
      return reply.status(201).send(record);
    },
  );

  app.post(
    "/api/reports/:id/amend",
    { schema: { params: idParam, body: amendReportRequest, response: { 200: reportSchema } } },
    async (request) => amendReport(db, clinicContext(request), request.params.id, request.body),
  );

  app.delete(
    "/api/reports/:id",
    { schema: { params: idParam, response: { 200: deleteReportResponse } } },
    async (request) => deleteReport(db, clinicContext(request), request.params.id),
  );

  app.get(
    "/api/reports/:id/prior",
    { schema: { params: idParam, response: { 200: priorReportAnswer } } },
    async (request) => priorOfReport(db, clinicContext(request), request.params.id),
  );

  app.get(
    "/api/reports/:id/versions",
    { schema: { params: idParam, response: { 200: z.array(reportVersionSummarySchema) } } },
    async (request) => reportVersions(db, clinicContext(request), request.params.id),
  );

  app.get(
    "/api/reports/:id/versions/:n",
    { schema: { params: versionParams, response: { 200: reportVersionSchema } } },
    async (request) => reportVersion(db, clinicContext(request), request.params.id, request.params.n),
  );

  app.get(
    "/api/reports/:id/diff",
    { schema: { params: idParam, querystring: diffQuery, response: { 200: reportDiffSchema } } },
    async (request) => reportDiff(db, clinicContext(request), request.params.id, request.query.from, request.query.to),
  );
};
