import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParam } from "../../../domain/contracts/common";
import {
  acceptInvitationResponse,
  createInvitationRequest,
  createInvitationResponse,
  invitationDetails as invitationDetailsSchema,
  pendingInvitationList,
  registeredViaInvitation,
  registerViaInvitationRequest,
  tokenParam,
} from "../../../domain/contracts/invitations";
import { loadSessionUser } from "../../platform/auth-plugin";
import { clinicContext, requireUser } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { publicOrigin, startSession } from "../auth/sign-in";
import { sendInvitationMail } from "./invitation-mailer";
import {
  acceptInvitation,
  cancelInvitation,
  createInvitation,
  invitationDetails,
  listInvitations,
  registerViaInvitation,
} from "./invitations.service";

// Token routes are public: slow down anyone walking tokens (they are 256-bit, this is belt and braces).
const tokenRateLimit = { rateLimit: { max: 30, timeWindow: "15 minutes" } };

export const invitationsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;

  app.post(
    "/api/invitations",
    { schema: { body: createInvitationRequest, response: { 201: createInvitationResponse } } },
    async (request, reply) => {
      const ctx = clinicContext(request);
      const { invitation, token } = await createInvitation(db, ctx, request.body);
      const invitationUrl = `${publicOrigin(deps, request)}/invite/${token}`;
      const emailed = await sendInvitationMail(deps.config, deps.logger, {
        to: invitation.email,
        clinicName: ctx.user.clinicName ?? "your clinic",
        role: invitation.role,
        link: invitationUrl,
        expiresAt: invitation.expiresAt,
      });
      return reply.status(201).send({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
        invitationUrl,
        emailed,
      });
    },
  );

  app.get("/api/invitations", { schema: { response: { 200: pendingInvitationList } } }, async (request) =>
    listInvitations(db, clinicContext(request)),
  );

  app.delete("/api/invitations/:id", { schema: { params: idParam } }, async (request, reply) => {
    await cancelInvitation(db, clinicContext(request), request.params.id);
    return reply.status(204).send();
  });

  app.get(
    "/api/invitations/:token/details",
    { schema: { params: tokenParam, response: { 200: invitationDetailsSchema } }, config: tokenRateLimit },
    async (request) => invitationDetails(db, request.params.token),
  );

  app.post(
    "/api/invitations/:token/accept",
    { schema: { params: tokenParam, response: { 200: acceptInvitationResponse } }, config: tokenRateLimit },
    async (request) =>
      acceptInvitation(db, requireUser(request), request.params.token, { ip: request.ip, requestId: request.id }),
  );

  app.post(
    "/api/invitations/:token/register",
    {
      schema: {
        params: tokenParam,
        body: registerViaInvitationRequest,
        response: { 201: registeredViaInvitation },
      },
      config: tokenRateLimit,
    },
    async (request, reply) => {
      const { user, clinicName } = await registerViaInvitation(db, request.params.token, request.body, {
        ip: request.ip,
        requestId: request.id,
      });
      await startSession(deps, request, reply, user, { method: "invitation" });
      return reply.status(201).send({ clinicName, user: (await loadSessionUser(db, deps.config, user.id))! });
    },
  );
};
