// Coming back from the single sign-on provider's re-authentication (GET /api/auth/reauth/oidc): the server
// sends the browser to the page it left with ?reauth=ok, or ?reauth=<reason> when nothing was confirmed; the
// signing dialog adds ?sign=<report id> so the same report's dialog opens again (issue 26).

export type SsoReauthReturn = {
  confirmed: boolean;
  /** The report whose signing dialog started the confirmation, when known. */
  reportId: number | null;
  message: string;
};

const refusals: Record<string, string> = {
  not_you: "The single sign-on account is not the one signed in here, so nothing was confirmed.",
  not_fresh: "The single sign-on provider did not ask for your password again, so nothing was confirmed.",
  state: "The confirmation had expired or was already used. Start it again from the signing dialog.",
  provider: "The single sign-on provider did not answer. Try again, or confirm with your password.",
};

/** What the address says of a return from the provider; null when it is not one. */
export function readSsoReauthReturn(search: string): SsoReauthReturn | null {
  const params = new URLSearchParams(search);
  const outcome = params.get("reauth");
  if (!outcome) return null;
  const id = Number(params.get("sign"));
  const reportId = Number.isSafeInteger(id) && id > 0 ? id : null;
  if (outcome === "ok") {
    return {
      confirmed: true,
      reportId,
      message: "You confirmed it is you with your single sign-on provider: check the report and sign it.",
    };
  }
  return {
    confirmed: false,
    reportId,
    message: refusals[outcome] ?? "Nothing was confirmed. Try again, or confirm with your password.",
  };
}

/** The address without the return's parameters, so a reload does not open the dialog again. */
export function withoutSsoReauthReturn(pathAndSearch: string): string {
  const url = new URL(pathAndSearch, "http://x");
  url.searchParams.delete("reauth");
  url.searchParams.delete("sign");
  return `${url.pathname}${url.search}`;
}

/** Where the provider sends the browser back to: this page, with the report to sign. */
export function ssoReauthNext(pathAndSearch: string, reportId: number): string {
  const url = new URL(withoutSsoReauthReturn(pathAndSearch), "http://x");
  url.searchParams.set("sign", String(reportId));
  return `${url.pathname}${url.search}`;
}
