import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../domain/errors";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { recordAudit } from "./audit";
import { requireUser, type SessionUser } from "./context";

export const TOTP_REQUIRED_FOR_ADMINS = "Two-factor sign-in is required for platform administrators";

/**
 * Platform administration is apart from clinic roles: a grant stored on the account (`npm run admin:grant`,
 * run on the server), never an e-mail address, which nobody has proven. It also needs two-factor sign-in:
 * an admin without TOTP can use their clinic but not /api/admin/* or /api/training.
 */
export function requirePlatformAdmin(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isPlatformAdmin) throw new AppError("FORBIDDEN", "Platform administrators only");
  if (!user.totpEnabled) throw new AppError("FORBIDDEN", TOTP_REQUIRED_FOR_ADMINS);
  return user;
}

export type GrantResult = { status: "granted" | "revoked" | "unchanged" | "no_account"; email: string };

async function setPlatformAdmin(db: Db, rawEmail: string, value: boolean): Promise<GrantResult> {
  const email = rawEmail.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: users.id, clinicId: users.clinicId, isPlatformAdmin: users.isPlatformAdmin })
      .from(users)
      .where(eq(users.email, email));
    if (!row) return { status: "no_account", email };
    if (row.isPlatformAdmin === value) return { status: "unchanged", email };
    await tx.update(users).set({ isPlatformAdmin: value }).where(eq(users.id, row.id));
    await recordAudit(tx, {
      action: value ? "platform.admin_granted" : "platform.admin_revoked",
      clinicId: row.clinicId,
      entityType: "user",
      entityId: row.id,
      details: { via: "server command" },
    });
    return { status: value ? "granted" : "revoked", email };
  });
}

/** Makes an existing account a platform administrator (sessions see it on their next request). */
export const grantPlatformAdmin = (db: Db, email: string) => setPlatformAdmin(db, email, true);
export const revokePlatformAdmin = (db: Db, email: string) => setPlatformAdmin(db, email, false);
