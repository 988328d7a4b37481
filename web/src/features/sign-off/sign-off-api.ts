import { queryOptions } from "@tanstack/react-query";
import type { Report } from "../../../../domain/contracts/reports";
import type { SignOffQueue, SignOffWorklist, TurnaroundReport } from "../../../../domain/contracts/sign-off";
import { apiJson } from "../../lib/api";
import { REPORTS_KEY } from "../reports/report-api";

// Under the reports key: every report change (save, signature, deletion) refreshes the worklist too.

export function worklistQuery() {
  return queryOptions({
    queryKey: [REPORTS_KEY, "sign-off"],
    queryFn: () => apiJson<SignOffWorklist>("GET", "/api/reports/sign-off"),
    // The queue changes as colleagues sign and drafts arrive: fetched afresh each time the screen opens.
    staleTime: 0,
  });
}

export function turnaroundQuery(from: string, to: string) {
  const params = new URLSearchParams();
  if (from) params.set("from", from);
  if (to) params.set("to", to);
  return queryOptions({
    queryKey: [REPORTS_KEY, "turnaround", { from, to }],
    queryFn: () => apiJson<TurnaroundReport>("GET", `/api/reports/turnaround?${params}`),
    staleTime: 0,
  });
}

export const reassign = (reportId: number, physicianId: number | null) =>
  apiJson<Report>("PATCH", `/api/reports/${reportId}/physician`, { physicianId });

/** Which queue a report sits in: its physician's id, or null for the unassigned drafts. */
export const queueKey = (queue: Pick<SignOffQueue, "physicianId">) => queue.physicianId;

export function queueIds(worklist: SignOffWorklist | undefined, key: number | null): number[] {
  return worklist?.queues.find((q) => q.physicianId === key)?.items.map((i) => i.id) ?? [];
}

/** "3 working days" / "1 working day". */
export const workingDaysText = (n: number) => `${n} working ${n === 1 ? "day" : "days"}`;

/** "75 %" for a share 0..1; "—" when there is nothing to share. */
export const percent = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)} %`);
