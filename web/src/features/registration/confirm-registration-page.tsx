import { useMutation } from "@tanstack/react-query";
import { CheckCircle2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { registrationConfirmed } from "../../../../domain/contracts/auth";
import { BrandMark } from "../../app/brand-mark";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader } from "../../components/ui/card";
import { FieldError, Input, Label } from "../../components/ui/input";
import { api, errorMessage } from "../../lib/api";

/** The token from the mailed link's fragment (#token=...): it never travels to a server log. */
const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";

/** The page the finish-registering link opens: the password chosen at registration creates the clinic. */
export function ConfirmRegistrationPage() {
  const [token] = useState(tokenFromHash);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const confirm = useMutation({
    mutationFn: () => api.send("POST", "/api/clinics/register/confirm", { token, password }, registrationConfirmed),
    onError: (e) => setError(errorMessage(e, "Registration could not be finished. Please try again.")),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError("Enter the password you chose when registering");
      document.getElementById("confirm-password")?.focus();
      return;
    }
    setError(null);
    confirm.mutate();
  };

  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8 sm:py-12">
      <div className="mx-auto max-w-md">
        <a href="/" className="mb-6 inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline">
          <BrandMark className="h-6 w-6" /> Back to Home
        </a>
        {confirm.isSuccess ? (
          <Card>
            <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
              <CheckCircle2 className="h-12 w-12 text-green-700" aria-hidden />
              <h1 className="text-2xl font-semibold text-slate-900">Registration Complete!</h1>
              <p className="text-slate-700">
                Your clinic is registered and you are signed in as {confirm.data.email}. Invite your staff from the
                Clinic tab.
              </p>
              {/* A full navigation: the app starts again with the new session. */}
              <Button asChild>
                <a href="/">Go to Dashboard</a>
              </Button>
            </CardContent>
          </Card>
        ) : (
          <Card>
            <CardHeader>
              <h1 className="text-2xl font-semibold text-slate-900">Finish registering</h1>
              <p className="text-sm text-slate-700">
                Enter the password you chose on the registration form. Your clinic and your admin account are created
                now.
              </p>
            </CardHeader>
            <CardContent>
              {token ? (
                <form onSubmit={submit} noValidate className="grid gap-4">
                  <div className="grid gap-1.5">
                    <Label htmlFor="confirm-password">Password</Label>
                    <Input
                      id="confirm-password"
                      type="password"
                      autoComplete="current-password"
                      value={password}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? "confirm-password-error" : undefined}
                      onChange={(e) => {
                        setPassword(e.target.value);
                        setError(null);
                      }}
                    />
                    <FieldError id="confirm-password-error">{error ?? undefined}</FieldError>
                  </div>
                  <Button type="submit" disabled={confirm.isPending}>
                    {confirm.isPending ? "Finishing..." : "Finish Registration"}
                  </Button>
                </form>
              ) : (
                <p role="alert" className="text-slate-800">
                  This link is incomplete. Open the whole link from the e-mail, or{" "}
                  <a href="/register-clinic" className="font-medium text-brand-700 underline">
                    register again
                  </a>
                  .
                </p>
              )}
            </CardContent>
          </Card>
        )}
      </div>
    </main>
  );
}
