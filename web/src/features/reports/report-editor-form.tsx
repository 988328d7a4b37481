import { FileDown, FileText, Lock, Save, X } from "lucide-react";
import { useId, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { Button } from "../../components/ui/button";
import { Checkbox, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { cn } from "../../lib/cn";
import { TextShortcutsPanel } from "../templates/text-shortcuts-panel";
import { fieldsOf, formOf, type ReportForm, useReportMutations } from "./report-api";
import { DEFAULT_TEMPLATE_NAME, exportDocx, printReport, templateFor } from "./report-exports";
import { appendSnippet, ReportFields, type TextField } from "./report-fields";

const fieldNames: Record<TextField, string> = {
  indication: "Indication",
  findings: "Findings",
  impression: "Impression",
};

/** The editor's right half: template, fields, shortcuts, finalize-on-save and the actions. */
export function EditorForm({
  report,
  templates,
  scrollable,
  onClose,
  onAmend,
}: {
  report: Report;
  templates: ReportTemplate[] | undefined;
  scrollable: boolean;
  onClose: () => void;
  onAmend: () => void;
}) {
  const id = useId();
  const [form, setForm] = useState<ReportForm>(() => formOf(report));
  const [templateId, setTemplateId] = useState<string>(() => String(templateFor(report, templates)?.id ?? ""));
  const [finalize, setFinalize] = useState(false);
  const [shortcutField, setShortcutField] = useState<TextField | null>(null);
  const { update } = useReportMutations();
  const locked = report.isFinalized;
  const chosenTemplate = templateId ? Number(templateId) : null;
  const current: Report = { ...report, ...fieldsOf(form), templateId: chosenTemplate };

  const onInsert = (text: string) => {
    if (!shortcutField) return;
    const field = shortcutField;
    setForm((f) => ({ ...f, [field]: appendSnippet(f[field], text) }));
    toast({ title: "Text Inserted", description: `Added to ${fieldNames[field]}` });
  };

  return (
    <div className={cn("grid min-h-0 gap-4", scrollable && "lg:grid-rows-[1fr_auto]")}>
      <div className={cn("grid min-h-0 gap-4", scrollable && "lg:overflow-y-auto lg:pr-1")}>
        {locked ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-brand-800">
            <p className="flex items-center gap-2">
              <Lock className="h-4 w-4 shrink-0" aria-hidden />
              This report is finalized. Finalized reports can only be amended.
            </p>
            <Button size="sm" onClick={onAmend}>
              Amend Report
            </Button>
          </div>
        ) : null}
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-template`}>Template</Label>
          <Select
            id={`${id}-template`}
            value={templateId}
            onChange={(e) => setTemplateId(e.target.value)}
            disabled={locked}
          >
            <option value="">{DEFAULT_TEMPLATE_NAME}</option>
            {(templates ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        </div>
        <fieldset disabled={locked} className="grid gap-4 disabled:opacity-80">
          <legend className="sr-only">Report fields</legend>
          <ReportFields
            form={form}
            onChange={setForm}
            onShortcuts={locked ? undefined : (field) => setShortcutField((f) => (f === field ? null : field))}
            activeShortcutField={shortcutField}
          />
        </fieldset>
        {shortcutField && !locked ? (
          <section
            aria-label="Text Shortcuts"
            className="grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3"
          >
            <div className="flex items-center justify-between gap-2">
              <h3 className="text-base font-semibold text-slate-900">
                Text Shortcuts{" "}
                <span className="font-normal text-slate-700">· inserting into {fieldNames[shortcutField]}</span>
              </h3>
              <Button variant="ghost" size="sm" onClick={() => setShortcutField(null)} aria-label="Close shortcuts">
                <X className="h-4 w-4" aria-hidden />
              </Button>
            </div>
            <TextShortcutsPanel onInsert={onInsert} />
          </section>
        ) : null}
        {locked ? null : (
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <Checkbox id={`${id}-finalize`} checked={finalize} onChange={(e) => setFinalize(e.target.checked)} />
              <Label htmlFor={`${id}-finalize`}>Finalize this report (will add electronic signature timestamp)</Label>
            </div>
            <p className="pl-6 text-sm text-slate-700">The report will be electronically signed upon saving.</p>
          </div>
        )}
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-3">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button variant="outline" onClick={() => printReport(current, templates)}>
          <FileText className="h-4 w-4" aria-hidden />
          Export PDF
        </Button>
        <Button variant="outline" onClick={() => exportDocx(current, templates, "list")}>
          <FileDown className="h-4 w-4" aria-hidden />
          Export DOCX
        </Button>
        <Button
          disabled={locked || update.isPending}
          onClick={() =>
            update.mutate({
              id: report.id,
              body: { ...fieldsOf(form), templateId: chosenTemplate, ...(finalize ? { finalize: true } : {}) },
            })
          }
        >
          <Save className="h-4 w-4" aria-hidden />
          {update.isPending ? "Saving..." : "Save Changes"}
        </Button>
      </div>
    </div>
  );
}
