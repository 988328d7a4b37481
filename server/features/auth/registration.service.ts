import { createHash, randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import {
  REGISTRATION_COMPLETE_MESSAGE,
  REGISTRATION_SENT_MESSAGE,
  type RegisterClinicRequest,
} from "../../../domain/contracts/auth";
import { AppError } from "../../../domain/errors";
import type { Db } from "../../db/client";
import { clinicRegistrations } from "../../db/schema";
import { type Mail, type Mailer, readOutbox } from "../../platform/mailer";
import { hashPassword, verifyPassword } from "../../platform/passwords";
import { findUserByEmail } from "./auth.repository";
import { createClinicWithAdmin } from "./auth.service";

// Registration never says whether an address has an account (issue 25 item 13, decision 018). With e-mail set
// up it proves the address before anything exists; without, the clinic is created at once. Either way the answer
// is the same for every address, and only the mail sent to it says which case it was.

/** How long the mailed link works. */
export const REGISTRATION_LINK_HOURS = 24;
export const CONFIRM_PATH = "/register-clinic/confirm";

type RequestInfo = { ip?: string; requestId?: string };
export type RegistrationDeps = { db: Db; mailer: Mailer; now?: () => number };

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** The link in the mail: the token goes in the fragment, so it never reaches a server log or a Referer. */
export const confirmLink = (origin: string, token: string) => `${origin}${CONFIRM_PATH}#token=${token}`;

/** The token of the newest finish-registering link among mails (the demo seed and tests read the outbox). */
export function latestConfirmToken(mails: Array<{ text: string }>): string | null {
  for (const mail of [...mails].reverse()) {
    const match = mail.text.match(/\/register-clinic\/confirm#token=([A-Za-z0-9_-]+)/);
    if (match) return match[1]!;
  }
  return null;
}

/** The newest finish-registering token filed in a data directory's outbox for the address (no SMTP). */
export async function outboxConfirmToken(dataDir: string, email: string): Promise<string | null> {
  return latestConfirmToken(await readOutbox(dataDir, email));
}

function finishMail(input: RegisterClinicRequest, link: string, expiresAt: Date): Mail {
  return {
    to: input.email,
    subject: `Finish registering ${input.name} on Sonoscribe`,
    text: [
      `Someone, hopefully you, asked to register the clinic "${input.name}" on Sonoscribe with this e-mail address.`,
      "",
      `Finish registering (you will be asked for the password you chose): ${link}`,
      "",
      `The link works once and expires on ${expiresAt.toUTCString()}.`,
      "If you did not ask for this, ignore this e-mail: nothing is created until the link is opened.",
    ].join("\n"),
  };
}

function alreadyRegisteredMail(input: RegisterClinicRequest, origin: string): Mail {
  return {
    to: input.email,
    subject: "You already have a Sonoscribe account",
    text: [
      `Someone, hopefully you, asked to register the clinic "${input.name}" on Sonoscribe with this e-mail address.`,
      "This address already has an account, so no new clinic was created.",
      "",
      `Sign in: ${origin}/login`,
      "If you cannot sign in, an admin of your clinic or the operator of this Sonoscribe server can help.",
      "If you did not ask for this, ignore this e-mail: nothing has changed.",
    ].join("\n"),
  };
}

/**
 * Files a registration and mails the address: a link to finish it, or, when the address already has an
 * account, a note saying so with the way to sign in. The caller answers the same in both cases.
 */
export async function requestRegistration(
  deps: RegistrationDeps,
  input: RegisterClinicRequest,
  origin: string,
): Promise<{ expiresAt: Date }> {
  const now = deps.now?.() ?? Date.now();
  const expiresAt = new Date(now + REGISTRATION_LINK_HOURS * 3_600_000);
  // Hashed either way, so the answer takes as long for a known address as for a new one.
  const passwordHash = await hashPassword(input.password);
  await deps.db.delete(clinicRegistrations).where(lt(clinicRegistrations.expiresAt, new Date(now)));
  if (await findUserByEmail(deps.db, input.email)) {
    await deps.mailer.send(alreadyRegisteredMail(input, origin));
    return { expiresAt };
  }
  const token = randomBytes(32).toString("base64url");
  const { name, phone, address, city, state, zipCode, adminFirstName, adminLastName } = input;
  await deps.db.insert(clinicRegistrations).values({
    tokenHash: hashToken(token),
    email: input.email,
    passwordHash,
    details: { name, phone, address, city, state, zipCode, adminFirstName, adminLastName },
    expiresAt,
  });
  await deps.mailer.send(finishMail(input, confirmLink(origin, token), expiresAt));
  return { expiresAt };
}

/**
 * Without e-mail to prove the address (no SMTP_URL): the clinic and its admin are created now, or, when the address
 * already has an account, nothing is and its owner is told by mail (filed in the outbox). The caller answers the
 * same in both cases, so the answer says nothing about the address; signing in with the chosen password is the
 * next step in both.
 */
export async function registerAtOnce(
  deps: RegistrationDeps,
  input: RegisterClinicRequest,
  origin: string,
  info: RequestInfo,
): Promise<void> {
  // Hashed either way, so the answer takes as long for a known address as for a new one.
  const passwordHash = await hashPassword(input.password);
  const { email, password: _password, ...details } = input;
  try {
    await deps.db.transaction((tx) => createClinicWithAdmin(tx, email, passwordHash, details, info));
  } catch (error) {
    // A known address (also one registered a moment ago by a concurrent request).
    if (!(error instanceof AppError && error.code === "CONFLICT")) throw error;
    await deps.mailer.send(alreadyRegisteredMail(input, origin));
  }
}

export const registrationCompleteAnswer = (email: string, delivery: Mailer["delivery"]) => ({
  email,
  status: "registered" as const,
  delivery,
  message: REGISTRATION_COMPLETE_MESSAGE,
});

export const registrationAnswer = (email: string, delivery: Mailer["delivery"], expiresAt: Date) => ({
  email,
  status: "verification_sent" as const,
  delivery,
  message: REGISTRATION_SENT_MESSAGE,
  expiresAt: expiresAt.toISOString(),
});

export const LINK_UNUSABLE = "This registration link has expired or was already used: register again to get a new one";

/**
 * Opens a mailed link: with the password chosen at registration (so neither the mailbox alone nor the form
 * alone is enough), the clinic and its first admin are created in one transaction and the link is used up.
 */
export async function confirmRegistration(
  deps: RegistrationDeps,
  body: { token: string; password: string },
  info: RequestInfo,
) {
  const now = new Date(deps.now?.() ?? Date.now());
  const [pending] = await deps.db
    .select()
    .from(clinicRegistrations)
    .where(eq(clinicRegistrations.tokenHash, hashToken(body.token)));
  if (!pending || pending.expiresAt <= now) throw new AppError("NOT_FOUND", LINK_UNUSABLE);
  if (!(await verifyPassword(pending.passwordHash, body.password))) {
    throw new AppError("FORBIDDEN", "That is not the password you chose when registering", "password");
  }
  return deps.db.transaction(async (tx) => {
    const used = await tx
      .delete(clinicRegistrations)
      .where(eq(clinicRegistrations.id, pending.id))
      .returning({ id: clinicRegistrations.id });
    if (used.length === 0) throw new AppError("NOT_FOUND", LINK_UNUSABLE);
    // Only someone holding the mailed link gets this far, so a 409 for a taken address reveals nothing new.
    return createClinicWithAdmin(tx, pending.email, pending.passwordHash, pending.details, {
      ...info,
      emailProven: true,
    });
  });
}
