import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import {
  currentUser,
  totpCodeRequest,
  totpDisableResponse,
  totpEnableResponse,
  totpSetupResponse,
  totpStatusResponse,
} from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import { loadSessionUser } from "../../platform/auth-plugin";
import { requireUser } from "../../platform/context";
import type { AppDeps } from "../../platform/deps";
import { readSession } from "../../platform/sessions";
import { findUserById } from "./auth.repository";
import { checkSecondFactor } from "./auth.service";
import { startSession } from "./sign-in";
import { beginTotpSetup, disableTotp, enableTotp, totpStatus } from "./totp.service";

// Codes are 6 digits: each endpoint that checks one is slowed per address.
const codeRateLimit = { rateLimit: { max: 10, timeWindow: "15 minutes" } };

/** Two-factor sign-in: enrol (set-up, then confirm with a code), status, turn off, and the sign-in step after OIDC. */
export const totpRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db } = deps.database;
  const info = (request: { ip: string; id: string }) => ({ ip: request.ip, requestId: request.id });

  app.get("/api/auth/totp", { schema: { response: { 200: totpStatusResponse } } }, async (request) =>
    totpStatus(db, requireUser(request)),
  );

  app.post("/api/auth/totp/setup", { schema: { response: { 200: totpSetupResponse } } }, async (request) =>
    beginTotpSetup(db, deps.fileStore, requireUser(request)),
  );

  app.post(
    "/api/auth/totp/enable",
    { schema: { body: totpCodeRequest, response: { 200: totpEnableResponse } }, config: codeRateLimit },
    async (request) => enableTotp(db, deps.fileStore, requireUser(request), request.body.code, info(request)),
  );

  app.post(
    "/api/auth/totp/disable",
    {
      schema: { body: totpCodeRequest, response: { 200: totpDisableResponse } },
      config: codeRateLimit,
    },
    async (request) => {
      await disableTotp(db, deps.fileStore, requireUser(request), request.body.code, info(request));
      return { enabled: false as const };
    },
  );

  // After a provider sign-in the session waits for the second factor (pendingTotp); this completes it.
  app.post(
    "/api/auth/totp/complete",
    { schema: { body: totpCodeRequest, response: { 200: currentUser } }, config: codeRateLimit },
    async (request, reply) => {
      const pending = request.pendingSessionToken ? await readSession(db, request.pendingSessionToken) : null;
      const user = pending ? await findUserById(db, pending.data.userId) : undefined;
      if (!user?.isActive) throw new AppError("UNAUTHORIZED", "Unauthorized");
      await checkSecondFactor(db, deps.fileStore, user, request.body.code, info(request));
      await startSession(deps, request, reply, user, { method: "oidc" });
      return (await loadSessionUser(db, deps.config, user.id))!;
    },
  );
};
