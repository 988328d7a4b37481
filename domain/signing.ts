/**
 * Who may sign (finalize) one report. Signing is the physician's act: only the user linked to the report's
 * physician signs, unless the clinic lets staff sign on the physician's behalf, and either way only after a
 * re-authentication within the last five minutes (signing in is not one).
 */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export const REAUTH_REQUIRED_MESSAGE = "Please confirm it is you (password or authenticator code) before signing";

export type SigningPhysician = { name: string; userId: string | null };

export type SigningFacts = {
  signerUserId: string;
  /** The report's physician; null when none is chosen. */
  physician: SigningPhysician | null;
  allowOnBehalf: boolean;
  /** When the signer last re-authenticated (ms since epoch), or null. */
  reauthAt: number | null | undefined;
  now: number;
};

export type SigningDecision =
  | { allowed: true; onBehalf: boolean }
  | { allowed: false; status: 403 | 428; reason: string };

export function isReauthFresh(reauthAt: number | null | undefined, now: number): boolean {
  return typeof reauthAt === "number" && reauthAt <= now && now - reauthAt < REAUTH_WINDOW_MS;
}

/** When the current re-authentication stops covering signatures, or null when there is none. */
export function reauthValidUntil(reauthAt: number | null | undefined, now: number): number | null {
  return isReauthFresh(reauthAt, now) ? (reauthAt as number) + REAUTH_WINDOW_MS : null;
}

export function signingDecision(facts: SigningFacts): SigningDecision {
  const { physician } = facts;
  if (!physician) {
    return {
      allowed: false,
      status: 403,
      reason: "Choose the report's physician before signing: only they can sign it",
    };
  }
  const isThePhysician = physician.userId !== null && physician.userId === facts.signerUserId;
  if (!isThePhysician && !facts.allowOnBehalf) {
    return {
      allowed: false,
      status: 403,
      reason:
        physician.userId === null
          ? `Only ${physician.name} can sign this report, and no user account is linked to ${physician.name} yet: an admin links one on the physician's card`
          : `Only ${physician.name} can sign this report`,
    };
  }
  if (!isReauthFresh(facts.reauthAt, facts.now)) {
    return { allowed: false, status: 428, reason: REAUTH_REQUIRED_MESSAGE };
  }
  return { allowed: true, onBehalf: !isThePhysician };
}

/** The words every signature block, export and audit entry uses. */
export function signatureLine(signerName: string, physicianName: string | null, onBehalf: boolean): string {
  return onBehalf && physicianName
    ? `Signed by ${signerName} on behalf of ${physicianName}`
    : `Signed by ${signerName}`;
}
