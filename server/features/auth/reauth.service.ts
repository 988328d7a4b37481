import type { ReauthRequest } from "../../../domain/contracts/signing";
import { AppError } from "../../../domain/errors";
import { reauthValidUntil } from "../../../domain/signing";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import type { SessionUser } from "../../platform/context";
import type { FileStore } from "../../platform/file-store";
import { verifyPassword } from "../../platform/passwords";
import { readSession, updateSessionData } from "../../platform/sessions";
import { findUserById } from "./auth.repository";
import { verifySecondFactor } from "./totp.service";

type RequestInfo = { ip?: string; requestId?: string };
export type ReauthDeps = { db: Db; fileStore: FileStore; oidcConfigured: boolean; now: () => number };

/** The time of the session's last re-authentication (ms), or null; read fresh, never from a cache. */
export async function sessionReauthAt(db: Db, token: string): Promise<number | null> {
  const session = await readSession(db, token);
  return session?.data.reauthAt ?? null;
}

export async function reauthStatusOf(deps: ReauthDeps, user: SessionUser, token: string) {
  const row = await findUserById(deps.db, user.id);
  const until = reauthValidUntil(await sessionReauthAt(deps.db, token), deps.now());
  return {
    reauthenticatedUntil: until === null ? null : new Date(until).toISOString(),
    methods: {
      password: Boolean(row?.passwordHash),
      totp: Boolean(row?.totpEnabled),
      // A fresh provider login proves the account only when the provider's subject is linked to it.
      oidc: deps.oidcConfigured && Boolean(row?.oidcSubject),
    },
  };
}

/** Stores the re-authentication on the session: it covers signatures for the next 5 minutes. */
export async function markReauthenticated(
  deps: Pick<ReauthDeps, "db" | "now">,
  user: Pick<SessionUser, "id" | "clinicId">,
  token: string,
  method: "password" | "totp" | "oidc",
  info: RequestInfo,
) {
  const session = await readSession(deps.db, token);
  if (!session || session.data.userId !== user.id) throw new AppError("UNAUTHORIZED", "Unauthorized");
  const reauthAt = deps.now();
  await deps.db.transaction(async (tx) => {
    await updateSessionData(tx, token, { ...session.data, reauthAt });
    await recordAudit(tx, {
      action: "auth.reauthenticated",
      clinicId: user.clinicId,
      actorUserId: user.id,
      details: { method },
      ...info,
    });
  });
  return reauthAt;
}

/**
 * Checks the password or a current authenticator code of the signed-in user. A wrong answer is audited and
 * answered 403 with the field (never 401: the session itself is fine and must not end).
 */
export async function reauthenticate(
  deps: ReauthDeps,
  user: SessionUser,
  token: string,
  body: ReauthRequest,
  info: RequestInfo,
) {
  const row = await findUserById(deps.db, user.id);
  if (!row?.isActive) throw new AppError("UNAUTHORIZED", "Unauthorized");
  const method = body.password !== undefined ? "password" : "totp";
  let valid: boolean;
  if (method === "password") {
    if (!row.passwordHash) {
      throw new AppError(
        "BAD_REQUEST",
        "Your account has no password: confirm with your authenticator code or your single sign-on provider",
        "password",
      );
    }
    valid = await verifyPassword(row.passwordHash, body.password!);
  } else {
    if (!row.totpEnabled) {
      throw new AppError("BAD_REQUEST", "Two-factor sign-in is not on for your account: use your password", "totp");
    }
    valid = await verifySecondFactor(deps.db, deps.fileStore, row, body.totp!);
  }
  if (!valid) {
    await deps.db.transaction((tx) =>
      recordAudit(tx, {
        action: "auth.reauth_failed",
        clinicId: user.clinicId,
        actorUserId: user.id,
        details: { method },
        ...info,
      }),
    );
    throw new AppError(
      "FORBIDDEN",
      method === "password" ? "That password is not correct" : "That authenticator code is not correct",
      method,
    );
  }
  await markReauthenticated(deps, user, token, method, info);
  return reauthStatusOf(deps, user, token);
}
