import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import type { Config } from "../config";
import type { Db } from "../db/client";
import { clinics, users } from "../db/schema";
import type { SessionUser } from "./context";
import { destroySession, readSession, SESSION_COOKIE, type SessionPolicy, touchSession } from "./sessions";

declare module "fastify" {
  interface FastifyRequest {
    auth: { user: SessionUser; token: string } | null;
    /** The raw session token when a session exists but sign-in is not complete (TOTP step). */
    pendingSessionToken: string | null;
  }
}

export function setSessionCookie(reply: FastifyReply, token: string, expire: Date, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { path: "/", httpOnly: true, sameSite: "lax", secure, expires: expire });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

export async function loadSessionUser(db: Db, config: Config, userId: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ user: users, clinicName: clinics.name })
    .from(users)
    .leftJoin(clinics, eq(clinics.id, users.clinicId))
    .where(eq(users.id, userId));
  if (!row?.user.isActive) return null;
  const u = row.user;
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    clinicId: u.clinicId,
    clinicName: row.clinicName,
    isPlatformAdmin: config.platformAdminEmails.includes(u.email.toLowerCase()),
    totpEnabled: u.totpEnabled,
  };
}

/** Resolves the session cookie to a user on every request; a deactivated user's session ends at once. */
export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Db; config: Config; policy: SessionPolicy }) => {
  app.decorateRequest("auth", null);
  app.decorateRequest("pendingSessionToken", null);
  app.addHook("onRequest", async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const session = await readSession(opts.db, token);
    if (!session) return;
    const user = await loadSessionUser(opts.db, opts.config, session.data.userId);
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
    if (expire !== session.expire) setSessionCookie(reply, token, expire, request.protocol === "https");
    request.auth = { user, token };
  });
});
