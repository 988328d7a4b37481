import { randomUUID } from "node:crypto";
import type { RegisterClinicRequest } from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import type { Db, Queryable } from "../../db/client";
import type { RegistrationDetails, users } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import type { FileStore } from "../../platform/file-store";
import { hashPassword, verifyPassword } from "../../platform/passwords";
import { findUserByEmail, insertClinic, insertUser } from "./auth.repository";
import { verifySecondFactor } from "./totp.service";

export const INVALID_CREDENTIALS = "Invalid email or password";

type RequestInfo = { ip?: string; requestId?: string };

/**
 * Creates a clinic and its first admin, whose e-mail is the clinic's. Callers have proven the address: the
 * mailed registration link (registration.service.ts) or code run on the server (seeds, the operator).
 */
export async function createClinicWithAdmin(
  tx: Queryable,
  email: string,
  passwordHash: string,
  { adminFirstName, adminLastName, ...clinicFields }: RegistrationDetails,
  info: RequestInfo & { emailProven?: boolean },
) {
  if (await findUserByEmail(tx, email)) {
    throw new AppError("CONFLICT", "This address already has an account: sign in instead", "email");
  }
  const clinic = await insertClinic(tx, { ...clinicFields, email });
  const user = await insertUser(tx, {
    id: randomUUID(),
    email,
    passwordHash,
    firstName: adminFirstName,
    lastName: adminLastName,
    clinicId: clinic.id,
    role: "admin",
    joinedAt: new Date(),
  });
  const { emailProven, ...request } = info;
  await recordAudit(tx, {
    action: "clinic.registered",
    clinicId: clinic.id,
    actorUserId: user.id,
    entityType: "clinic",
    entityId: clinic.id,
    ...(emailProven ? { details: { emailProven: true } } : {}),
    ...request,
  });
  return { clinic, user };
}

/** The account of a person joining a clinic by invitation (invitations.service.ts), for the invited address. */
export async function createInvitedUser(
  tx: Queryable,
  values: Omit<typeof users.$inferInsert, "id" | "joinedAt"> & { email: string },
) {
  if (await findUserByEmail(tx, values.email)) {
    throw new AppError("CONFLICT", "An account with this e-mail already exists. Log in to accept the invitation.");
  }
  return insertUser(tx, { ...values, id: randomUUID(), joinedAt: new Date() });
}

/** Server-side registration without a mailed link (the e2e seed, tools run by the operator); never over HTTP. */
export async function registerClinic(db: Db, input: RegisterClinicRequest, info: RequestInfo) {
  const passwordHash = await hashPassword(input.password);
  const { email, password: _password, ...details } = input;
  return db.transaction((tx) => createClinicWithAdmin(tx, email, passwordHash, details, info));
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
