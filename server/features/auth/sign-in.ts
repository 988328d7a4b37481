import type { FastifyReply, FastifyRequest } from "fastify";
import { recordAudit } from "../../platform/audit";
import { cookieIsSecure, setSessionCookie } from "../../platform/auth-plugin";
import type { AppDeps } from "../../platform/deps";
import { createSession, destroySession } from "../../platform/sessions";
import { touchUserLastSeen } from "./auth.repository";

type SignInUser = { id: string; clinicId: number | null };

/**
 * Starts a session for a user whose identity is proven: a new session id (the old one, if any, ends),
 * the cookie, and the audit event. `pendingTotp` sessions only allow the second-factor step.
 */
export async function startSession(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: SignInUser,
  options: { method: "password" | "oidc" | "invitation" | "registration"; pendingTotp?: boolean },
): Promise<void> {
  const { db } = deps.database;
  const previous = request.auth?.token ?? request.pendingSessionToken;
  if (previous) await destroySession(db, previous);
  const { token, expire } = await createSession(
    db,
    { userId: user.id, ...(options.pendingTotp ? { pendingTotp: true } : {}) },
    deps.config.session,
  );
  if (!options.pendingTotp) {
    await db.transaction(async (tx) => {
      await touchUserLastSeen(tx, user.id);
      await recordAudit(tx, {
        action: "auth.sign_in",
        clinicId: user.clinicId,
        actorUserId: user.id,
        details: { method: options.method },
        ip: request.ip,
        requestId: request.id,
      });
    });
  }
  setSessionCookie(reply, token, expire, cookieIsSecure(deps.config, request));
}

/** Where links to this server start: PUBLIC_URL when set, else the origin the request came to. */
export function publicOrigin(deps: AppDeps, request: FastifyRequest): string {
  return deps.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
