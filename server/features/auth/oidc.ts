import * as client from "openid-client";
import type { Config } from "../../config";
import type { Db } from "../../db/client";
import { recordAudit } from "../../platform/audit";
import { createSession, destroySession, readSession } from "../../platform/sessions";
import { findUserByEmail, findUserByOidcSubject, linkOidcSubject } from "./auth.repository";

type OidcConfig = NonNullable<Config["oidc"]>;

export const OIDC_FLOW_COOKIE = "oidc_flow";
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
/** The provider round trip must finish within this time. */
const FLOW_MINUTES = 10;

/** Why a provider sign-in was refused; the sign-in page shows a sentence for each. */
export type OidcRefusal = "state" | "provider" | "email" | "no_account" | "not_you" | "not_fresh";

/**
 * Clock skew allowed between the provider and this server when judging that a re-authentication's login happened
 * after it was asked for (auth_time).
 */
export const AUTH_TIME_SKEW_SECONDS = 30;

export class OidcRefused extends Error {
  constructor(readonly reason: OidcRefusal) {
    super(`OIDC sign-in refused: ${reason}`);
  }
}

/** Discovers the provider once per app; plain http is allowed only for a provider on this machine (tests, dev). */
export function createOidcClient(oidc: OidcConfig) {
  let discovered: Promise<client.Configuration> | null = null;
  const configuration = () => {
    if (!discovered) {
      const server = new URL(oidc.issuerUrl);
      const local = server.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(server.hostname);
      discovered = client
        .discovery(server, oidc.clientId, oidc.clientSecret, undefined, {
          execute: local ? [client.allowInsecureRequests] : [],
        })
        .catch((error: unknown) => {
          discovered = null; // try again on the next sign-in rather than caching the failure
          throw error;
        });
    }
    return discovered;
  };

  return {
    /**
     * The provider URL to send the browser to, and the flow token for the short-lived flow cookie. With `reauth`
     * the provider is asked for a fresh login (prompt=login, max_age=0) of that user, before signing.
     */
    async start(db: Db, origin: string, reauth?: { userId: string; startedAt: number; next: string }) {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${origin}${OIDC_CALLBACK_PATH}`,
        scope: "openid email profile",
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        state,
        nonce,
        ...(reauth ? { prompt: "login", max_age: "0" } : {}),
      });
      // The flow lives in the sessions table under its own cookie: no user yet, and nothing to sign.
      const { token } = await createSession(
        db,
        { userId: "", oidc: { state, codeVerifier, nonce, ...(reauth ? { reauth } : {}) } },
        { idleMinutes: FLOW_MINUTES, maxHours: 1 },
      );
      return { url: url.href, flowToken: token };
    },

    /**
     * Completes the code exchange (state, PKCE and nonce checked) and links the provider's subject to an
     * existing active user by e-mail. Never creates users or clinics: people join by registration or invitation.
     */
    async complete(db: Db, flowToken: string | undefined, currentUrl: URL, info: { ip?: string; requestId?: string }) {
      const { claims, reauth } = await exchange(db, flowToken, currentUrl);
      if (reauth) throw new OidcRefused("state"); // a re-authentication flow never signs anyone in
      const email = typeof claims.email === "string" ? claims.email.toLowerCase() : null;
      if (!email || claims.email_verified === false) throw new OidcRefused("email");
      const bySubject = await findUserByOidcSubject(db, claims.sub);
      const user = bySubject ?? (await findUserByEmail(db, email));
      const linkable = user?.isActive && (user.oidcSubject === null || user.oidcSubject === claims.sub);
      if (!user || !linkable) {
        await db.transaction((tx) =>
          recordAudit(tx, {
            action: "auth.sign_in_failed",
            clinicId: user?.clinicId ?? null,
            actorUserId: user?.id ?? null,
            details: { method: "oidc", reason: !user ? "unknown_email" : !user.isActive ? "inactive" : "subject" },
            ...info,
          }),
        );
        throw new OidcRefused("no_account");
      }
      if (user.oidcSubject === null) await linkOidcSubject(db, user.id, claims.sub);
      return user;
    },

    /**
     * Completes a re-authentication flow for the signed-in user: the provider's subject must be the one linked to
     * that account, and its login (auth_time) must have happened after the flow began, not an earlier sign-in
     * the provider remembered. Answers the user's id and where to go back to.
     */
    async completeReauth(db: Db, flowToken: string | undefined, currentUrl: URL, signedInUserId: string | null) {
      const { claims, reauth } = await exchange(db, flowToken, currentUrl);
      if (!reauth) throw new OidcRefused("state");
      if (signedInUserId !== reauth.userId) throw new OidcRefused("not_you");
      const user = await findUserByOidcSubject(db, claims.sub);
      if (!user || user.id !== reauth.userId || !user.isActive) throw new OidcRefused("not_you");
      const authTime = typeof claims.auth_time === "number" ? claims.auth_time : null;
      if (authTime === null || authTime < Math.floor(reauth.startedAt / 1000) - AUTH_TIME_SKEW_SECONDS) {
        throw new OidcRefused("not_fresh");
      }
      return reauth;
    },
  };

  /** The code exchange shared by sign-in and re-authentication: flow cookie, state, PKCE and nonce checked. */
  async function exchange(db: Db, flowToken: string | undefined, currentUrl: URL) {
    const flow = flowToken ? await readSession(db, flowToken) : null;
    if (flowToken) await destroySession(db, flowToken);
    const expected = flow?.data.oidc;
    if (!expected || currentUrl.searchParams.get("state") !== expected.state) throw new OidcRefused("state");
    let claims: client.IDToken | undefined;
    try {
      const tokens = await client.authorizationCodeGrant(await configuration(), currentUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch {
      throw new OidcRefused("provider");
    }
    if (!claims) throw new OidcRefused("provider");
    return { claims, reauth: expected.reauth ?? null };
  }
}
