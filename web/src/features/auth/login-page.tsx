import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { FieldError, Input, Label } from "../../components/ui/input";
import { ApiError, apiJson, errorMessage } from "../../lib/api";

type LoginBody = { email: string; password: string; totpCode?: string };

export function LoginPage() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [totpCode, setTotpCode] = useState("");
  const [needsTotp, setNeedsTotp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const login = useMutation({
    mutationFn: (body: LoginBody) => apiJson("POST", "/api/auth/login", body),
    onSuccess: () => window.location.assign(new URLSearchParams(window.location.search).get("next") ?? "/"),
    onError: (e) => {
      const body = e instanceof ApiError ? e.serverMessage : null;
      if (e instanceof ApiError && e.bodyText.includes("TOTP_REQUIRED")) {
        setNeedsTotp(true);
        setError(needsTotp ? body : null);
        return;
      }
      setError(errorMessage(e, "Sign-in failed. Please try again."));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    login.mutate({ email, password, ...(needsTotp ? { totpCode } : {}) });
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
            <Button type="submit" disabled={login.isPending}>
              {login.isPending ? "Signing in..." : "Sign In"}
            </Button>
          </form>
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
