import type { FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors";
import { requireUser, type SessionUser } from "./context";

export const TOTP_REQUIRED_FOR_ADMINS = "Two-factor sign-in is required for platform administrators";

/**
 * Platform administration (PLATFORM_ADMIN_EMAILS) is apart from clinic roles, and needs two-factor
 * sign-in: an admin without TOTP can use their clinic but not /api/admin/* or /api/training.
 */
export function requirePlatformAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isPlatformAdmin) throw new AppError("FORBIDDEN", "Platform administrators only");
  if (!user.totpEnabled) throw new AppError("FORBIDDEN", TOTP_REQUIRED_FOR_ADMINS);
  return user;
}
