import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { PhoneCall, Siren } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type CommunicationForm as CommunicationFormValues,
  type CriticalCommunication,
  communicationForm,
  communicationLine,
  communicationMethodLabels,
  communicationMethods,
  criticalCommunicationSchema,
  type RecordCommunicationRequest,
} from "../../../../domain/contracts/critical-communication";
import type { Report } from "../../../../domain/contracts/reports";
import { can } from "../../../../domain/permissions";
import { Button } from "../../components/ui/button";
import { Dialog, DialogClose, DialogContent } from "../../components/ui/dialog";
import { FieldError, Input, Label, Textarea } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api, errorMessage } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { useAuth } from "../auth/use-auth";
import { formatDateTime, refreshReports } from "./report-api";

// Issue 26 item 4: the report's critical results, the rule that flagged each, and the record of their
// communication. A record made here is seen at once by the banner and the signing dialog (a shared cache
// entry), whichever copy of the report they were given.

const recordsKey = (reportId: number) => ["critical-records", reportId];

/** The report's critical results with the records made on this screen since it was loaded. */
export function useCriticalState(report: Report) {
  const made = useQuery<CriticalCommunication[]>({
    queryKey: recordsKey(report.id),
    queryFn: () => queryClient.getQueryData<CriticalCommunication[]>(recordsKey(report.id)) ?? [],
    initialData: [],
    staleTime: Number.POSITIVE_INFINITY,
  });
  const known = new Set(report.criticalCommunications.map((c) => c.id));
  const records = [...report.criticalCommunications, ...made.data.filter((c) => !known.has(c.id))];
  const covered = new Set(records.flatMap((c) => c.results.map((r) => r.key)));
  const results = report.criticalResults.map((r) => ({ ...r, communicated: r.communicated || covered.has(r.key) }));
  const open = results.filter((r) => !r.communicated);
  return { results, records, open, blocksSigning: !report.isFinalized && open.length > 0 };
}

export function useMayRecordCommunication(): boolean {
  const { user } = useAuth();
  return Boolean(user && can(user.role, "report:communicate-critical"));
}

function recordLine(record: CriticalCommunication): string {
  return `${communicationLine(record, record.recordedByName ?? "an unknown user", formatDateTime(record.communicatedAt))}.`;
}

/** The banner above a report: what was flagged and why, what was recorded, and the button to record it. */
export function CriticalResultsBanner({ report }: { report: Report }) {
  const id = useId();
  const state = useCriticalState(report);
  const mayRecord = useMayRecordCommunication();
  const [recording, setRecording] = useState(false);
  if (state.results.length === 0 && state.records.length === 0) return null;
  const urgent = state.open.length > 0;
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`grid gap-2 rounded-md border p-3 text-sm ${urgent ? "border-red-300 bg-red-50 text-red-950" : "border-slate-300 bg-slate-50 text-slate-900"}`}
    >
      <h2 id={`${id}-title`} className="flex items-center gap-2 font-semibold">
        <Siren className="h-4 w-4 shrink-0" aria-hidden />
        {urgent ? "Critical result: communicate before signing" : "Critical result communicated"}
      </h2>
      <ul className="grid gap-1 pl-6">
        {state.results.map((r) => (
          <li key={r.key} className="list-disc">
            <span className="font-medium">{r.finding}</span>
            <span className="block">Rule: {r.ruleName}.</span>
            <span className="block">{r.communicated ? "Communicated." : "Not yet communicated."}</span>
          </li>
        ))}
      </ul>
      {state.records.length > 0 ? (
        <ul aria-label="Communication records" className="grid gap-1">
          {state.records.map((c) => (
            <li key={c.id}>
              {recordLine(c)}
              {c.notes ? ` Notes: ${c.notes}` : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {urgent ? (
        mayRecord ? (
          <Button size="sm" className="justify-self-start" onClick={() => setRecording(true)}>
            <PhoneCall className="h-4 w-4" aria-hidden />
            Record communication
          </Button>
        ) : (
          <p>A physician or an admin records the communication; tell the reporting physician now.</p>
        )
      ) : null}
      <CommunicationDialog report={report} open={recording} onOpenChange={setRecording} />
    </section>
  );
}

/** Now, as a datetime-local value in the browser's zone. */
function localNow(): string {
  const now = new Date();
  now.setSeconds(0, 0);
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The record: to whom, how, when, read back or not, and notes. By whom is the signed-in user. */
export function CommunicationDialog({
  report,
  open,
  onOpenChange,
}: {
  report: Report;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Record the communication"
          description="Who was told the critical result, how and when, and whether they read it back."
        >
          <CommunicationForm report={report} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

type FormValues = z.output<typeof communicationForm>;
const fields = ["recipient", "method", "communicatedAt", "readBack"] as const;

function CommunicationForm({ report, onDone }: { report: Report; onDone: () => void }) {
  const id = useId();
  const state = useCriticalState(report);
  const form = useForm<CommunicationFormValues, unknown, FormValues>({
    resolver: zodResolver(communicationForm),
    defaultValues: { recipient: "", communicatedAt: localNow(), notes: "" },
  });
  const { errors, isSubmitting: pending } = form.formState;

  const save = async (values: FormValues) => {
    try {
      const record = await api.send(
        "POST",
        `/api/reports/${report.id}/critical-communication`,
        {
          recipient: values.recipient,
          method: values.method,
          communicatedAt: new Date(values.communicatedAt).toISOString(),
          readBack: values.readBack === "yes",
          notes: values.notes.trim() || null,
        } satisfies RecordCommunicationRequest,
        criticalCommunicationSchema,
      );
      queryClient.setQueryData<CriticalCommunication[]>(recordsKey(report.id), (old = []) => [...old, record]);
      toast({ title: "Communication recorded", description: recordLine(record), variant: "success" });
      void refreshReports();
      onDone();
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.field : null;
      const named = fields.find((name) => name === field);
      if (named) form.setError(named, { message: errorMessage(failure) });
      else form.setError("root", { message: errorMessage(failure, "The communication could not be recorded") });
    }
  };
  const submit = (event: FormEvent) => {
    // The dialog may open inside the signing form: its submit must not bubble (through the portal) to that form.
    event.stopPropagation();
    void form.handleSubmit(save)(event);
  };
  const error = errors.root?.message;

  const described = (name: (typeof fields)[number]) => (errors[name] ? `${id}-${name}-error` : undefined);
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-950">
        <p className="font-semibold">Critical result</p>
        <ul className="list-disc pl-5">
          {state.results.map((r) => (
            <li key={r.key}>
              {r.finding} ({r.ruleName})
            </li>
          ))}
        </ul>
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-recipient`}>Communicated to</Label>
        <Input
          id={`${id}-recipient`}
          placeholder="Name and role, e.g. Dr A. Lee, referring physician"
          aria-invalid={errors.recipient ? true : undefined}
          aria-describedby={described("recipient")}
          {...form.register("recipient")}
        />
        <FieldError id={`${id}-recipient-error`}>{errors.recipient?.message}</FieldError>
      </div>
      <fieldset className="grid gap-1" aria-describedby={described("method")}>
        <legend className="text-sm font-medium text-slate-900">How</legend>
        <div className="flex flex-wrap gap-4">
          {communicationMethods.map((m) => (
            <div key={m} className="flex items-center gap-2">
              <input
                type="radio"
                id={`${id}-method-${m}`}
                value={m}
                {...form.register("method")}
                className="h-4 w-4 accent-blue-700"
              />
              <Label htmlFor={`${id}-method-${m}`}>{communicationMethodLabels[m]}</Label>
            </div>
          ))}
        </div>
        <FieldError id={`${id}-method-error`}>{errors.method?.message}</FieldError>
      </fieldset>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-when`}>When</Label>
        <Input
          id={`${id}-when`}
          type="datetime-local"
          aria-invalid={errors.communicatedAt ? true : undefined}
          aria-describedby={described("communicatedAt")}
          {...form.register("communicatedAt")}
        />
        <FieldError id={`${id}-communicatedAt-error`}>{errors.communicatedAt?.message}</FieldError>
      </div>
      <fieldset className="grid gap-1" aria-describedby={described("readBack")}>
        <legend className="text-sm font-medium text-slate-900">Did the recipient read the result back?</legend>
        <div className="flex flex-wrap gap-4">
          {(["yes", "no"] as const).map((v) => (
            <div key={v} className="flex items-center gap-2">
              <input
                type="radio"
                id={`${id}-readback-${v}`}
                value={v}
                {...form.register("readBack")}
                className="h-4 w-4 accent-blue-700"
              />
              <Label htmlFor={`${id}-readback-${v}`}>{v === "yes" ? "Yes, read back" : "No"}</Label>
            </div>
          ))}
        </div>
        <FieldError id={`${id}-readBack-error`}>{errors.readBack?.message}</FieldError>
      </fieldset>
      <div className="grid gap-1">
        <Label htmlFor={`${id}-notes`}>Notes (optional)</Label>
        <Textarea id={`${id}-notes`} rows={2} {...form.register("notes")} />
      </div>
      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Record communication"}
        </Button>
      </div>
    </form>
  );
}

/** In the signing dialog: why signing waits, and the way to record the communication from there. */
export function CriticalSigningBlock({ report }: { report: Report }) {
  const state = useCriticalState(report);
  const mayRecord = useMayRecordCommunication();
  const [recording, setRecording] = useState(false);
  if (!state.blocksSigning) return null;
  return (
    <div role="note" className="grid gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950">
      <p className="flex items-center gap-2 font-semibold">
        <Siren className="h-4 w-4 shrink-0" aria-hidden />
        Signing waits for the communication of a critical result
      </p>
      <ul className="list-disc pl-5">
        {state.open.map((r) => (
          <li key={r.key}>
            {r.finding} (rule: {r.ruleName})
          </li>
        ))}
      </ul>
      {mayRecord ? (
        <Button size="sm" type="button" className="justify-self-start" onClick={() => setRecording(true)}>
          <PhoneCall className="h-4 w-4" aria-hidden />
          Record communication
        </Button>
      ) : (
        <p>Only a physician or an admin can record it.</p>
      )}
      <CommunicationDialog report={report} open={recording} onOpenChange={setRecording} />
    </div>
  );
}
