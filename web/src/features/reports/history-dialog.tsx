import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { z } from "zod";
import type { ReportDiff, VersionKind } from "../../../../domain/contracts/reports";
import { reportDiffSchema, reportVersionSummarySchema } from "../../../../domain/contracts/reports";
import { Badge, Spinner } from "../../components/ui/card";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Label, Select } from "../../components/ui/input";
import { api, errorMessage, useApiQuery } from "../../lib/api";
import { cn } from "../../lib/cn";
import { formatDateTime, REPORTS_KEY } from "./report-api";
import { ReportDeliveries } from "./report-deliveries";
import { VersionArchiveLine } from "./version-archive";

const kindLabels: Record<VersionKind, string> = {
  generated: "Generated",
  edited: "Edited",
  finalized: "Signed",
  amended: "Amended",
};
/** Versions that are signatures: each has an archive copy. */
const signedKinds = new Set<VersionKind>(["finalized", "amended"]);
const kindTone = { generated: "neutral", edited: "blue", finalized: "green", amended: "yellow" } as const;

const fieldLabels: Record<ReportDiff["fields"][number]["field"], string> = {
  patientName: "Patient Name",
  patientDob: "Date of Birth",
  examDate: "Exam Date",
  mrn: "MRN",
  referringPhysician: "Referring Physician",
  studyType: "Study Type",
  indication: "Indication",
  findings: "Findings",
  impression: "Impression",
};

function DiffView({ reportId, from, to }: { reportId: number; from: number; to: number }) {
  const diff = useQuery({
    queryKey: [REPORTS_KEY, reportId, "diff", from, to],
    queryFn: () => api.get(`/api/reports/${reportId}/diff?from=${from}&to=${to}`, reportDiffSchema),
  });
  if (diff.isLoading) return <Spinner label="Comparing versions..." />;
  if (diff.isError)
    return <p className="text-sm text-red-700">{errorMessage(diff.error, "Failed to compare versions")}</p>;
  const changed = diff.data?.fields.filter((f) => f.changed) ?? [];
  if (changed.length === 0)
    return <p className="text-sm text-slate-700">The text of these two versions is the same.</p>;
  return (
    <div className="grid gap-3">
      {changed.map((f) => (
        <section key={f.field} className="grid gap-1">
          <h4 className="text-sm font-semibold text-slate-900">{fieldLabels[f.field]}</h4>
          <pre className="overflow-x-auto whitespace-pre-wrap rounded-md border border-slate-200 bg-slate-50 p-2 font-sans text-sm">
            {f.parts.map((p, i) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: parts are a fixed sequence for one diff
                key={i}
                className={cn(
                  "block",
                  p.added && "bg-green-100 text-green-950",
                  p.removed && "bg-red-100 text-red-950 line-through",
                  !p.added && !p.removed && "text-slate-700",
                )}
              >
                {p.added ? <span className="sr-only">Added: </span> : null}
                {p.removed ? <span className="sr-only">Removed: </span> : null}
                {p.value}
              </span>
            ))}
          </pre>
        </section>
      ))}
    </div>
  );
}

/** Every saved state of a report (who, when, why) and the difference between two of them. */
export function HistoryDialog({
  reportId,
  onOpenChange,
}: {
  reportId: number | null;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const versions = useApiQuery([REPORTS_KEY, reportId, "versions"], z.array(reportVersionSummarySchema), {
    enabled: reportId !== null,
    // While an archive copy is being made (a job after the signature), look again now and then.
    refetchInterval: (query) => (query.state.data?.some((v) => v.archive?.status === "pending") ? 5000 : false),
  });
  const [from, setFrom] = useState(0);
  const [to, setTo] = useState(0);
  const list = versions.data ?? [];
  useEffect(() => {
    // Default comparison: the latest version against the one before it.
    const last = versions.data?.at(-1)?.versionNumber ?? 0;
    setTo(last);
    setFrom(Math.max(1, last - 1));
  }, [versions.data]);

  return (
    <Dialog open={reportId !== null} onOpenChange={onOpenChange}>
      <DialogContent title={`Report #${reportId ?? ""} history`} className="max-w-3xl">
        {versions.isLoading ? (
          <Spinner label="Loading history..." />
        ) : versions.isError ? (
          <p className="text-sm text-red-700">{errorMessage(versions.error, "Failed to load the history")}</p>
        ) : (
          <div className="grid gap-5">
            <ol className="grid gap-2" aria-label="Versions">
              {list.map((v) => (
                <li key={v.versionNumber} className="grid gap-1 rounded-md border border-slate-200 p-3 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold text-slate-900">Version {v.versionNumber}</span>
                    <Badge tone={kindTone[v.kind]}>
                      {kindLabels[v.kind]}
                      {v.amendmentNumber ? ` #${v.amendmentNumber}` : ""}
                    </Badge>
                    <span className="text-slate-700">
                      {v.createdBy ?? "Unknown user"}, {formatDateTime(v.createdAt)}
                    </span>
                  </div>
                  {v.reason ? <p className="text-slate-800">Reason: {v.reason}</p> : null}
                  {v.archive || signedKinds.has(v.kind) ? <VersionArchiveLine archive={v.archive ?? null} /> : null}
                </li>
              ))}
            </ol>
            {list.length > 1 ? (
              <section className="grid gap-3" aria-label="Compare versions">
                <h3 className="text-base font-semibold text-slate-900">Compare versions</h3>
                <div className="grid gap-3 sm:grid-cols-2">
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${id}-from`}>From version</Label>
                    <Select id={`${id}-from`} value={from} onChange={(e) => setFrom(Number(e.target.value))}>
                      {list.map((v) => (
                        <option key={v.versionNumber} value={v.versionNumber}>
                          {v.versionNumber} ({kindLabels[v.kind]})
                        </option>
                      ))}
                    </Select>
                  </div>
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${id}-to`}>To version</Label>
                    <Select id={`${id}-to`} value={to} onChange={(e) => setTo(Number(e.target.value))}>
                      {list.map((v) => (
                        <option key={v.versionNumber} value={v.versionNumber}>
                          {v.versionNumber} ({kindLabels[v.kind]})
                        </option>
                      ))}
                    </Select>
                  </div>
                </div>
                {reportId !== null && from > 0 && to > 0 ? <DiffView reportId={reportId} from={from} to={to} /> : null}
              </section>
            ) : null}
            {reportId !== null ? <ReportDeliveries reportId={reportId} /> : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
