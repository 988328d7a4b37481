import type { FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors";
import { can, type Permission } from "../../domain/permissions";

export type SessionUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  clinicId: number | null;
  clinicName: string | null;
  /** The clinic's locale (its report spelling): dates in the client. Absent outside a clinic. */
  clinicLocale?: "en-US" | "en-GB";
  isPlatformAdmin: boolean;
  totpEnabled: boolean;
};

/** What every service receives: who is asking, and for which clinic. */
export type Ctx = {
  user: SessionUser;
  clinicId: number;
  ip?: string;
  requestId?: string;
};

export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.auth) throw new AppError("UNAUTHORIZED", "Unauthorized");
  return request.auth.user;
}

/** The signed-in user of a clinic, as a service context. */
export function clinicContext(request: FastifyRequest): Ctx {
  const user = requireUser(request);
  if (user.clinicId === null) throw new AppError("FORBIDDEN", "You are not a member of a clinic");
  return { user, clinicId: user.clinicId, ip: request.ip, requestId: request.id };
}

export function assertCan(ctx: Ctx, permission: Permission): void {
  if (!can(ctx.user.role, permission)) {
    throw new AppError("FORBIDDEN", "Your role does not allow this action");
  }
}
