import { MessageSquareText } from "lucide-react";
import { type ReactNode, useId } from "react";
import { INDICATION_NOT_STATED } from "../../../../domain/report-engine/indication";
import { Button } from "../../components/ui/button";
import { Input, Label, Textarea } from "../../components/ui/input";
import { HeaderFieldInputs } from "./header-fields";
import type { ReportForm } from "./report-api";

export type TextField = "indication" | "findings" | "impression";

/**
 * The report's editable fields, shared by the editor, the preview's edit mode and the amend dialog.
 * onShortcuts adds a Shortcuts button to each text area; the editor shows its panel (`panel`) right
 * under the chosen field, so the field and the snippets stay in view together.
 */
export function ReportFields({
  form,
  onChange,
  rows = { indication: 3, findings: 6, impression: 4 },
  onShortcuts,
  activeShortcutField,
  panel,
}: {
  form: ReportForm;
  onChange: (form: ReportForm) => void;
  rows?: Record<TextField, number>;
  onShortcuts?: (field: TextField) => void;
  activeShortcutField?: TextField | null;
  panel?: (id: string) => ReactNode;
}) {
  const id = useId();
  const set = (field: keyof ReportForm) => (value: string) => onChange({ ...form, [field]: value });
  const texts: Array<[TextField, string]> = [
    ["indication", "Indication"],
    ["findings", "Findings"],
    ["impression", "Impression"],
  ];
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5 sm:col-span-2">
          <Label htmlFor={`${id}-name`}>Patient Name</Label>
          <Input
            id={`${id}-name`}
            value={form.patientName}
            onChange={(e) => set("patientName")(e.target.value)}
            autoComplete="off"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-dob`}>Date of Birth</Label>
          <Input
            id={`${id}-dob`}
            type="date"
            value={form.patientDob}
            onChange={(e) => set("patientDob")(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-exam`}>Exam Date</Label>
          <Input
            id={`${id}-exam`}
            type="date"
            value={form.examDate}
            onChange={(e) => set("examDate")(e.target.value)}
          />
        </div>
        <div className="sm:col-span-2">
          <HeaderFieldInputs idPrefix={id} values={form} onChange={(field, value) => set(field)(value)} />
        </div>
        <div className="grid gap-1.5 sm:col-span-2">
          <Label htmlFor={`${id}-study`}>Study Type</Label>
          <Input id={`${id}-study`} value={form.studyType} onChange={(e) => set("studyType")(e.target.value)} />
        </div>
      </div>
      {texts.map(([field, label]) => (
        <div key={field} className="grid gap-1.5">
          <div className="flex items-end justify-between gap-2">
            <Label htmlFor={`${id}-${field}`}>{label}</Label>
            {onShortcuts ? (
              <Button
                variant="outline"
                size="sm"
                onClick={() => onShortcuts(field)}
                aria-expanded={activeShortcutField === field}
                aria-controls={activeShortcutField === field ? `${id}-shortcuts` : undefined}
                aria-label={`Shortcuts for ${label}`}
              >
                <MessageSquareText className="h-4 w-4" aria-hidden />
                Shortcuts
              </Button>
            ) : null}
          </div>
          <Textarea
            id={`${id}-${field}`}
            rows={rows[field]}
            value={form[field]}
            onChange={(e) => set(field)(e.target.value)}
            className="min-h-0 leading-relaxed"
          />
          {activeShortcutField === field && panel ? panel(`${id}-shortcuts`) : null}
        </div>
      ))}
    </div>
  );
}

/**
 * The spec's insertion: appended after a blank line when the field already has text. An Indication that only
 * says the engine's "Not stated." is replaced, not extended ("Not stated. Transient ischaemic attack.").
 */
export function appendSnippet(current: string, snippet: string, field?: TextField): string {
  if (field === "indication" && current.trim() === INDICATION_NOT_STATED) return snippet;
  return current.trim() ? `${current.replace(/\s+$/, "")}\n\n${snippet}` : snippet;
}
