import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { type Report, reportSchema } from "../../../../domain/contracts/reports";
import { toast } from "../../components/ui/use-toast";
import { api } from "../../lib/api";
import { readSsoReauthReturn, type SsoReauthReturn, withoutSsoReauthReturn } from "./sso-reauth-return";

// Loaded only on a return from the provider: the signing dialog is not part of the first page load.
const SignDialog = lazy(async () => ({ default: (await import("./sign-dialog")).SignDialog }));

/**
 * On a return from the single sign-on provider's re-authentication: says whether it succeeded and opens the
 * signing dialog of the report that started it again, so the physician signs at once instead of starting over.
 */
export function SsoReauthReturnHost() {
  const [location, navigate] = useLocation();
  const [signing, setSigning] = useState<{ report: Report; back: SsoReauthReturn } | null>(null);
  useEffect(() => {
    const back = readSsoReauthReturn(window.location.search);
    if (!back) return;
    navigate(withoutSsoReauthReturn(`${location}${window.location.search}`), { replace: true });
    // The dialog says the outcome itself; without a report to reopen (or one signed meanwhile) a toast does.
    const tell = () => {
      toast({
        title: back.confirmed ? "Identity confirmed" : "Identity not confirmed",
        description: back.message,
        variant: back.confirmed ? "success" : "destructive",
      });
    };
    if (back.reportId === null) {
      tell();
      return;
    }
    api
      .get(`/api/reports/${back.reportId}`, reportSchema)
      .then((report) => (report.isFinalized ? tell() : setSigning({ report, back })))
      .catch(tell);
  }, [location, navigate]);
  if (!signing) return null;
  const { report, back } = signing;
  return (
    <Suspense fallback={null}>
      <SignDialog
        report={report}
        open
        onOpenChange={(open) => (open ? null : setSigning(null))}
        notice={{ text: back.message, tone: back.confirmed ? "success" : "problem" }}
      />
    </Suspense>
  );
}
