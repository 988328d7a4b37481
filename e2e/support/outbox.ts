// The e2e server sends no e-mail: it files every message in its data directory's outbox (decision 018), and
// start-e2e-server.mjs leaves the directory's path where the journeys can find it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { latestResetToken } from "../../server/features/auth/password-reset.service";
import { outboxConfirmToken } from "../../server/features/auth/registration.service";
import { readOutbox } from "../../server/platform/mailer";

/** Where start-e2e-server.mjs writes its data directory's path (one file per port). */
export const e2eDataDirPointer = (port: string | number) => path.join(os.tmpdir(), `sonoscribe-e2e-${port}.datadir`);

function e2eDataDir(): string {
  return fs.readFileSync(e2eDataDirPointer(process.env.E2E_PORT ?? 3210), "utf8").trim();
}

/** The token of the newest finish-registering link mailed to the address. */
export async function registrationToken(email: string): Promise<string | null> {
  return outboxConfirmToken(e2eDataDir(), email);
}

/** Every message filed for the address, oldest first. */
export const outboxFor = (email: string) => readOutbox(e2eDataDir(), email);

/** The token of the newest password-reset link mailed to the address. */
export async function resetToken(email: string): Promise<string | null> {
  return latestResetToken(await outboxFor(email));
}
