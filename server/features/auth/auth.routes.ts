import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser, loginRequest, registerClinicRequest } from "../../../domain/contracts/auth";
import type { AppDeps } from "../../app";
import { recordAudit } from "../../platform/audit";
import { clearSessionCookie, loadSessionUser, setSessionCookie } from "../../platform/auth-plugin";
import { requireUser } from "../../platform/context";
import { createSession, destroySession } from "../../platform/sessions";
import { touchUserLastSeen } from "./auth.repository";
import { checkCredentials, registerClinic } from "./auth.service";

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const policy = deps.config.session;

  app.get("/api/login", async (_request, reply) => reply.redirect("/login"));

  app.post(
    "/api/clinics/register",
    {
      schema: { body: registerClinicRequest },
      config: { rateLimit: { max: 10, timeWindow: "1 hour" } },
    },
    async (request, reply) => {
      const { clinic, user } = await registerClinic(db, request.body, { ip: request.ip, requestId: request.id });
      return reply.status(201).send({ clinicId: clinic.id, userId: user.id, email: user.email });
    },
  );

  app.post(
    "/api/auth/login",
    {
      schema: { body: loginRequest, response: { 200: currentUser } },
      config: {
        rateLimit: {
          max: 10,
          timeWindow: "15 minutes",
          // Per address and per e-mail: a spray across accounts and a guess at one account are both slowed.
          keyGenerator: (request) => `${request.ip}|${(request.body as { email?: string } | undefined)?.email ?? ""}`,
        },
      },
    },
    async (request, reply) => {
      const info = { ip: request.ip, requestId: request.id };
      const user = await checkCredentials(db, request.body.email, request.body.password, info);
      if (request.auth) await destroySession(db, request.auth.token);
      const { token, expire } = await createSession(db, { userId: user.id }, policy);
      await db.transaction(async (tx) => {
        await touchUserLastSeen(tx, user.id);
        await recordAudit(tx, { action: "auth.sign_in", clinicId: user.clinicId, actorUserId: user.id, ...info });
      });
      setSessionCookie(reply, token, expire, request.protocol === "https");
      return (await loadSessionUser(db, deps.config, user.id))!;
    },
  );

  app.get("/api/logout", async (request, reply) => {
    const token = request.auth?.token ?? request.pendingSessionToken;
    if (token) await destroySession(db, token);
    if (request.auth) {
      const { user } = request.auth;
      await db.transaction((tx) =>
        recordAudit(tx, {
          action: "auth.sign_out",
          clinicId: user.clinicId,
          actorUserId: user.id,
          ip: request.ip,
          requestId: request.id,
        }),
      );
    }
    clearSessionCookie(reply);
    return reply.redirect("/");
  });

  app.get("/api/auth/user", { schema: { response: { 200: currentUser } } }, async (request) => requireUser(request));

  app.get(
    "/api/health",
    { schema: { response: { 200: z.object({ status: z.literal("ok"), database: z.string() }) } } },
    async () => {
      await db.execute("select 1");
      return { status: "ok" as const, database: deps.database.kind };
    },
  );
};
