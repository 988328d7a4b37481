import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { reauthRequest, reauthStatus } from "../../../domain/contracts/signing";
import { AppError } from "../../../domain/errors";
import { requireUser } from "../../platform/context";
import { type AppDeps, clockOf } from "../../platform/deps";
import { RateCounters } from "../../platform/rate-counters";
import { defaultLimits, LoginThrottle } from "./login-throttle";
import { type ReauthDeps, reauthenticate, reauthStatusOf } from "./reauth.service";

/** Re-authentications one signed-in user may ask for per 15 minutes (a physician signing all day needs ~3). */
export const REAUTH_PER_USER = 20;
/**
 * Re-authentications per 15 minutes from one network address, all users together: a looser guard against one
 * address working many sessions. A clinic's physicians behind one NAT address share it, so it is 15 users' worth.
 */
export const REAUTH_PER_ADDRESS = 300;
const WINDOW = "15 minutes";

/**
 * Re-authentication before signing (issue 26): GET says how and until when, POST checks a password or an
 * authenticator code and stores the time on the session. Wrong answers count like failed sign-ins.
 *
 * Limits are counted per signed-in user (their id, hashed in rate_counters like every key), not per address:
 * physicians of one clinic behind one NAT address must not use up each other's re-authentications. The address
 * keeps a looser ceiling on requests and on failed answers (the throttle's address count starts its backoff only
 * after 100 failures an hour, not the sign-in's 20); failed answers per user stay throttled as for sign-in.
 */
export const reauthRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const throttle = new LoginThrottle(new RateCounters(deps.database.db, clockOf(deps)), "reauth", {
    ...defaultLimits,
    address: { ...defaultLimits.address, free: 100 },
  });
  // The plugin runs one of its own hooks per request, so the route's config limits per user and this second count
  // (same store, same window) is applied here; it answers as the plugin does: 429, the same headers and message.
  const addressCount = app.createRateLimit({
    max: REAUTH_PER_ADDRESS,
    timeWindow: WINDOW,
    keyGenerator: (request) => `reauth|address|${request.ip}`,
  });
  const perAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    const count = await addressCount(request);
    if (count.isAllowed || !count.isExceeded) return;
    reply.header("x-ratelimit-limit", count.max);
    reply.header("x-ratelimit-remaining", 0);
    reply.header("x-ratelimit-reset", count.ttlInSeconds);
    reply.header("retry-after", count.ttlInSeconds);
    throw Object.assign(new Error(`Rate limit exceeded, retry in ${retryIn(count.ttlInSeconds)}`), { statusCode: 429 });
  };
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
      onRequest: [async (request) => void requireUser(request), perAddress],
      schema: { body: reauthRequest, response: { 200: reauthStatus } },
      config: {
        rateLimit: {
          max: REAUTH_PER_USER,
          timeWindow: WINDOW,
          keyGenerator: (request) => `reauth|user|${requireUser(request).id}`,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      // The throttle's account count is keyed by the user's id (an e-mail change does not reset it).
      await throttle.check(request.ip, user.id);
      try {
        const status = await reauthenticate(reauthDeps, user, tokenOf(request), request.body, {
          ip: request.ip,
          requestId: request.id,
        });
        await throttle.succeed(request.ip, user.id);
        return status;
      } catch (error) {
        if (error instanceof AppError && error.code === "FORBIDDEN") await throttle.fail(request.ip, user.id);
        throw error;
      }
    },
  );
};

/** "15 minutes", "1 minute", "40 seconds": the wording of @fastify/rate-limit's own 429 message. */
function retryIn(seconds: number): string {
  const [n, unit] = seconds >= 60 ? [Math.round(seconds / 60), "minute"] : [seconds, "second"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
