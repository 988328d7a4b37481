import { useMutation } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import type { CurrentUser, TotpSetupResponse } from "../../../../domain/contracts/auth";
import {
  totpDisableResponse,
  totpEnableResponse,
  totpSetupResponse,
  totpStatusResponse,
} from "../../../../domain/contracts/auth";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/card";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";

function CodeField({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Authentication code</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      <FieldError id={`${id}-error`}>{error ?? undefined}</FieldError>
    </div>
  );
}

/**
 * Enrol: set-up (QR code and secret) -> confirm with a code -> the 10 recovery codes, shown once.
 * Turn off: with a current code or a recovery code.
 */
export function TwoFactorDialog({
  open,
  onOpenChange,
  user,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: CurrentUser;
}) {
  const status = useApiQuery(["/api/auth/totp"], totpStatusResponse, { enabled: open, staleTime: 0 });
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ["/api/auth/totp"] });
    await queryClient.invalidateQueries({ queryKey: ["/api/auth/user"] });
  };

  const begin = useMutation({
    mutationFn: () => api.send("POST", "/api/auth/totp/setup", undefined, totpSetupResponse),
    onSuccess: setSetup,
    onError: (e) => setError(errorMessage(e, "Could not start the set-up. Please try again.")),
  });
  const enable = useMutation({
    mutationFn: (value: string) => api.send("POST", "/api/auth/totp/enable", { code: value }, totpEnableResponse),
    onSuccess: async (result) => {
      setRecoveryCodes(result.recoveryCodes);
      setSetup(null);
      setCode("");
      toast({ title: "Two-factor sign-in is on", variant: "success" });
      await refresh();
    },
    onError: (e) => setError(errorMessage(e, "Invalid authentication code")),
  });
  const disable = useMutation({
    mutationFn: (value: string) => api.send("POST", "/api/auth/totp/disable", { code: value }, totpDisableResponse),
    onSuccess: async () => {
      setCode("");
      toast({ title: "Two-factor sign-in is off" });
      await refresh();
    },
    onError: (e) => setError(errorMessage(e, "Invalid authentication code")),
  });

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setSetup(null);
      setRecoveryCodes(null);
      setCode("");
      setError(null);
    }
  };

  const submit = (action: (value: string) => void) => (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!code.trim()) {
      setError("Enter the code from your authenticator app");
      return;
    }
    action(code.trim());
  };

  let body: ReactNode;
  if (recoveryCodes) {
    body = (
      <div className="grid gap-4">
        <p className="text-sm text-slate-700">
          Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown
          only now.
        </p>
        <ul className="grid grid-cols-2 gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-sm text-slate-900">
          {recoveryCodes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
        <div className="flex justify-end gap-2">
          <Button
            variant="outline"
            onClick={() =>
              navigator.clipboard
                .writeText(recoveryCodes.join("\n"))
                .then(() => toast({ title: "Copied to Clipboard" }))
                .catch(() => toast({ title: "Copy failed: select the codes and copy them", variant: "destructive" }))
            }
          >
            Copy codes
          </Button>
          <Button onClick={() => close(false)}>Done</Button>
        </div>
      </div>
    );
  } else if (status.isLoading) {
    body = <Spinner />;
  } else if (status.data?.enabled) {
    body = (
      <form className="grid gap-4" onSubmit={submit((v) => disable.mutate(v))} noValidate>
        <p className="text-sm text-slate-700">
          Two-factor sign-in is on. You have {status.data.recoveryCodesLeft} unused recovery codes. To turn it off,
          enter a code from your authenticator app or a recovery code.
        </p>
        <CodeField id="totp-disable-code" value={code} onChange={setCode} error={error} />
        <div className="flex justify-end">
          <Button type="submit" variant="destructive" disabled={disable.isPending}>
            {disable.isPending ? "Turning off..." : "Turn Off"}
          </Button>
        </div>
      </form>
    );
  } else if (setup) {
    body = (
      <form className="grid gap-4" onSubmit={submit((v) => enable.mutate(v))} noValidate>
        <p className="text-sm text-slate-700">
          Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator or
          1Password), then enter the 6-digit code it shows.
        </p>
        <img
          src={setup.qrDataUrl}
          alt="QR code to add Sonoscribe to your authenticator app"
          className="mx-auto h-48 w-48 rounded border border-slate-200"
        />
        <p className="text-xs text-slate-700">
          Cannot scan? Enter this key instead:{" "}
          <code className="break-all rounded bg-slate-100 px-1 py-0.5 text-slate-900">{setup.secret}</code>
        </p>
        <CodeField id="totp-enable-code" value={code} onChange={setCode} error={error} />
        <div className="flex justify-end">
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? "Checking..." : "Turn On"}
          </Button>
        </div>
      </form>
    );
  } else {
    body = (
      <div className="grid gap-4">
        <p className="text-sm text-slate-700">
          Two-factor sign-in asks for a code from your phone after your password, so a stolen password alone is not
          enough.
          {user.isPlatformAdmin ? " Platform administrators need it to use the Admin Panel." : ""}
        </p>
        <FieldError>{error ?? undefined}</FieldError>
        <div className="flex justify-end">
          <Button onClick={() => begin.mutate()} disabled={begin.isPending}>
            {begin.isPending ? "Preparing..." : "Set Up"}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title="Two-factor sign-in">{body}</DialogContent>
    </Dialog>
  );
}
