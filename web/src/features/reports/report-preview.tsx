import { AlertTriangle, FileDown, FileText, Pencil, Printer, X } from "lucide-react";
import { useId, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle, EmptyState } from "../../components/ui/card";
import { Checkbox, Label } from "../../components/ui/input";
import { useKeptEdits } from "../../lib/use-kept-edits";
import { useAuth } from "../auth/use-auth";
import { AmendDialog } from "./amend-dialog";
import { CriticalResultsBanner } from "./critical-results";
import { fieldsOf, formOf, isFormChanged, type ReportForm, useReportMutations } from "./report-api";
import { ReportDocument } from "./report-document";
import { exportDocx, exportPdf, printReport, useClinicInfo, useTemplates } from "./report-exports";
import { ReportFields } from "./report-fields";
import { SignDialog } from "./sign-dialog";
import { UnsavedChangesDialog } from "./unsaved-changes-dialog";
import { keptReportName } from "./use-report-draft";
import { useUnsavedGuard } from "./use-unsaved-guard";

/** The engine's warnings stay beside the preview until the clinician dismisses them. */
function EngineWarnings({ report }: { report: Report }) {
  const [dismissedFor, setDismissedFor] = useState<number | null>(null);
  if (report.warnings.length === 0 || dismissedFor === report.id) return null;
  return (
    <aside
      aria-label="Warnings about this draft"
      className="grid gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950"
    >
      <div className="flex items-start justify-between gap-2">
        <p className="flex items-center gap-2 font-semibold">
          <AlertTriangle className="h-4 w-4" aria-hidden />
          Check before signing
        </p>
        <Button variant="ghost" size="sm" onClick={() => setDismissedFor(report.id)} className="text-yellow-950">
          <X className="h-4 w-4" aria-hidden />
          Dismiss
        </Button>
      </div>
      <ul className="list-disc space-y-1 pl-5">
        {report.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </aside>
  );
}

/** The Report Preview card of the Upload view (spec part 1, section 2). */
export function ReportPreview({ report: value, onChange }: { report: unknown; onChange: (report: unknown) => void }) {
  const report = (value ?? null) as Report | null;
  const id = useId();
  const templates = useTemplates();
  const clinic = useClinicInfo();
  // Edits belong to one report: a new report (new upload or generation) shows no stale edit form.
  const [editing, setEditing] = useState<{ id: number; form: ReportForm } | null>(null);
  const form = report && editing?.id === report.id ? editing.form : null;
  // Kept encrypted in the browser as typed, under the same name as the editor's, which offers them back.
  const { user } = useAuth();
  const kept = useKeptEdits<{ form: ReportForm }>(user?.id, keptReportName(report), report?.updatedAt ?? null);
  const setForm = (next: ReportForm | null) => {
    setEditing(report && next ? { id: report.id, form: next } : null);
    kept.keep(next ? { form: next } : null);
  };
  const [amending, setAmending] = useState(false);
  const { update } = useReportMutations((saved) => {
    onChange(saved);
    setForm(null);
  });
  const [signing, setSigning] = useState(false);
  const dirty = Boolean(report && form && isFormChanged(form, report));
  // Cancel discards on purpose (the spec); leaving the page with unsaved edits asks first.
  const unsaved = useUnsavedGuard(dirty);
  const save = (then?: () => void) => {
    if (report && form)
      update.mutate({ id: report.id, body: fieldsOf(form) }, { onSuccess: then, onError: unsaved.keepEditing });
  };

  return (
    <Card className="lg:sticky lg:top-4">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>Report Preview</CardTitle>
        {report ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => exportPdf(report, templates.data)}>
              <FileText className="h-4 w-4" aria-hidden />
              PDF
            </Button>
            <Button variant="outline" size="sm" onClick={() => exportDocx(report, templates.data, "preview")}>
              <FileDown className="h-4 w-4" aria-hidden />
              DOCX
            </Button>
            <Button variant="outline" size="sm" onClick={() => printReport(report, templates.data, clinic.data)}>
              <Printer className="h-4 w-4" aria-hidden />
              Print
            </Button>
          </div>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        {!report ? (
          <EmptyState title="No report yet" icon={<FileText className="h-8 w-8" aria-hidden />}>
            Upload a worksheet, check the patient details, choose the reporting physician and select Generate Report.
          </EmptyState>
        ) : (
          <>
            <CriticalResultsBanner report={report} />
            <EngineWarnings report={report} />
            <div className="flex flex-wrap items-center justify-between gap-3">
              <div className="flex items-center gap-2">
                <Checkbox
                  id={`${id}-finalize`}
                  checked={report.isFinalized || signing}
                  disabled={report.isFinalized || signing || form !== null}
                  aria-describedby={report.isFinalized ? `${id}-finalized-note` : undefined}
                  onChange={(e) => {
                    if (e.target.checked) setSigning(true);
                  }}
                />
                <Label htmlFor={`${id}-finalize`}>Finalize Report</Label>
                {report.isFinalized ? (
                  <span id={`${id}-finalized-note`} className="text-sm text-slate-700">
                    (finalized reports can only be amended)
                  </span>
                ) : null}
              </div>
              {form ? null : report.isFinalized ? (
                <Button variant="outline" size="sm" onClick={() => setAmending(true)}>
                  <Pencil className="h-4 w-4" aria-hidden />
                  Amend
                </Button>
              ) : (
                <Button variant="outline" size="sm" onClick={() => setForm(formOf(report))}>
                  <Pencil className="h-4 w-4" aria-hidden />
                  Edit
                </Button>
              )}
            </div>
            {form ? (
              <form
                className="grid gap-4 rounded-md border border-slate-200 p-4"
                aria-label="Edit report"
                onSubmit={(e) => {
                  e.preventDefault();
                  save();
                }}
              >
                <ReportFields form={form} onChange={setForm} rows={{ indication: 2, findings: 6, impression: 4 }} />
                <div className="flex justify-end gap-2">
                  <Button variant="outline" onClick={() => setForm(null)}>
                    Cancel
                  </Button>
                  <Button type="submit" disabled={update.isPending}>
                    {update.isPending ? "Saving..." : "Save"}
                  </Button>
                </div>
              </form>
            ) : (
              <ReportDocument report={report} clinic={clinic.data} />
            )}
          </>
        )}
      </CardContent>
      <AmendDialog report={report} open={amending} onOpenChange={setAmending} onAmended={onChange} />
      {report ? <SignDialog report={report} open={signing} onOpenChange={setSigning} onSigned={onChange} /> : null}
      <UnsavedChangesDialog
        open={unsaved.asking}
        saving={update.isPending}
        onKeepEditing={unsaved.keepEditing}
        onDiscard={() => {
          setForm(null);
          unsaved.proceed();
        }}
        onSave={() => save(unsaved.proceed)}
      />
    </Card>
  );
}
