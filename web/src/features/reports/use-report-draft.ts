import { useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { formOf, isFormChanged, type ReportForm } from "./report-api";
import { templateFor } from "./report-exports";

/** What the editor changes before Save Changes: the fields, the template and the finalize box. */
export type ReportDraft = {
  form: ReportForm;
  /** The chosen template id ("" for the built-in layout); undefined until the clinician picks one. */
  templateId: string | undefined;
  finalize: boolean;
  /** The clinician confirmed dates that cannot all be right (shown only when the date check warns). */
  acknowledgeDateWarnings?: boolean;
};

export const savedTemplateId = (report: Report, templates: ReportTemplate[] | undefined) =>
  String(templateFor(report, templates)?.id ?? "");

export function isDraftDirty(draft: ReportDraft, report: Report, templates: ReportTemplate[] | undefined): boolean {
  const templateChanged = draft.templateId !== undefined && draft.templateId !== savedTemplateId(report, templates);
  return isFormChanged(draft.form, report) || templateChanged || draft.finalize;
}

/**
 * The editor's unsaved edits of one report version. A new report, or a new version of it (saved,
 * amended), starts from what the server holds.
 */
export function useReportDraft(report: Report | undefined, templates: ReportTemplate[] | undefined) {
  const key = report ? `${report.id}:${report.updatedAt}` : "";
  const [edits, setEdits] = useState<{ key: string; draft: ReportDraft } | null>(null);
  const draft: ReportDraft | null =
    edits?.key === key ? edits.draft : report ? { form: formOf(report), templateId: undefined, finalize: false } : null;
  return {
    draft,
    dirty: Boolean(report && draft && isDraftDirty(draft, report, templates)),
    change: (next: Partial<ReportDraft>) => {
      if (draft) setEdits({ key, draft: { ...draft, ...next } });
    },
    discard: () => setEdits(null),
  };
}
