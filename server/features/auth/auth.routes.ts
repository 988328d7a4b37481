import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentUser, loginRequest, registerClinicRequest } from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import type { AppDeps } from "../../app";
import { recordAudit } from "../../platform/audit";
import { clearSessionCookie, cookieIsSecure, loadSessionUser } from "../../platform/auth-plugin";
import { requireUser } from "../../platform/context";
import { destroySession } from "../../platform/sessions";
import { checkCredentials, checkSecondFactor, registerClinic } from "./auth.service";
import { LoginThrottle } from "./login-throttle";
import { createOidcClient, OIDC_CALLBACK_PATH, OIDC_FLOW_COOKIE, OidcRefused } from "./oidc";
import { publicOrigin, startSession } from "./sign-in";
import { totpRoutes } from "./totp.routes";

/** A same-site path ("/invite/abc"), or null for anything that could leave the site ("//x", "https:..."). */
export function safeNextPath(next: string | undefined): string | null {
  return next && /^\/(?![/\\])/.test(next) ? next : null;
}

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const throttle = new LoginThrottle();
  const oidc = deps.config.oidc ? createOidcClient(deps.config.oidc) : null;

  // A navigation, not a fetch: to the provider when OpenID Connect is configured, else to the sign-in page.
  app.get(
    "/api/login",
    { schema: { querystring: z.object({ next: z.string().max(500).optional() }) } },
    async (request, reply) => {
      // Only a path on this site may follow sign-in: never another origin (an open redirect).
      const next = safeNextPath(request.query.next);
      if (!oidc) return reply.redirect(next ? `/login?next=${encodeURIComponent(next)}` : "/login");
      const { url, flowToken } = await oidc.start(db, publicOrigin(deps, request));
      reply.setCookie(OIDC_FLOW_COOKIE, flowToken, {
        path: OIDC_CALLBACK_PATH,
        httpOnly: true,
        sameSite: "lax",
        secure: cookieIsSecure(deps.config, request),
        maxAge: 600,
      });
      return reply.redirect(url);
    },
  );

  app.get(OIDC_CALLBACK_PATH, async (request, reply) => {
    if (!oidc) return reply.redirect("/login");
    const flowToken = request.cookies[OIDC_FLOW_COOKIE];
    reply.clearCookie(OIDC_FLOW_COOKIE, { path: OIDC_CALLBACK_PATH });
    const currentUrl = new URL(request.url, publicOrigin(deps, request));
    try {
      const user = await oidc.complete(db, flowToken, currentUrl, { ip: request.ip, requestId: request.id });
      if (user.totpEnabled) {
        await startSession(deps, request, reply, user, { method: "oidc", pendingTotp: true });
        return reply.redirect("/login?step=totp");
      }
      await startSession(deps, request, reply, user, { method: "oidc" });
      return reply.redirect("/");
    } catch (error) {
      if (error instanceof OidcRefused) return reply.redirect(`/login?error=${error.reason}`);
      throw error;
    }
  });

  app.post(
    "/api/clinics/register",
    {
      schema: { body: registerClinicRequest },
      config: { rateLimit: { max: deps.config.registrationsPerHour, timeWindow: "1 hour" } },
    },
    async (request, reply) => {
      const { clinic, user } = await registerClinic(db, request.body, { ip: request.ip, requestId: request.id });
      return reply.status(201).send({ clinicId: clinic.id, userId: user.id, email: user.email });
    },
  );

  app.post(
    "/api/auth/login",
    { schema: { body: loginRequest, response: { 200: currentUser } } },
    async (request, reply) => {
      const info = { ip: request.ip, requestId: request.id };
      const { email, password, totpCode } = request.body;
      throttle.check(request.ip, email);
      try {
        const user = await checkCredentials(db, email, password, info);
        await checkSecondFactor(db, deps.fileStore, user, totpCode, info);
        throttle.succeed(request.ip, email);
        await startSession(deps, request, reply, user, { method: "password" });
        return (await loadSessionUser(db, deps.config, user.id))!;
      } catch (error) {
        // Being asked for the second factor is not a failure; a wrong password or code is.
        const asked = error instanceof AppError && error.code === "TOTP_REQUIRED" && !totpCode;
        if (error instanceof AppError && !asked) throttle.fail(request.ip, email);
        throw error;
      }
    },
  );

  // POST only: a GET could be fired by any link or image on another site.
  app.post("/api/logout", async (request, reply) => {
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
    return reply.redirect("/", 303);
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

  await app.register(totpRoutes, deps);
};
