import { zodResolver } from "@hookform/resolvers/zod";
import { AlertTriangle } from "lucide-react";
import { useEffect, useId } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { amendReasonField, type Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Label, Textarea } from "../../components/ui/input";
import { fieldsOf, formOf, type ReportForm, useReportMutations } from "./report-api";
import { ReportFields } from "./report-fields";

/** The report's fields as edited (the server checks them) and the reason for the change. */
const amendForm = z.object({ fields: z.custom<ReportForm>(), reason: amendReasonField });
type AmendForm = z.input<typeof amendForm>;
type AmendValues = z.output<typeof amendForm>;

/** Amend Report (spec part 1, section 2): the fields plus a required reason that the audit trail keeps. */
export function AmendDialog({
  report,
  open,
  onOpenChange,
  onAmended,
}: {
  report: Report | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onAmended?: (report: Report) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Amend Report"
        description={report ? `Report #${report.id} for ${report.patientName}` : undefined}
        className="max-w-3xl"
      >
        {report && open ? <AmendReportForm report={report} onOpenChange={onOpenChange} onAmended={onAmended} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function AmendReportForm({
  report,
  onOpenChange,
  onAmended,
}: {
  report: Report;
  onOpenChange: (open: boolean) => void;
  onAmended?: (report: Report) => void;
}) {
  const id = useId();
  const form = useForm<AmendForm, unknown, AmendValues>({
    resolver: zodResolver(amendForm),
    defaultValues: { fields: formOf(report), reason: "" },
  });
  const { amend } = useReportMutations((amended) => {
    onAmended?.(amended);
    onOpenChange(false);
  });

  // A newer copy of the report while the dialog is open starts the amendment again from it.
  useEffect(() => {
    form.reset({ fields: formOf(report), reason: "" });
  }, [report, form]);

  const fields = useWatch({ control: form.control, name: "fields" });
  const reason = useWatch({ control: form.control, name: "reason" });
  const blank = reason.trim() === "";
  return (
    <form
      className="grid gap-5"
      onSubmit={form.handleSubmit((values) =>
        amend.mutate({ id: report.id, body: { ...fieldsOf(values.fields), reason: values.reason } }),
      )}
    >
      <div className="flex gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950">
        <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <p>
          Amending resets the finalization status: the report must be finalized (signed) again afterwards. The signed
          version stays in the report's history.
        </p>
      </div>
      <ReportFields form={fields} onChange={(next) => form.setValue("fields", next, { shouldDirty: true })} />
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-reason`}>
          Amendment Reason <span aria-hidden>*</span>
        </Label>
        <Textarea
          id={`${id}-reason`}
          rows={3}
          required
          aria-required="true"
          aria-describedby={`${id}-reason-note`}
          placeholder="Why is this signed report being changed?"
          {...form.register("reason")}
        />
        <p id={`${id}-reason-note`} className="text-sm text-slate-700">
          The reason is recorded in the audit trail and cannot be changed.
        </p>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={blank || amend.isPending}>
          {amend.isPending ? "Saving amendment..." : "Save Amendment"}
        </Button>
      </div>
    </form>
  );
}
