import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { clinicLocaleOf } from "../../domain/date-format";
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { ChangeCounter } from "../db/local-changes";
import { clinics, users } from "../db/schema";
import type { SessionUser } from "./context";
import { SessionAuthCache } from "./session-auth-cache";
import { destroySession, SESSION_COOKIE, type SessionAuth, type SessionPolicy, touchSession } from "./sessions";

declare module "fastify" {
  interface FastifyRequest {
    /** reportsVersion: the clinic's report-list version, read with the session (see report_counters). */
    auth: { user: SessionUser; token: string; reportsVersion: number } | null;
    /** The raw session token when a session exists but sign-in is not complete (TOTP step). */
    pendingSessionToken: string | null;
  }
}

/** Secure cookies when the request came over https or the public URL is https (a proxy may not say so). */
export function cookieIsSecure(config: Config, request: { protocol: string }): boolean {
  return request.protocol === "https" || Boolean(config.publicUrl?.startsWith("https:"));
}

export function setSessionCookie(reply: FastifyReply, token: string, expire: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", secure, expires: expire });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

// The config parameter is kept so callers need not change; platform administration is a stored grant now.
export async function loadSessionUser(db: Db, _config: Config, userId: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ user: users, clinicName: clinics.name, clinicLocale: clinics.reportSpelling })
    .from(users)
    .leftJoin(clinics, eq(clinics.id, users.clinicId))
    .where(eq(users.id, userId));
  return row ? toSessionUser(row.user, row.clinicName, row.clinicLocale) : null;
}

function toSessionUser(
  u: SessionAuth["user"],
  clinicName: string | null,
  clinicLocale: string | null,
): SessionUser | null {
  if (!u?.isActive) return null;
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    clinicId: u.clinicId,
    clinicName,
    clinicLocale: clinicLocaleOf(clinicLocale),
    isPlatformAdmin: u.isPlatformAdmin,
    totpEnabled: u.totpEnabled,
  };
}

type AuthPluginOptions = {
  db: Db;
  config: Config;
  policy: SessionPolicy;
  /** Lets unchanged session reads be reused (see SessionAuthCache). */
  changes: ChangeCounter;
};

/**
 * Resolves the session cookie to a user on every request, in one query; a deactivated user's session ends
 * at once. The idle window slides with a write at most once a minute (touchSession), not on every request.
 */
export const authPlugin = fp(async (app: FastifyInstance, opts: AuthPluginOptions) => {
  const cache = new SessionAuthCache(opts.db, opts.changes);
  app.decorateRequest("auth", null);
  app.decorateRequest("pendingSessionToken", null);
  app.addHook("onRequest", async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const found = await cache.read(token);
    if (!found) return;
    const { session } = found;
    const user = toSessionUser(found.user, found.clinicName, found.clinicLocale);
    if (!user) {
      await destroySession(opts.db, token);
      clearSessionCookie(reply);
      return;
    }
    if (session.data.pendingTotp) {
      request.pendingSessionToken = token;
      return;
    }
    const expire = await touchSession(opts.db, token, session, opts.policy);
    if (expire !== session.expire) setSessionCookie(reply, token, expire, cookieIsSecure(opts.config, request));
    request.auth = { user, token, reportsVersion: found.reportsVersion };
  });
});
