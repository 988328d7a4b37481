import { useMutation, useQuery } from "@tanstack/react-query";
import { Send } from "lucide-react";
import {
  type DeliveryStatus,
  deliveryStatusLabels,
  destinationKindLabels,
  reportDeliveryList,
} from "../../../../domain/contracts/delivery";
import { can } from "../../../../domain/permissions";
import { Button } from "../../components/ui/button";
import { Badge, Spinner } from "../../components/ui/card";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { useAuth } from "../auth/use-auth";
import { formatDateTime } from "./report-api";

const tone: Record<DeliveryStatus, "neutral" | "green" | "yellow" | "blue" | "red"> = {
  pending: "yellow",
  sending: "blue",
  delivered: "green",
  failed: "red",
  superseded: "neutral",
};
const reasonLabels: Record<string, string> = {
  finalized: "signed",
  amended: "amendment signed",
  resend: "sent again",
};

/** Where the signed report was sent (FHIR servers, HL7 listeners), each delivery's state and last error (issue 28). */
export function ReportDeliveries({ reportId }: { reportId: number }) {
  const { user } = useAuth();
  const key = ["/api/reports", reportId, "deliveries"];
  const deliveries = useQuery({
    queryKey: key,
    queryFn: () => api.get(`/api/reports/${reportId}/deliveries`, reportDeliveryList),
    // While something is on its way, look again now and then.
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === "pending" || d.status === "sending") ? 5000 : false,
  });
  const resend = useMutation({
    mutationFn: (deliveryId: number) =>
      api.send("POST", `/api/reports/${reportId}/deliveries/${deliveryId}/resend`, undefined, reportDeliveryList),
    onSuccess: (list) => {
      queryClient.setQueryData(key, list);
      toast({ title: "Queued", description: "The report will be sent again shortly", variant: "success" });
    },
    onError: (err) =>
      toast({ title: "Error", description: errorMessage(err, "Failed to send again"), variant: "destructive" }),
  });
  const mayResend = user ? can(user.role, "delivery:manage") : false;

  return (
    <section className="grid gap-2" aria-labelledby={`deliveries-${reportId}`}>
      <h3 id={`deliveries-${reportId}`} className="text-base font-semibold text-slate-900">
        Sent to other systems
      </h3>
      {deliveries.isLoading ? (
        <Spinner label="Loading deliveries..." />
      ) : deliveries.isError ? (
        <p className="text-sm text-red-700">{errorMessage(deliveries.error, "Failed to load the deliveries")}</p>
      ) : (deliveries.data ?? []).length === 0 ? (
        <p className="text-sm text-slate-700">
          Not sent anywhere: a signed report is sent to the destinations an admin sets in Clinic Settings.
        </p>
      ) : (
        <ul className="grid gap-2" aria-label="Deliveries">
          {(deliveries.data ?? []).map((d) => (
            <li key={d.id} className="grid gap-1 rounded-md border border-slate-200 p-3 text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-slate-900">{d.destinationName}</span>
                <span className="text-slate-700">({destinationKindLabels[d.destinationKind]})</span>
                <Badge tone={tone[d.status]}>{deliveryStatusLabels[d.status]}</Badge>
                <span className="text-slate-700">
                  {reasonLabels[d.reason] ?? d.reason}, {formatDateTime(d.createdAt)}
                </span>
              </div>
              <p className="text-slate-700">
                {d.attempts === 1 ? "1 attempt" : `${d.attempts} attempts`}
                {d.deliveredAt ? `, delivered ${formatDateTime(d.deliveredAt)}` : ""}
                {d.nextAttemptAt && d.attempts > 0 ? `, next attempt ${formatDateTime(d.nextAttemptAt)}` : ""}
              </p>
              {d.lastError ? <p className="text-red-800">Last error: {d.lastError}</p> : null}
              {mayResend && (d.status === "delivered" || d.status === "failed") ? (
                <div>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={resend.isPending}
                    onClick={() => resend.mutate(d.id)}
                    aria-label={`Send again to ${d.destinationName}`}
                  >
                    <Send className="h-4 w-4" aria-hidden />
                    Send again
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
