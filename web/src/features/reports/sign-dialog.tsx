import * as DialogPrimitive from "@radix-ui/react-dialog";
import { AlertTriangle, PenLine } from "lucide-react";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { clinicRecord } from "../../../../domain/contracts/clinic";
import { physician as physicianSchema } from "../../../../domain/contracts/physicians";
import { type Report, reportSchema } from "../../../../domain/contracts/reports";
import { type ReauthRequest, reauthStatus } from "../../../../domain/contracts/signing";
import { signatureLine } from "../../../../domain/signing";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Checkbox, FieldError, Input, Label } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { displayName, useAuth } from "../auth/use-auth";
import { CriticalSigningBlock, useCriticalState } from "./critical-results";
import { DateWarnings, needsDateConfirmation } from "./date-warnings";
import { formatDate, formatDateTime, refreshReports } from "./report-api";
import { ssoReauthNext } from "./sso-reauth-return";

const REAUTH_KEY = ["/api/auth/reauth"];

/** The server's code and field of a refusal (428 reauth_required, 403 on the password field, ...). */
function refusal(error: unknown): { code: string | null; field: string | null } {
  if (!(error instanceof ApiError)) return { code: null, field: null };
  try {
    const body = JSON.parse(error.bodyText) as { code?: string; field?: string };
    return { code: body.code ?? null, field: body.field ?? null };
  } catch {
    return { code: null, field: null };
  }
}

/** Who signs, for whom: said before the click, in the words the signature will carry. */
function useSigner(report: Report) {
  const { user } = useAuth();
  const physicians = useApiQuery(["/api/physicians"], z.array(physicianSchema));
  const clinic = useApiQuery(["/api/clinic"], clinicRecord);
  const physician = physicians.data?.find((p) => p.id === report.physicianId) ?? null;
  const isThePhysician = Boolean(user && physician?.userId === user.id);
  const onBehalf = !isThePhysician && Boolean(clinic.data?.allowSignOnBehalf);
  const name = user ? displayName(user) : "";
  return {
    physician,
    isThePhysician,
    onBehalf,
    mayTry: isThePhysician || onBehalf,
    line: physician ? signatureLine(name, physician.name, onBehalf) : null,
  };
}

/**
 * The act of signing: shows what is being signed and who signs it, asks for a re-authentication when the
 * last one is older than 5 minutes (signing in is not one), then finalizes. One dialog for the card's
 * checkbox, the preview's checkbox and the editor's box.
 */
export function SignDialog({
  report,
  open,
  onOpenChange,
  onSigned,
  datesAcknowledged = false,
  notice,
}: {
  report: Report;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSigned?: (report: Report) => void;
  /** The editor's confirmation of implausible dates, carried into the dialog (it can still be changed here). */
  datesAcknowledged?: boolean;
  /** Said first in the dialog, e.g. the outcome of a single sign-on confirmation it was reopened after. */
  notice?: { text: string; tone: "success" | "problem" };
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Sign this report"
          description="Your electronic signature makes the report final. Check what you sign."
          className="max-w-2xl"
        >
          <SignForm
            report={report}
            datesAcknowledged={datesAcknowledged}
            notice={notice}
            onDone={() => onOpenChange(false)}
            onSigned={onSigned}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function SignForm({
  report,
  datesAcknowledged,
  onDone,
  onSigned,
  notice,
}: {
  report: Report;
  datesAcknowledged: boolean;
  onDone: () => void;
  onSigned?: (report: Report) => void;
  notice?: { text: string; tone: "success" | "problem" };
}) {
  const id = useId();
  const datesNeedConfirmation = needsDateConfirmation(report);
  const [datesConfirmed, setDatesConfirmed] = useState(datesAcknowledged);
  const signer = useSigner(report);
  const critical = useCriticalState(report);
  const status = useApiQuery(REAUTH_KEY, reauthStatus, { staleTime: 0 });
  const fresh = Boolean(status.data?.reauthenticatedUntil);
  const [method, setMethod] = useState<"password" | "totp">("password");
  // The secret is the form's one field. Its check runs in the handler, after the ones above it on the screen
  // (critical result, dates, single sign-on), so that the first thing to fix is said first, as before.
  const form = useForm<{ secret: string }>({ defaultValues: { secret: "" } });
  const fieldError = form.formState.errors.secret?.message ?? null;
  const [needsReauth, setNeedsReauth] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const askSecret = !fresh || needsReauth;
  const canTotp = Boolean(status.data?.methods.totp);
  const canPassword = status.data?.methods.password ?? true;
  const chosen = canPassword ? method : "totp";
  const canOidc = Boolean(status.data?.methods.oidc);
  // An account that only signs in by single sign-on confirms at its provider: there is nothing to type here.
  const typesSecret = canPassword || canTotp;
  // The provider sends the browser back here with ?reauth=..., and SsoReauthReturnHost reopens this dialog.
  const oidcHref = `/api/auth/reauth/oidc?next=${encodeURIComponent(ssoReauthNext(window.location.pathname + window.location.search, report.id))}`;

  const submit = form.handleSubmit(async ({ secret }) => {
    setError(null);
    form.clearErrors("secret");
    if (critical.blocksSigning) {
      setError("Record the communication of the critical result before signing.");
      return;
    }
    if (datesNeedConfirmation && !datesConfirmed) {
      setError("Confirm the dates warned about above, or correct them in the editor, before signing.");
      return;
    }
    if (askSecret && !typesSecret) {
      setError("Confirm it is you with your single sign-on provider first (the link above).");
      return;
    }
    if (askSecret && !secret.trim()) {
      const message = chosen === "password" ? "Enter your password" : "Enter the code from your authenticator app";
      form.setError("secret", { message });
      return;
    }
    setPending(true);
    try {
      if (askSecret) {
        await api.send(
          "POST",
          "/api/auth/reauth",
          (chosen === "password" ? { password: secret } : { totp: secret }) satisfies ReauthRequest,
          reauthStatus,
        );
        form.resetField("secret");
        setNeedsReauth(false);
        await queryClient.invalidateQueries({ queryKey: REAUTH_KEY });
      }
      const signed = await api.send(
        "POST",
        `/api/reports/${report.id}/finalize`,
        datesNeedConfirmation && datesConfirmed ? { acknowledgeDateWarnings: true } : undefined,
        reportSchema,
      );
      toast({
        title: "Report Finalized",
        description: "Report has been electronically signed and finalized",
        variant: "success",
      });
      onSigned?.(signed);
      void refreshReports();
      onDone();
    } catch (failure) {
      const { code, field } = refusal(failure);
      if (code === "reauth_required") {
        setNeedsReauth(true);
        setError("Your confirmation has expired: confirm it is you again.");
      } else if (field === "password" || field === "totp") {
        form.setError("secret", { message: errorMessage(failure) });
      } else {
        setError(errorMessage(failure, "Failed to finalize report"));
      }
    } finally {
      setPending(false);
    }
  });

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      {notice ? (
        <p
          role="status"
          className={`rounded-md border p-2 text-sm ${notice.tone === "success" ? "border-green-200 bg-green-50 text-green-900" : "border-amber-300 bg-amber-50 text-amber-950"}`}
        >
          {notice.text}
        </p>
      ) : null}
      <section aria-labelledby={`${id}-what`} className="grid gap-2 rounded-md border border-slate-200 p-3 text-sm">
        <h3 id={`${id}-what`} className="font-semibold text-slate-900">
          What you are signing
        </h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-700">Patient</dt>
          <dd className="font-medium text-slate-900">{report.patientName || "Unnamed patient"}</dd>
          <dt className="text-slate-700">Date of birth</dt>
          <dd>{formatDate(report.patientDob)}</dd>
          <dt className="text-slate-700">Study</dt>
          <dd>
            {report.studyType}, exam {formatDate(report.examDate)}
          </dd>
          <dt className="text-slate-700">Report</dt>
          <dd>
            #{report.id}, last saved {formatDateTime(report.updatedAt)}
          </dd>
          <dt className="text-slate-700">Physician</dt>
          <dd>{signer.physician?.name ?? report.physician?.name ?? "None chosen"}</dd>
        </dl>
        <h4 className="mt-1 font-semibold text-slate-900">Impression</h4>
        <p className="max-h-40 overflow-y-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-slate-900">
          {report.impression || "(empty)"}
        </p>
        {report.warnings.length > 0 ? (
          <div className="flex gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-2 text-yellow-950">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            <div>
              <p className="font-semibold">Check before signing</p>
              <ul className="list-disc pl-5">
                {report.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </div>
          </div>
        ) : null}
      </section>

      <CriticalSigningBlock report={report} />

      {datesNeedConfirmation ? (
        <div className="grid gap-2">
          <DateWarnings id={`${id}-date-warnings`} patientDob={report.patientDob} examDate={report.examDate} />
          <div className="flex items-start gap-2">
            <Checkbox
              id={`${id}-dates-confirmed`}
              checked={datesConfirmed}
              onChange={(e) => setDatesConfirmed(e.target.checked)}
              aria-describedby={`${id}-date-warnings`}
            />
            <Label htmlFor={`${id}-dates-confirmed`}>
              I have checked the dates warned about above against the worksheet: they are right as entered
            </Label>
          </div>
        </div>
      ) : null}

      {signer.mayTry ? (
        <p className="flex items-start gap-2 text-sm text-slate-900">
          <PenLine className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            The signature will read: <strong>{signer.line}</strong>
          </span>
        </p>
      ) : (
        <p role="note" className="rounded-md border border-slate-300 bg-slate-50 p-2 text-sm text-slate-900">
          {signer.physician
            ? `Only ${signer.physician.name} can sign this report from their own account.`
            : "Choose the report's physician before signing: only they can sign it."}
        </p>
      )}

      {askSecret ? (
        <fieldset className="grid gap-2">
          <legend className="text-sm font-semibold text-slate-900">Confirm it is you</legend>
          {typesSecret ? (
            <>
              <p className="text-sm text-slate-700">
                Signing asks for your {chosen === "password" ? "password" : "authenticator code"} again, even though you
                are signed in. It covers your signatures for the next 5 minutes.
              </p>
              <Label htmlFor={`${id}-secret`}>{chosen === "password" ? "Password" : "Authenticator code"}</Label>
              <Input
                id={`${id}-secret`}
                type={chosen === "password" ? "password" : "text"}
                inputMode={chosen === "password" ? undefined : "numeric"}
                autoComplete={chosen === "password" ? "current-password" : "one-time-code"}
                {...form.register("secret")}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? `${id}-secret-error` : undefined}
              />
              <FieldError id={`${id}-secret-error`}>{fieldError ?? undefined}</FieldError>
            </>
          ) : null}
          {canOidc ? (
            <a className="justify-self-start text-sm font-medium text-brand-700 underline" href={oidcHref}>
              {typesSecret
                ? "Confirm with your single sign-on provider instead"
                : "Confirm with your single sign-on provider"}
            </a>
          ) : null}
          {canTotp && canPassword ? (
            <Button
              type="button"
              variant="link"
              className="justify-self-start px-0"
              onClick={() => {
                setMethod(method === "password" ? "totp" : "password");
                form.resetField("secret");
              }}
            >
              {method === "password" ? "Use my authenticator code instead" : "Use my password instead"}
            </Button>
          ) : null}
        </fieldset>
      ) : (
        <p className="text-sm text-slate-700">
          You confirmed it is you recently: this signature needs no password until{" "}
          {formatDateTime(status.data?.reauthenticatedUntil)}.
        </p>
      )}

      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          {error}
        </p>
      ) : null}

      <div className="flex flex-wrap justify-end gap-2">
        <DialogPrimitive.Close asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogPrimitive.Close>
        <Button type="submit" disabled={pending || !signer.mayTry || critical.blocksSigning}>
          {pending ? "Signing..." : "Sign report"}
        </Button>
      </div>
    </form>
  );
}
