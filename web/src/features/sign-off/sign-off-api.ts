import { queryOptions } from "@tanstack/react-query";
import { reportSchema } from "../../../../domain/contracts/reports";
import {
  type SignOffQueue,
  type SignOffWorklist,
  signOffWorklistSchema,
  turnaroundReportSchema,
} from "../../../../domain/contracts/sign-off";
import { api } from "../../lib/api";
import { REPORTS_KEY } from "../reports/report-api";

// Under the reports key: every report change (save, signature, deletion) refreshes the worklist too.

export function worklistQuery() {
  return queryOptions({
    queryKey: [REPORTS_KEY, "sign-off"],
    queryFn: () => api.get("/api/reports/sign-off", signOffWorklistSchema),
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
    queryFn: () => api.get(`/api/reports/turnaround?${params}`, turnaroundReportSchema),
    staleTime: 0,
  });
}

export const reassign = (reportId: number, physicianId: number | null) =>
  api.send("PATCH", `/api/reports/${reportId}/physician`, { physicianId }, reportSchema);

/** Which queue a report sits in: its physician's id, or null for the unassigned drafts. */
export const queueKey = (queue: Pick<SignOffQueue, "physicianId">) => queue.physicianId;

export function queueIds(worklist: SignOffWorklist | undefined, key: number | null): number[] {
  return worklist?.queues.find((q) => q.physicianId === key)?.items.map((i) => i.id) ?? [];
}

/** "3 working days" / "1 working day". */
export const workingDaysText = (n: number) => `${n} working ${n === 1 ? "day" : "days"}`;

/** "75 %" for a share 0..1; "—" when there is nothing to share. */
export const percent = (share: number | null) => (share === null ? "—" : `${Math.round(share * 100)} %`);
