import { useEffect, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { useKeptEdits } from "../../lib/use-kept-edits";
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

/** What is kept of the editor's edits in the browser (never the finalize box: signing is always asked anew). */
type KeptReportDraft = Pick<ReportDraft, "form" | "templateId">;

/** The name edits of a report are kept under in the browser; the preview's edits use it too. */
export const keptReportName = (report: Report | null | undefined) => (report ? `report:${report.id}` : null);

/**
 * The editor's unsaved edits of one report version. A new report, or a new version of it (saved,
 * amended), starts from what the server holds. The edits are kept encrypted in the browser as they are
 * typed, and offered back (`restoredAt`) when the same version is opened after an expired session or a crash.
 */
export function useReportDraft(
  report: Report | undefined,
  templates: ReportTemplate[] | undefined,
  userId: string | undefined,
) {
  const key = report ? `${report.id}:${report.updatedAt}` : "";
  const [edits, setEdits] = useState<{ key: string; draft: ReportDraft; restoredAt?: number } | null>(null);
  const kept = useKeptEdits<KeptReportDraft>(userId, keptReportName(report), report?.updatedAt ?? null);
  const { restorable, settle } = kept;
  const editsKey = edits?.key;
  useEffect(() => {
    if (!restorable) return;
    // Typing that began before the kept edits were decrypted wins over them.
    if (editsKey !== key) {
      const draft: ReportDraft = { ...restorable.value, finalize: false };
      setEdits({ key, draft, restoredAt: restorable.savedAt });
    }
    settle();
  }, [restorable, settle, editsKey, key]);

  const draft: ReportDraft | null =
    edits?.key === key ? edits.draft : report ? { form: formOf(report), templateId: undefined, finalize: false } : null;
  return {
    draft,
    dirty: Boolean(report && draft && isDraftDirty(draft, report, templates)),
    /** When the edits on screen were restored from an earlier session (ms), else undefined. */
    restoredAt: edits?.key === key ? edits.restoredAt : undefined,
    change: (next: Partial<ReportDraft>) => {
      if (!draft) return;
      const changed = { ...draft, ...next };
      setEdits({ key, draft: changed, restoredAt: edits?.key === key ? edits.restoredAt : undefined });
      kept.keep({ form: changed.form, templateId: changed.templateId });
    },
    discard: () => {
      setEdits(null);
      kept.keep(null);
    },
  };
}
