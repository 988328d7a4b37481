import { AlertTriangle } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent } from "../../components/ui/dialog";
import { Label, Textarea } from "../../components/ui/input";
import { fieldsOf, formOf, type ReportForm, useReportMutations } from "./report-api";
import { ReportFields } from "./report-fields";

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
  const id = useId();
  const [form, setForm] = useState<ReportForm | null>(null);
  const [reason, setReason] = useState("");
  const { amend } = useReportMutations((amended) => {
    onAmended?.(amended);
    onOpenChange(false);
  });

  useEffect(() => {
    if (open && report) {
      setForm(formOf(report));
      setReason("");
    }
  }, [open, report]);

  const blank = reason.trim() === "";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Amend Report"
        description={report ? `Report #${report.id} for ${report.patientName}` : undefined}
        className="max-w-3xl"
      >
        {report && form ? (
          <form
            className="grid gap-5"
            onSubmit={(e) => {
              e.preventDefault();
              if (blank) return;
              amend.mutate({ id: report.id, body: { ...fieldsOf(form), reason: reason.trim() } });
            }}
          >
            <div className="flex gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <p>
                Amending resets the finalization status: the report must be finalized (signed) again afterwards. The
                signed version stays in the report's history.
              </p>
            </div>
            <ReportFields form={form} onChange={setForm} />
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
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                placeholder="Why is this signed report being changed?"
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
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
