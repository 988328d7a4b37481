import { FileDown, FileText, Lock, Save, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { Button } from "../../components/ui/button";
import { Checkbox, Label, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { cn } from "../../lib/cn";
import { TextShortcutsPanel } from "../templates/text-shortcuts-panel";
import { DateWarnings, needsDateConfirmation } from "./date-warnings";
import { fieldsOf } from "./report-api";
import { DEFAULT_TEMPLATE_NAME, exportDocx, printReport, useClinicInfo } from "./report-exports";
import { appendSnippet, ReportFields, type TextField } from "./report-fields";
import { type ReportDraft, savedTemplateId } from "./use-report-draft";

const fieldNames: Record<TextField, string> = {
  indication: "Indication",
  findings: "Findings",
  impression: "Impression",
};

/** The Text Shortcuts panel under the chosen field; it scrolls itself into view when it opens. */
function ShortcutsSection({
  id,
  fieldName,
  onInsert,
  onClose,
}: {
  id: string;
  fieldName: string;
  onInsert: (text: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  // Braces: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.
  useEffect(() => {
    ref.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <section
      ref={ref}
      id={id}
      aria-label="Text Shortcuts"
      className="mt-1 grid gap-3 rounded-md border border-slate-200 bg-slate-50 p-3"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-slate-900">
          Text Shortcuts <span className="font-normal text-slate-700">· inserting into {fieldName}</span>
        </h3>
        <Button variant="ghost" size="sm" onClick={onClose} aria-label="Close shortcuts">
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      <TextShortcutsPanel onInsert={onInsert} />
    </section>
  );
}

/** The editor's right half: template, fields, shortcuts, finalize-on-save and the actions. */
export function EditorForm({
  report,
  draft,
  onChange,
  templates,
  scrollable,
  saving,
  onSave,
  onClose,
  onAmend,
}: {
  report: Report;
  draft: ReportDraft;
  onChange: (next: Partial<ReportDraft>) => void;
  templates: ReportTemplate[] | undefined;
  scrollable: boolean;
  saving: boolean;
  onSave: () => void;
  onClose: () => void;
  onAmend: () => void;
}) {
  const id = useId();
  const [shortcutField, setShortcutField] = useState<TextField | null>(null);
  const clinic = useClinicInfo();
  const { form, finalize } = draft;
  const templateId = draft.templateId ?? savedTemplateId(report, templates);
  const locked = report.isFinalized;
  const datesNeedConfirmation = needsDateConfirmation({
    patientDob: form.patientDob || null,
    examDate: form.examDate || null,
  });
  // What the exports print: the report as it stands in the form, saved or not.
  const current: Report = { ...report, ...fieldsOf(form), templateId: templateId ? Number(templateId) : null };

  const onInsert = (text: string) => {
    if (!shortcutField) return;
    onChange({ form: { ...form, [shortcutField]: appendSnippet(form[shortcutField], text, shortcutField) } });
    toast({ title: "Text Inserted", description: `Added to ${fieldNames[shortcutField]}` });
  };

  return (
    // Only the two-column fullscreen layout scrolls the fields on their own; elsewhere a zero minimum height
    // would let the fields shrink under the action bar instead of scrolling with the editor.
    <div className={cn("grid gap-4", scrollable && "lg:min-h-0 lg:grid-rows-[1fr_auto]")}>
      <div className={cn("grid gap-4", scrollable && "lg:min-h-0 lg:overflow-y-auto lg:pr-1")}>
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
            onChange={(e) => onChange({ templateId: e.target.value })}
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
            onChange={(next) => onChange({ form: next })}
            onShortcuts={locked ? undefined : (field) => setShortcutField((f) => (f === field ? null : field))}
            activeShortcutField={shortcutField}
            panel={(panelId) => (
              <ShortcutsSection
                id={panelId}
                fieldName={shortcutField ? fieldNames[shortcutField] : ""}
                onInsert={onInsert}
                onClose={() => setShortcutField(null)}
              />
            )}
          />
        </fieldset>
        {locked ? null : (
          <DateWarnings id={`${id}-date-warnings`} patientDob={form.patientDob} examDate={form.examDate} />
        )}
        {locked ? null : (
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <Checkbox
                id={`${id}-finalize`}
                checked={finalize}
                onChange={(e) => onChange({ finalize: e.target.checked })}
                aria-describedby={`${id}-finalize-note`}
              />
              <Label htmlFor={`${id}-finalize`}>Finalize this report (will add electronic signature timestamp)</Label>
            </div>
            <p id={`${id}-finalize-note`} className="pl-6 text-sm text-slate-700">
              Saving then opens the signing dialog: you check what you sign and confirm it is you.
            </p>
            {finalize && datesNeedConfirmation ? (
              <div className="flex items-start gap-2 pl-6">
                <Checkbox
                  id={`${id}-dates-confirmed`}
                  checked={draft.acknowledgeDateWarnings === true}
                  onChange={(e) => onChange({ acknowledgeDateWarnings: e.target.checked })}
                  aria-describedby={`${id}-date-warnings`}
                />
                <Label htmlFor={`${id}-dates-confirmed`}>
                  I have checked the dates warned about above against the worksheet: they are right as entered
                </Label>
              </div>
            ) : null}
          </div>
        )}
      </div>
      {/* Sticky, so Save Changes stays in reach while a long report scrolls. */}
      <div className="sticky bottom-0 flex flex-wrap justify-end gap-2 border-t border-slate-200 bg-white py-3">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button variant="outline" onClick={() => printReport(current, templates, clinic.data)}>
          <FileText className="h-4 w-4" aria-hidden />
          Export PDF
        </Button>
        <Button variant="outline" onClick={() => exportDocx(current, templates, "list")}>
          <FileDown className="h-4 w-4" aria-hidden />
          Export DOCX
        </Button>
        <Button disabled={locked || saving} onClick={onSave}>
          <Save className="h-4 w-4" aria-hidden />
          {saving ? "Saving..." : "Save Changes"}
        </Button>
      </div>
    </div>
  );
}
