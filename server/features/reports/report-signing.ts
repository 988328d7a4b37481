import { and, eq } from "drizzle-orm";
import { AppError } from "../../../domain/errors";
import { type SigningDecision, signatureLine, signingDecision } from "../../../domain/signing";
import type { Queryable } from "../../db/client";
import { clinics, physicians } from "../../db/schema";
import type { Ctx } from "../../platform/context";

/** What the request knows about the signer's re-authentication, and the time to judge it by (injectable). */
export type SigningClock = { reauthAt: number | null; now: number };

export type SigningAct = { onBehalf: boolean; physicianName: string; signatureLine: string };

async function signingPhysician(db: Queryable, clinicId: number, id: number | null) {
  if (id === null) return null;
  const [row] = await db
    .select({ name: physicians.name, userId: physicians.userId })
    .from(physicians)
    .where(and(eq(physicians.clinicId, clinicId), eq(physicians.id, id)));
  return row ?? null;
}

async function allowsSignOnBehalf(db: Queryable, clinicId: number): Promise<boolean> {
  const [row] = await db.select({ allow: clinics.allowSignOnBehalf }).from(clinics).where(eq(clinics.id, clinicId));
  return row?.allow ?? false;
}

const signerName = (ctx: Ctx) =>
  [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(" ").trim() || ctx.user.email;

/**
 * The signing rule (domain/signing.ts) applied to one report inside the signing transaction: 403 with the
 * reason when this user may not sign it, 428 reauth_required when a fresh re-authentication is missing.
 */
export async function assertMaySign(
  tx: Queryable,
  ctx: Ctx,
  physicianId: number | null,
  clock: SigningClock,
): Promise<SigningAct> {
  const physician = await signingPhysician(tx, ctx.clinicId, physicianId);
  const decision: SigningDecision = signingDecision({
    signerUserId: ctx.user.id,
    physician,
    allowOnBehalf: await allowsSignOnBehalf(tx, ctx.clinicId),
    reauthAt: clock.reauthAt,
    now: clock.now,
  });
  if (!decision.allowed) {
    throw new AppError(decision.status === 428 ? "reauth_required" : "FORBIDDEN", decision.reason);
  }
  const physicianName = physician!.name;
  return {
    onBehalf: decision.onBehalf,
    physicianName,
    signatureLine: signatureLine(signerName(ctx), physicianName, decision.onBehalf),
  };
}
