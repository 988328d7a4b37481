import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { reauthRequest, reauthStatus } from "../../../domain/contracts/signing";
import { AppError } from "../../../domain/errors";
import { requireUser } from "../../platform/context";
import { type AppDeps, clockOf } from "../../platform/deps";
import { RateCounters } from "../../platform/rate-counters";
import { LoginThrottle } from "./login-throttle";
import { type ReauthDeps, reauthenticate, reauthStatusOf } from "./reauth.service";

/**
 * Re-authentication before signing (issue 26): GET says how and until when, POST checks a password or an
 * authenticator code and stores the time on the session. Wrong answers count like failed sign-ins.
 */
export const reauthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const throttle = new LoginThrottle(new RateCounters(deps.database.db, clockOf(deps)), "reauth");
  const reauthDeps: ReauthDeps = {
    db: deps.database.db,
    fileStore: deps.fileStore,
    oidcConfigured: Boolean(deps.config.oidc),
    now: clockOf(deps),
  };
  const tokenOf = (request: { auth: { token: string } | null }) => request.auth!.token;

  app.get("/api/auth/reauth", { schema: { response: { 200: reauthStatus } } }, async (request) =>
    reauthStatusOf(reauthDeps, requireUser(request), tokenOf(request)),
  );

  app.post(
    "/api/auth/reauth",
    {
      // 401 before the body is looked at: a signed-out caller learns nothing about the route.
      onRequest: async (request) => void requireUser(request),
      schema: { body: reauthRequest, response: { 200: reauthStatus } },
      config: { rateLimit: { max: 20, timeWindow: "15 minutes" } },
    },
    async (request) => {
      const user = requireUser(request);
      await throttle.check(request.ip, user.email);
      try {
        const status = await reauthenticate(reauthDeps, user, tokenOf(request), request.body, {
          ip: request.ip,
          requestId: request.id,
        });
        await throttle.succeed(request.ip, user.email);
        return status;
      } catch (error) {
        if (error instanceof AppError && error.code === "FORBIDDEN") await throttle.fail(request.ip, user.email);
        throw error;
      }
    },
  );
};
