import { randomUUID } from "node:crypto";
import type { RegisterClinicRequest } from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import type { FileStore } from "../../platform/file-store";
import { hashPassword, verifyPassword } from "../../platform/passwords";
import { findClinicByEmail, findUserByEmail, insertClinic, insertUser } from "./auth.repository";
import { verifySecondFactor } from "./totp.service";

export const INVALID_CREDENTIALS = "Invalid email or password";

type RequestInfo = { ip?: string; requestId?: string };

/** Creates the clinic and its first admin, whose e-mail is the clinic's, in one transaction. */
export async function registerClinic(db: Db, input: RegisterClinicRequest, info: RequestInfo) {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    if ((await findClinicByEmail(tx, input.email)) || (await findUserByEmail(tx, input.email))) {
      throw new AppError("CONFLICT", "A clinic with this email address is already registered", "email");
    }
    const clinic = await insertClinic(tx, {
      name: input.name,
      email: input.email,
      phone: input.phone,
      address: input.address,
      city: input.city,
      state: input.state,
      zipCode: input.zipCode,
    });
    const user = await insertUser(tx, {
      id: randomUUID(),
      email: input.email,
      passwordHash,
      firstName: input.adminFirstName,
      lastName: input.adminLastName,
      clinicId: clinic.id,
      role: "admin",
      joinedAt: new Date(),
    });
    await recordAudit(tx, {
      action: "clinic.registered",
      clinicId: clinic.id,
      actorUserId: user.id,
      entityType: "clinic",
      entityId: clinic.id,
      ...info,
    });
    return { clinic, user };
  });
}

/** Checks e-mail and password; the error never says which of the two was wrong. */
export async function checkCredentials(db: Db, email: string, password: string, info: RequestInfo) {
  const user = await findUserByEmail(db, email);
  const valid = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !valid || !user.isActive) {
    await db.transaction((tx) =>
      recordAudit(tx, {
        action: "auth.sign_in_failed",
        clinicId: user?.clinicId ?? null,
        actorUserId: user?.id ?? null,
        details: { reason: !user ? "unknown_email" : !valid ? "bad_password" : "inactive" },
        ...info,
      }),
    );
    throw new AppError("UNAUTHORIZED", INVALID_CREDENTIALS);
  }
  return user;
}

export const TOTP_PROMPT = "Enter the code from your authenticator app";

/**
 * The second step for users with two-factor sign-in: without a code the answer is TOTP_REQUIRED (the
 * sign-in page then asks for one); a wrong code is a failed sign-in, audited like a wrong password.
 */
export async function checkSecondFactor(
  db: Db,
  store: FileStore,
  user: Awaited<ReturnType<typeof checkCredentials>>,
  code: string | undefined,
  info: RequestInfo,
): Promise<void> {
  if (!user.totpEnabled) return;
  if (!code) throw new AppError("TOTP_REQUIRED", TOTP_PROMPT);
  if (await verifySecondFactor(db, store, user, code)) return;
  await db.transaction((tx) =>
    recordAudit(tx, {
      action: "auth.sign_in_failed",
      clinicId: user.clinicId,
      actorUserId: user.id,
      details: { reason: "bad_totp" },
      ...info,
    }),
  );
  throw new AppError("TOTP_REQUIRED", "Invalid authentication code");
}
