import { useMutation, useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, ImageOff, UserX } from "lucide-react";
import { useId, useState } from "react";
import { z } from "zod";
import { physician } from "../../../../domain/contracts/physicians";
import type { SignOffItem, SignOffQueue } from "../../../../domain/contracts/sign-off";
import { Button } from "../../components/ui/button";
import { Badge, Card, EmptyState, Spinner } from "../../components/ui/card";
import { Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { errorMessage, useApiQuery } from "../../lib/api";
import { useAuth } from "../auth/use-auth";
import { formatDate, refreshReports } from "../reports/report-api";
import { ReportEditorDialog } from "../reports/report-editor";
import { reassign, workingDaysText, worklistQuery } from "./sign-off-api";
import { type QueueTarget, useQueueNavigation } from "./use-queue-navigation";

const waitedSince: Record<SignOffItem["waitingFrom"], string> = {
  exam: "since the exam",
  generated: "since it was generated (no exam date)",
  amended: "since it was amended",
};

/** "due today", "due in 2 working days" or "overdue by 1 working day", against the clinic's target. */
function dueText(item: SignOffItem, target: number): string {
  if (item.overdue) return `overdue by ${workingDaysText(item.workingDays - target)}`;
  const left = target - item.workingDays;
  return left === 0 ? "due today" : `due in ${workingDaysText(left)}`;
}

/**
 * "Awaiting my signature": a physician's home. Their drafts, oldest exam first; open one, check and edit it
 * beside its worksheet, sign it in the signing dialog, and the next draft opens. Admins see every queue and
 * hand drafts to another physician. Batch signing is deliberately absent: each report is read and signed alone.
 */
export function SignOffPage() {
  const { user } = useAuth();
  const worklist = useQuery(worklistQuery());
  const [open, setOpen] = useState<QueueTarget | null>(null);
  const data = worklist.data;
  const clinicWide = data?.scope === "clinic";
  const title = clinicWide ? "Awaiting signature" : "Awaiting my signature";
  const total = data?.queues.reduce((n, q) => n + q.items.length, 0) ?? 0;
  const overdue = data?.queues.reduce((n, q) => n + q.overdueCount, 0) ?? 0;

  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
        <p className="text-slate-700" aria-live="polite">
          {data
            ? `${total} ${total === 1 ? "draft" : "drafts"} to sign, ${overdue} overdue · target ${workingDaysText(data.targetDays)} after the exam`
            : "\u00a0"}
        </p>
        <p className="text-sm text-slate-700">
          Oldest exam first. Each report is opened, checked against its worksheet and signed on its own: there is no
          batch signing.
        </p>
      </header>

      {worklist.isLoading ? (
        <Spinner label="Loading the worklist..." />
      ) : worklist.isError || !data ? (
        <EmptyState title="The worklist could not be loaded">
          {errorMessage(worklist.error, "Failed to load the worklist")}
        </EmptyState>
      ) : data.scope === "mine" && data.myPhysicianId === null ? (
        <EmptyState title="Your account is not linked to a physician" icon={<UserX className="h-8 w-8" aria-hidden />}>
          Reports are signed by the physician they are assigned to. Ask a clinic admin to link your account on your
          physician card (Clinic, Physicians); your drafts then appear here.
        </EmptyState>
      ) : (
        <div className="grid gap-8" aria-busy={worklist.isFetching}>
          {data.queues.map((queue) => (
            <QueueSection
              key={queue.physicianId ?? "unassigned"}
              queue={queue}
              heading={clinicWide}
              targetDays={data.targetDays}
              canReassign={clinicWide && user?.role === "admin"}
              onOpen={(item, position) => setOpen({ queue: queue.physicianId, reportId: item.id, position })}
            />
          ))}
        </div>
      )}

      {open ? <QueueEditor target={open} onMove={setOpen} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

function QueueEditor({
  target,
  onMove,
  onClose,
}: {
  target: QueueTarget;
  onMove: (target: QueueTarget) => void;
  onClose: () => void;
}) {
  const nav = useQueueNavigation(target, onMove, () => {
    toast({ title: "All signed", description: "No draft is left in this queue.", variant: "success" });
    onClose();
  });
  // Signed: the report leaves the queue and the next draft opens in its place.
  return (
    <ReportEditorDialog reportId={target.reportId} nav={nav} onClose={onClose} onSigned={() => nav.afterDelete()} />
  );
}

function QueueSection({
  queue,
  heading,
  targetDays,
  canReassign,
  onOpen,
}: {
  queue: SignOffQueue;
  heading: boolean;
  targetDays: number;
  canReassign: boolean;
  onOpen: (item: SignOffItem, position: number) => void;
}) {
  const id = useId();
  const name = queue.physicianName ?? "Not assigned to a physician";
  const label = heading ? name : "Drafts awaiting my signature";
  return (
    <section aria-labelledby={heading ? `${id}-title` : undefined} className="grid gap-3">
      {heading ? (
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
            {name}
          </h2>
          <span className="text-sm text-slate-700">
            {queue.items.length} {queue.items.length === 1 ? "draft" : "drafts"}
            {queue.overdueCount > 0 ? `, ${queue.overdueCount} overdue` : ""}
            {queue.physicianId !== null && queue.signerUserId === null
              ? " · no account linked: nobody can sign these yet"
              : ""}
          </span>
        </div>
      ) : null}
      {queue.items.length === 0 ? (
        heading ? (
          <p className="text-sm text-slate-700">Nothing awaits a signature here.</p>
        ) : (
          <EmptyState title="Nothing awaits your signature" icon={<CheckCircle2 className="h-8 w-8" aria-hidden />}>
            Drafts assigned to you appear here as soon as they are generated, oldest exam first.
          </EmptyState>
        )
      ) : (
        <ol className="grid gap-3" aria-label={label}>
          {queue.items.map((item, index) => (
            <li key={item.id}>
              <DraftRow
                item={item}
                first={index === 0}
                targetDays={targetDays}
                canReassign={canReassign}
                onOpen={() => onOpen(item, index)}
              />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function DraftRow({
  item,
  first,
  targetDays,
  canReassign,
  onOpen,
}: {
  item: SignOffItem;
  first: boolean;
  targetDays: number;
  canReassign: boolean;
  onOpen: () => void;
}) {
  const id = useId();
  const patient = item.patientName || "Unnamed patient";
  return (
    <Card
      className={item.overdue ? "flex flex-wrap gap-4 border-l-4 border-l-red-700 p-4" : "flex flex-wrap gap-4 p-4"}
      aria-labelledby={`${id}-patient`}
      role="article"
    >
      <div className="flex h-28 w-20 shrink-0 items-center justify-center overflow-hidden rounded border border-slate-200 bg-slate-100">
        {item.worksheetImageUrl ? (
          <img
            src={item.worksheetImageUrl}
            alt={`Worksheet of ${patient}`}
            loading="lazy"
            className="h-full w-full object-cover object-top"
          />
        ) : (
          <span className="flex flex-col items-center gap-1 p-1 text-center text-xs text-slate-700">
            <ImageOff className="h-4 w-4" aria-hidden />
            No worksheet
          </span>
        )}
      </div>
      <div className="grid min-w-0 flex-1 basis-64 content-start gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={`${id}-patient`} className="text-base font-semibold text-slate-900">
            {patient}
          </h3>
          {item.overdue ? <Badge tone="red">Overdue</Badge> : null}
          {item.isAmended ? <Badge tone="yellow">Amended, sign again</Badge> : null}
        </div>
        <p className="text-sm text-slate-800">
          {item.studyType} · exam {formatDate(item.examDate)}
          {item.patientDob ? ` · born ${formatDate(item.patientDob)}` : ""}
          {item.mrn ? ` · MRN ${item.mrn}` : ""} · #{item.id}
        </p>
        <p className={item.overdue ? "text-sm font-medium text-red-800" : "text-sm text-slate-700"}>
          {workingDaysText(item.workingDays)} {waitedSince[item.waitingFrom]} ({item.calendarDays} calendar{" "}
          {item.calendarDays === 1 ? "day" : "days"}), {dueText(item, targetDays)}
        </p>
        {item.warnings.length > 0 ? (
          <details className="text-sm text-yellow-950">
            <summary className="flex cursor-pointer items-center gap-1 font-medium">
              <AlertTriangle className="h-4 w-4" aria-hidden />
              {item.warnings.length} {item.warnings.length === 1 ? "warning" : "warnings"} to check
            </summary>
            <ul className="mt-1 list-disc pl-6">
              {item.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </details>
        ) : (
          <p className="text-sm text-slate-700">No warnings</p>
        )}
      </div>
      <div className="flex w-full flex-wrap items-end gap-2 sm:w-auto sm:flex-col sm:items-stretch">
        <Button
          variant={first ? "default" : "outline"}
          onClick={onOpen}
          aria-label={`Open the report of ${patient} to check and sign`}
        >
          Open and sign
        </Button>
        {canReassign ? <ReassignControl item={item} patient={patient} /> : null}
      </div>
    </Card>
  );
}

/** An admin hands the draft to another physician (or leaves it unassigned). */
function ReassignControl({ item, patient }: { item: SignOffItem; patient: string }) {
  const id = useId();
  const physicians = useApiQuery(["/api/physicians"], z.array(physician));
  const [choice, setChoice] = useState(item.physicianId === null ? "" : String(item.physicianId));
  const move = useMutation({
    mutationFn: () => reassign(item.id, choice ? Number(choice) : null),
    onSuccess: (report) => {
      toast({
        title: "Report reassigned",
        description: report.physician
          ? `${patient}'s report now awaits ${report.physician.name}.`
          : `${patient}'s report is no longer assigned to a physician.`,
        variant: "success",
      });
      void refreshReports();
    },
    onError: (error) =>
      toast({
        title: "Reassign failed",
        description: errorMessage(error, "Failed to reassign"),
        variant: "destructive",
      }),
  });
  const unchanged = choice === (item.physicianId === null ? "" : String(item.physicianId));
  return (
    <div className="grid gap-1">
      <Label htmlFor={`${id}-physician`} className="text-xs">
        Assign {patient}'s report to
      </Label>
      <div className="flex gap-2">
        <Select
          id={`${id}-physician`}
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          className="h-8 py-0 text-sm"
        >
          <option value="">No physician</option>
          {(physicians.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
        <Button size="sm" variant="outline" disabled={unchanged || move.isPending} onClick={() => move.mutate()}>
          {move.isPending ? "Moving..." : "Reassign"}
        </Button>
      </div>
    </div>
  );
}
