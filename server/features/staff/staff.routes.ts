import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { staffPasswordResetResponse } from "../../../domain/contracts/auth";
import { staffIdParam, staffList } from "../../../domain/contracts/staff";
import { clinicContext } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { issueStaffPasswordReset } from "../auth/password-reset.service";
import { publicOrigin } from "../auth/sign-in";
import { deactivateStaff, listFormerStaff, listStaff, reactivateStaff } from "./staff.service";

export const staffRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.get("/api/staff", { schema: { response: { 200: staffList } } }, async (request) =>
    listStaff(db, clinicContext(request)),
  );

  app.patch("/api/staff/:id/deactivate", { schema: { params: staffIdParam } }, async (request, reply) => {
    await deactivateStaff(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.get("/api/staff/deactivated", { schema: { response: { 200: staffList } } }, async (request) =>
    listFormerStaff(db, clinicContext(request)),
  );

  app.patch("/api/staff/:id/reactivate", { schema: { params: staffIdParam } }, async (request, reply) => {
    await reactivateStaff(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  // A reset link for a member who cannot use "Forgot your password?" (no e-mail on this server): shown to copy.
  app.post(
    "/api/staff/:id/password-reset",
    { schema: { params: staffIdParam, response: { 201: staffPasswordResetResponse } } },
    async (request, reply) => {
      const answer = await issueStaffPasswordReset(
        { db, mailer: deps.mailer, now: deps.clock },
        clinicContext(request),
        request.params.id,
        publicOrigin(deps, request),
      );
      return reply.status(201).send(answer);
    },
  );
};
