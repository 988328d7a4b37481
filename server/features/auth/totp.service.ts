import { createHash, randomBytes } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { AppError } from "../../../domain/errors";
import type { Db } from "../../db/client";
import type { users } from "../../db/schema";
import { recordAudit } from "../../platform/audit";
import type { SessionUser } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import {
  claimTotpStep,
  consumeRecoveryCode,
  disableTotp as disableTotpRow,
  enableTotp as enableTotpRow,
  findUserById,
  setPendingTotpSecret,
} from "./auth.repository";

export const TOTP_ISSUER = "Sonoscribe";
export const RECOVERY_CODE_COUNT = 10;
export const INVALID_CODE = "Invalid authentication code";
/** One 30-second step either side: phone clocks drift, and people type slowly. */
const EPOCH_TOLERANCE_S = 30;

type UserRow = typeof users.$inferSelect;
type RequestInfo = { ip?: string; requestId?: string };

const sealSecret = (store: FileStore, secret: string) => store.encrypt(Buffer.from(secret, "utf8")).toString("base64");
const openSecret = (store: FileStore, sealed: string) => store.decrypt(Buffer.from(sealed, "base64")).toString("utf8");

/** Recovery codes are compared without dashes, spaces or case, and stored only as SHA-256. */
const normalizeRecovery = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();
const hashRecovery = (code: string) => createHash("sha256").update(normalizeRecovery(code)).digest("hex");

function newRecoveryCode(): string {
  // 10 characters of base32 (50 bits): enough against guessing under the sign-in rate limit.
  const alphabet = "abcdefghijkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The time step a code belongs to, or null when it matches none within the tolerance. */
async function totpStep(store: FileStore, sealed: string | null, code: string): Promise<number | null> {
  if (!sealed || !/^\d{6}$/.test(code)) return null;
  const result = await verify({ secret: openSecret(store, sealed), token: code, epochTolerance: EPOCH_TOLERANCE_S });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** Starts enrolment: a fresh secret (encrypted at rest) and its QR code; TOTP is on only after `enableTotp`. */
export async function beginTotpSetup(db: Db, store: FileStore, user: SessionUser) {
  if (user.totpEnabled) throw new AppError("CONFLICT", "Two-factor sign-in is already on");
  const secret = generateSecret();
  await setPendingTotpSecret(db, user.id, sealSecret(store, secret));
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: user.email, secret });
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { secret, otpauthUrl, qrDataUrl };
}

/** Confirms enrolment with a code from the app; answers the recovery codes, which are shown this once. */
export async function enableTotp(db: Db, store: FileStore, user: SessionUser, code: string, info: RequestInfo) {
  const row = await findUserById(db, user.id);
  if (!row) throw new AppError("UNAUTHORIZED", "Unauthorized");
  if (row.totpEnabled) throw new AppError("CONFLICT", "Two-factor sign-in is already on");
  if (!row.totpSecretEnc) throw new AppError("BAD_REQUEST", "Start the set-up first");
  const step = await totpStep(store, row.totpSecretEnc, code);
  if (step === null) throw new AppError("BAD_REQUEST", INVALID_CODE, "code");
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await enableTotpRow(tx, user.id, recoveryCodes.map(hashRecovery), step);
    await recordAudit(tx, { action: "auth.totp_enabled", clinicId: user.clinicId, actorUserId: user.id, ...info });
  });
  return { recoveryCodes };
}

/**
 * Checks a second factor at sign-in: a current authenticator code not used before (its time step is
 * remembered, so a code seen over someone's shoulder or in a log cannot be replayed), or an unused recovery
 * code, which this uses up. False for anything else.
 */
export async function verifySecondFactor(db: Db, store: FileStore, row: UserRow, code: string): Promise<boolean> {
  const step = await totpStep(store, row.totpSecretEnc, code.trim());
  if (step !== null) return claimTotpStep(db, row.id, step);
  const normalized = normalizeRecovery(code);
  if (normalized.length !== 10) return false;
  return consumeRecoveryCode(db, row.id, hashRecovery(normalized));
}

/** Turning it off needs a code too: a session left open on a shared computer must not be enough. */
export async function disableTotp(db: Db, store: FileStore, user: SessionUser, code: string, info: RequestInfo) {
  const row = await findUserById(db, user.id);
  if (!row?.totpEnabled) throw new AppError("CONFLICT", "Two-factor sign-in is not on");
  if (!(await verifySecondFactor(db, store, row, code))) throw new AppError("BAD_REQUEST", INVALID_CODE, "code");
  await db.transaction(async (tx) => {
    await disableTotpRow(tx, user.id);
    await recordAudit(tx, { action: "auth.totp_disabled", clinicId: user.clinicId, actorUserId: user.id, ...info });
  });
}

export async function totpStatus(db: Db, user: SessionUser) {
  const row = await findUserById(db, user.id);
  return {
    enabled: Boolean(row?.totpEnabled),
    recoveryCodesLeft: row?.totpEnabled ? row.recoveryCodeHashes.length : 0,
  };
}
