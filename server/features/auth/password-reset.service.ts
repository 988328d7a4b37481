import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { AppError, notFound } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import { passwordResets, users } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import { assertCan, type Ctx } from "../../platform/context";
import type { Mail, Mailer } from "../../platform/mailer";
import { hashPassword } from "../../platform/passwords";
import { destroyUserSessions } from "../../platform/sessions";
import { findClinicMember } from "../staff/staff.repository";
import { findUserByEmail } from "./auth.repository";

// Forgot password (issue 29): a one-time link that expires, kept only as its token's hash. Asking for one
// answers the same whatever the address; only the mail, sent to the account's own address, says more.

/** How long a reset link works. */
export const RESET_LINK_MINUTES = 60;
/** Links mailed to one account per hour when asked for from the sign-in page (more requests send nothing). */
export const RESETS_PER_ACCOUNT_HOUR = 3;
export const RESET_PATH = "/reset-password";

type RequestInfo = { ip?: string; requestId?: string };
export type PasswordResetDeps = { db: Db; mailer: Mailer; now?: () => number };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The token goes in the fragment, so it never reaches a server log or a Referer. */
export const resetLink = (origin: string, token: string) => `${origin}${RESET_PATH}#token=${token}`;

/** The token of the newest reset link among mails (tests and the e2e journey read the outbox). */
export function latestResetToken(mails: Array<{ text: string }>): string | null {
  for (const mail of [...mails].reverse()) {
    const match = mail.text.match(/\/reset-password#token=([A-Za-z0-9_-]+)/);
    if (match) return match[1]!;
  }
  return null;
}

async function issueToken(
  db: Queryable,
  userId: string,
  issuedBy: string | null,
  now: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now + RESET_LINK_MINUTES * 60_000);
  await db.insert(passwordResets).values({ tokenHash: hashToken(token), userId, issuedBy, expiresAt });
  return { token, expiresAt };
}

function resetMail(to: string, link: string, expiresAt: Date, byAdmin: boolean): Mail {
  return {
    to,
    subject: "Choose a new Sonoscribe password",
    text: [
      byAdmin
        ? "An admin of your clinic issued a link for you to choose a new Sonoscribe password."
        : "Someone, hopefully you, asked for a link to choose a new Sonoscribe password for this e-mail address.",
      "",
      `Choose a new password: ${link}`,
      "",
      `The link works once and expires on ${expiresAt.toUTCString()}. Choosing a new password signs you out everywhere.`,
      "If you did not ask for this, ignore this e-mail: your password has not changed.",
    ].join("\n"),
  };
}

/**
 * Sign-in page's "Forgot your password?": mails a link to an active account's address, and does nothing (the
 * caller answers the same) for an unknown or deactivated address or after RESETS_PER_ACCOUNT_HOUR links.
 */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  email: string,
  origin: string,
  info: RequestInfo,
): Promise<void> {
  const now = deps.now?.() ?? Date.now();
  await deps.db.delete(passwordResets).where(lt(passwordResets.expiresAt, new Date(now)));
  const user = await findUserByEmail(deps.db, email);
  if (!user?.isActive) return;
  const [recent] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, new Date(now - 3_600_000))));
  if ((recent?.n ?? 0) >= RESETS_PER_ACCOUNT_HOUR) return;
  const { token, expiresAt } = await deps.db.transaction(async (tx) => {
    const issued = await issueToken(tx, user.id, null, now);
    await recordAudit(tx, {
      action: "auth.password_reset_issued",
      clinicId: user.clinicId,
      actorUserId: null,
      entityType: "user",
      entityId: user.id,
      details: { by: "self", delivery: deps.mailer.delivery },
      ...info,
    });
    return issued;
  });
  await deps.mailer.send(resetMail(user.email, resetLink(origin, token), expiresAt, false));
}

/**
 * Staff page: an admin issues a reset link for a member of their own clinic. With e-mail it goes to the
 * member's address only; without, the admin gets the link to pass on (as with an invitation link).
 */
export async function issueStaffPasswordReset(deps: PasswordResetDeps, ctx: Ctx, memberId: string, origin: string) {
  assertCan(ctx, "staff:manage");
  const now = deps.now?.() ?? Date.now();
  const member = await findClinicMember(deps.db, ctx.clinicId, memberId);
  if (!member) throw notFound("Staff member");
  if (!member.isActive) {
    throw new AppError("CONFLICT", "This staff member is deactivated: reactivate them before resetting their password");
  }
  const emailed = deps.mailer.delivery === "email";
  const { token, expiresAt } = await deps.db.transaction(async (tx) => {
    const issued = await issueToken(tx, member.id, ctx.user.id, now);
    await recordAudit(tx, {
      action: "auth.password_reset_issued",
      clinicId: ctx.clinicId,
      actorUserId: ctx.user.id,
      entityType: "user",
      entityId: member.id,
      details: { by: "admin", delivery: deps.mailer.delivery },
      ip: ctx.ip,
      requestId: ctx.requestId,
    });
    return issued;
  });
  const link = resetLink(origin, token);
  if (emailed) await deps.mailer.send(resetMail(member.email, link, expiresAt, true));
  return { email: member.email, expiresAt: expiresAt.toISOString(), emailed, resetUrl: emailed ? null : link };
}

export const RESET_LINK_UNUSABLE =
  "This password reset link has expired or was already used: ask for a new one from the sign-in page";

/**
 * Opens a link: sets the new password, uses up every reset link of the user and ends all their sessions (a
 * stolen session does not outlive the reset), in one transaction.
 */
export async function completePasswordReset(
  deps: PasswordResetDeps,
  body: { token: string; password: string },
  info: RequestInfo,
): Promise<{ email: string }> {
  const now = new Date(deps.now?.() ?? Date.now());
  const passwordHash = await hashPassword(body.password);
  return deps.db.transaction(async (tx) => {
    const [used] = await tx
      .delete(passwordResets)
      .where(and(eq(passwordResets.tokenHash, hashToken(body.token)), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId, issuedBy: passwordResets.issuedBy });
    if (!used) throw new AppError("NOT_FOUND", RESET_LINK_UNUSABLE);
    const [user] = await tx.select().from(users).where(eq(users.id, used.userId));
    if (!user?.isActive) throw new AppError("NOT_FOUND", RESET_LINK_UNUSABLE);
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
    await destroyUserSessions(tx, user.id);
    await recordAudit(tx, {
      action: "auth.password_reset",
      clinicId: user.clinicId,
      actorUserId: user.id,
      entityType: "user",
      entityId: user.id,
      details: { issuedBy: used.issuedBy ? "admin" : "self" },
      ...info,
    });
    return { email: user.email };
  });
}
