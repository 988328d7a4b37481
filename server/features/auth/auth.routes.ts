import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  confirmRegistrationRequest,
  currentUser,
  forgotPasswordAccepted,
  forgotPasswordRequest,
  localDraftKey,
  loginRequest,
  PASSWORD_RESET_SENT_MESSAGE,
  passwordResetDone,
  registerClinicRequest,
  registrationAccepted,
  registrationComplete,
  registrationConfirmed,
  resetPasswordRequest,
} from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import { recordAudit } from "../../platform/audit";
import { clearSessionCookie, cookieIsSecure, loadSessionUser } from "../../platform/auth-plugin";
import { requireUser } from "../../platform/context";
import { type AppDeps, clockOf } from "../../platform/deps";
import { RateCounters } from "../../platform/rate-counters";
import { destroySession, readSession } from "../../platform/sessions";
import { checkCredentials, checkSecondFactor } from "./auth.service";
import { LoginThrottle } from "./login-throttle";
import { createOidcClient, OIDC_CALLBACK_PATH, OIDC_FLOW_COOKIE, OidcRefused } from "./oidc";
import { completePasswordReset, requestPasswordReset } from "./password-reset.service";
import { markReauthenticated } from "./reauth.service";
import {
  confirmRegistration,
  type RegistrationDeps,
  registerAtOnce,
  registrationAnswer,
  registrationCompleteAnswer,
  requestRegistration,
} from "./registration.service";
import { publicOrigin, startSession } from "./sign-in";
import { totpRoutes } from "./totp.routes";

/** A same-site path ("/invite/abc"), or null for anything that could leave the site ("//x", "https:..."). */
export function safeNextPath(next: string | undefined): string | null {
  return next && /^\/(?![/\\])/.test(next) ? next : null;
}

export const authRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const throttle = new LoginThrottle(new RateCounters(db, clockOf(deps)), "sign-in");
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
      setFlowCookie(request, reply, flowToken);
      return reply.redirect(url);
    },
  );

  /** Sets the short-lived cookie that ties the provider's answer to the flow started here. */
  const setFlowCookie = (request: FastifyRequest, reply: FastifyReply, flowToken: string) =>
    reply.setCookie(OIDC_FLOW_COOKIE, flowToken, {
      path: OIDC_CALLBACK_PATH,
      httpOnly: true,
      sameSite: "lax",
      secure: cookieIsSecure(deps.config, request),
      maxAge: 600,
    });

  // Re-authentication before signing through the provider (issue 26): a navigation from the signing dialog. The
  // provider is asked for a fresh login (prompt=login, max_age=0); the callback stores the time on this session.
  app.get(
    "/api/auth/reauth/oidc",
    { schema: { querystring: z.object({ next: z.string().max(500).optional() }) } },
    async (request, reply) => {
      const user = requireUser(request);
      if (!oidc) throw new AppError("NOT_FOUND", "Single sign-on is not configured on this server");
      const next = safeNextPath(request.query.next) ?? "/";
      const reauth = { userId: user.id, startedAt: clockOf(deps)(), next };
      const { url, flowToken } = await oidc.start(db, publicOrigin(deps, request), reauth);
      setFlowCookie(request, reply, flowToken);
      return reply.redirect(url);
    },
  );

  app.get(OIDC_CALLBACK_PATH, async (request, reply) => {
    if (!oidc) return reply.redirect("/login");
    const flowToken = request.cookies[OIDC_FLOW_COOKIE];
    reply.clearCookie(OIDC_FLOW_COOKIE, { path: OIDC_CALLBACK_PATH });
    const currentUrl = new URL(request.url, publicOrigin(deps, request));
    const info = { ip: request.ip, requestId: request.id };
    const pendingReauth = flowToken ? (await readSession(db, flowToken))?.data.oidc?.reauth : undefined;
    if (pendingReauth) {
      const back = (outcome: string) =>
        `${pendingReauth.next}${pendingReauth.next.includes("?") ? "&" : "?"}reauth=${outcome}`;
      try {
        await oidc.completeReauth(db, flowToken, currentUrl, request.auth?.user.id ?? null);
        await markReauthenticated({ db, now: clockOf(deps) }, request.auth!.user, request.auth!.token, "oidc", info);
        return reply.redirect(back("ok"));
      } catch (error) {
        if (!(error instanceof OidcRefused)) throw error;
        if (request.auth) {
          const { user } = request.auth;
          await db.transaction((tx) =>
            recordAudit(tx, {
              action: "auth.reauth_failed",
              clinicId: user.clinicId,
              actorUserId: user.id,
              details: { method: "oidc", reason: error.reason },
              ...info,
            }),
          );
        }
        return reply.redirect(back(error.reason));
      }
    }
    try {
      const user = await oidc.complete(db, flowToken, currentUrl, info);
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

  const registration: RegistrationDeps = { db, mailer: deps.mailer, now: deps.clock };

  // The same answer whatever the address: whether it already has an account is said only in the mail sent to it.
  app.post(
    "/api/clinics/register",
    {
      schema: {
        body: registerClinicRequest,
        response: { 201: registrationComplete, 202: registrationAccepted },
      },
      config: { rateLimit: { max: deps.config.registrationsPerHour, timeWindow: "1 hour" } },
    },
    async (request, reply) => {
      const origin = publicOrigin(deps, request);
      if (!deps.config.registrationEmailProof) {
        await registerAtOnce(registration, request.body, origin, { ip: request.ip, requestId: request.id });
        return reply.status(201).send(registrationCompleteAnswer(request.body.email, deps.mailer.delivery));
      }
      const { expiresAt } = await requestRegistration(registration, request.body, origin);
      return reply.status(202).send(registrationAnswer(request.body.email, deps.mailer.delivery, expiresAt));
    },
  );

  // The mailed link's page: the clinic and its admin are created now, and the admin is signed in.
  app.post(
    "/api/clinics/register/confirm",
    {
      schema: { body: confirmRegistrationRequest, response: { 201: registrationConfirmed } },
      // Each accepted registration mails one link, so its page may be opened as often as registrations are
      // allowed (never fewer than 20 tries in 15 minutes: a mistyped password is a try). The token itself is
      // 256 random bits; the limit slows a scripted caller, it is not what protects the link.
      config: {
        rateLimit: { max: Math.max(20, deps.config.registrationsPerHour), timeWindow: "15 minutes" },
      },
    },
    async (request, reply) => {
      const { clinic, user } = await confirmRegistration(registration, request.body, {
        ip: request.ip,
        requestId: request.id,
      });
      await startSession(deps, request, reply, user, { method: "registration" });
      return reply.status(201).send({ clinicId: clinic.id, userId: user.id, email: user.email });
    },
  );

  // Forgot password: 202 whatever the address; whether it has an account is said only in the mail sent to it.
  app.post(
    "/api/auth/password-reset",
    {
      schema: { body: forgotPasswordRequest, response: { 202: forgotPasswordAccepted } },
      config: { rateLimit: { max: 5, timeWindow: "15 minutes" } },
    },
    async (request, reply) => {
      await requestPasswordReset(registration, request.body.email, publicOrigin(deps, request), {
        ip: request.ip,
        requestId: request.id,
      });
      return reply.status(202).send({
        status: "reset_requested" as const,
        delivery: deps.mailer.delivery,
        message: PASSWORD_RESET_SENT_MESSAGE,
      });
    },
  );

  // The reset link's page: the new password is set and every session of the account ends (sign in afresh).
  app.post(
    "/api/auth/password-reset/complete",
    {
      schema: { body: resetPasswordRequest, response: { 200: passwordResetDone } },
      config: { rateLimit: { max: 20, timeWindow: "15 minutes" } },
    },
    async (request) => completePasswordReset(registration, request.body, { ip: request.ip, requestId: request.id }),
  );

  app.post(
    "/api/auth/login",
    { schema: { body: loginRequest, response: { 200: currentUser } } },
    async (request, reply) => {
      const info = { ip: request.ip, requestId: request.id };
      const { email, password, totpCode } = request.body;
      await throttle.check(request.ip, email);
      try {
        const user = await checkCredentials(db, email, password, info);
        await checkSecondFactor(db, deps.fileStore, user, totpCode, info);
        await throttle.succeed(request.ip, email);
        await startSession(deps, request, reply, user, { method: "password" });
        return (await loadSessionUser(db, deps.config, user.id))!;
      } catch (error) {
        // Being asked for the second factor is not a failure; a wrong password or code is.
        const asked = error instanceof AppError && error.code === "TOTP_REQUIRED" && !totpCode;
        if (error instanceof AppError && !asked) await throttle.fail(request.ip, email);
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

  // The key for the unsaved edits this user's browser keeps encrypted (see local-draft-key.ts).
  app.get("/api/auth/local-draft-key", { schema: { response: { 200: localDraftKey } } }, async (request) => ({
    key: deps.localDraftKeys.forUser(requireUser(request).id),
  }));

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
