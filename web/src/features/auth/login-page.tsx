import { type FormEvent, useState } from "react";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, Input, Label } from "../../components/ui/input";
import { ApiError, apiRequest, errorMessage } from "../../lib/api";

type LoginBody = { email: string; password: string; totpCode?: string };

/** Why a provider (OpenID Connect) sign-in came back refused: /api/auth/oidc/callback sets ?error=. */
const providerErrors: Record<string, string> = {
  state: "The sign-in took too long or was started in another tab. Please try again.",
  provider: "The identity provider did not confirm the sign-in. Please try again.",
  email: "The identity provider did not share a verified e-mail address.",
  no_account:
    "There is no active Sonoscribe account for this e-mail address. Ask your clinic's admin for an invitation.",
};

/** Only a path on this site may follow sign-in (never another origin). */
export function safeNext(search: string): string {
  const next = new URLSearchParams(search).get("next");
  return next && /^\/(?![/\\])/.test(next) ? next : "/";
}

export function LoginPage() {
  const params = new URLSearchParams(window.location.search);
  // After a provider sign-in, a user with two-factor sign-in only gives their code here.
  const secondStepOnly = params.get("step") === "totp";
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [totpCode, setTotpCode] = useState("");
  const [needsTotp, setNeedsTotp] = useState(secondStepOnly);
  const [error, setError] = useState<string | null>(providerErrors[params.get("error") ?? ""] ?? null);
  const [pending, setPending] = useState(false);

  // Not a useMutation: the app-wide 401 handler ("Session Expired", then back to sign-in) must not
  // fire for a wrong password here, where a 401 is an ordinary answer.
  const signIn = async (body: LoginBody) => {
    setPending(true);
    try {
      // The answer (the user) is not read: the page reloads and asks for it (parsed) there. The contracts
      // stay out of the first page load this way.
      if (secondStepOnly) await apiRequest("POST", "/api/auth/totp/complete", { code: body.totpCode ?? "" });
      else await apiRequest("POST", "/api/auth/login", body);
      window.location.assign(safeNext(window.location.search));
    } catch (e) {
      setPending(false);
      const serverText = e instanceof ApiError ? e.serverMessage : null;
      if (e instanceof ApiError && e.code === "TOTP_REQUIRED") {
        setNeedsTotp(true);
        setError(needsTotp ? serverText : null);
        return;
      }
      if (secondStepOnly && e instanceof ApiError && e.status === 401) {
        setError("Your sign-in expired. Please start again.");
        return;
      }
      setError(errorMessage(e, "Sign-in failed. Please try again."));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    void signIn({ email, password, ...(needsTotp ? { totpCode } : {}) });
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4">
      <Card className="w-full max-w-sm">
        <CardHeader className="items-center text-center">
          <BrandMark className="h-10 w-10" />
          <CardTitle>
            <span className="text-xl">Sign in to Sonoscribe</span>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <form onSubmit={submit} className="grid gap-4" noValidate>
            {secondStepOnly ? null : (
              <>
                <div className="grid gap-1.5">
                  <Label htmlFor="email">Email Address</Label>
                  <Input
                    id="email"
                    type="email"
                    autoComplete="username"
                    required
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                  />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor="password">Password</Label>
                  <Input
                    id="password"
                    type="password"
                    autoComplete="current-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                  />
                </div>
              </>
            )}
            {needsTotp ? (
              <div className="grid gap-1.5">
                <Label htmlFor="totp">Authentication code</Label>
                <Input
                  id="totp"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  autoFocus
                  value={totpCode}
                  onChange={(e) => setTotpCode(e.target.value)}
                  aria-describedby="totp-help"
                />
                <p id="totp-help" className="text-xs text-slate-600">
                  The 6-digit code from your authenticator app, or a recovery code.
                </p>
              </div>
            ) : null}
            <FieldError>{error ?? undefined}</FieldError>
            <Button type="submit" disabled={pending}>
              {pending ? "Signing in..." : secondStepOnly ? "Continue" : "Sign In"}
            </Button>
          </form>
          {secondStepOnly ? null : (
            <p className="mt-4 text-center text-sm">
              <a className="font-medium text-brand-700 underline" href="/forgot-password">
                Forgot your password?
              </a>
            </p>
          )}
          <p className="mt-6 text-center text-sm text-slate-700">
            New clinic?{" "}
            <a className="font-medium text-brand-700 underline" href="/register-clinic">
              Register your clinic
            </a>
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
