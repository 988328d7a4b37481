import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation } from "wouter";
import { type Report, reportSchema } from "../../../../domain/contracts/reports";
import { toast } from "../../components/ui/use-toast";
import { api } from "../../lib/api";
import { readSsoReauthReturn, withoutSsoReauthReturn } from "./sso-reauth-return";

// Loaded only on a return from the provider: the signing dialog is not part of the first page load.
const SignDialog = lazy(async () => ({ default: (await import("./sign-dialog")).SignDialog }));

/**
 * On a return from the single sign-on provider's re-authentication: says whether it succeeded and opens the
 * signing dialog of the report that started it again, so the physician signs at once instead of starting over.
 */
export function SsoReauthReturnHost() {
  const [location, navigate] = useLocation();
  const [report, setReport] = useState<Report | null>(null);
  useEffect(() => {
    const back = readSsoReauthReturn(window.location.search);
    if (!back) return;
    navigate(withoutSsoReauthReturn(`${location}${window.location.search}`), { replace: true });
    toast({
      title: back.confirmed ? "Identity confirmed" : "Identity not confirmed",
      description: back.message,
      variant: back.confirmed ? "success" : "destructive",
    });
    if (back.reportId === null) return;
    api
      .get(`/api/reports/${back.reportId}`, reportSchema)
      .then((found) => setReport(found.isFinalized ? null : found))
      .catch(() => setReport(null));
  }, [location, navigate]);
  if (!report) return null;
  return (
    <Suspense fallback={null}>
      <SignDialog report={report} open onOpenChange={(open) => (open ? null : setReport(null))} />
    </Suspense>
  );
}
