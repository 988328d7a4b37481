import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useState } from "react";
import { isDeletable, type Report, reportSchema } from "../../../../domain/contracts/reports";
import type { ReportTemplate } from "../../../../domain/contracts/templates";
import { Spinner } from "../../components/ui/card";
import { ConfirmDialog, overlay } from "../../components/ui/dialog";
import { errorMessage, useApiQuery } from "../../lib/api";
import { cn } from "../../lib/cn";
import { useAuth } from "../auth/use-auth";
import { AmendDialog } from "./amend-dialog";
import { CriticalResultsBanner } from "./critical-results";
import { EditorHeader } from "./editor-header";
import { PriorStudy } from "./prior-study";
import { fieldsOf, REPORTS_KEY, useReportMutations } from "./report-api";
import { EditorForm } from "./report-editor-form";
import { DEFAULT_TEMPLATE_NAME, templateName, useTemplates } from "./report-exports";
import { type EditorNavigation, type EditorTarget, useEditorNavigation } from "./report-navigation";
import { RestoredEditsNotice } from "./restored-edits-notice";
import { SignDialog } from "./sign-dialog";
import { SonographerImpression } from "./sonographer-impression";
import { UnsavedChangesDialog } from "./unsaved-changes-dialog";
import { useFullscreen } from "./use-fullscreen";
import { type ReportDraft, useReportDraft } from "./use-report-draft";
import { useUnsavedGuard } from "./use-unsaved-guard";
import { WorksheetPane } from "./worksheet-pane";

export const DELETE_CONFIRMATION =
  "Are you sure you want to delete the report for the patient? This action cannot be undone.";

/** The header names the template chosen in the form, saved or not ("" is the built-in layout). */
function draftTemplateName(report: Report, draft: ReportDraft | null, templates: ReportTemplate[] | undefined) {
  const chosen = draft?.templateId;
  if (chosen === undefined) return templateName(report, templates);
  return templates?.find((t) => String(t.id) === chosen)?.name ?? DEFAULT_TEMPLATE_NAME;
}

/**
 * The report editor opened from Edit: one report of the filtered list at a time, with Previous and Next
 * across the whole list. Closing, moving or leaving with unsaved edits asks first.
 */
export function ReportEditor({
  target,
  onMove,
  onClose,
}: {
  target: EditorTarget;
  onMove: (target: EditorTarget) => void;
  onClose: () => void;
}) {
  const nav = useEditorNavigation(target, onMove, onClose);
  return <ReportEditorDialog reportId={target.reportId} nav={nav} onClose={onClose} />;
}

/**
 * The editor over any list: the report, its worksheet, the fields, and Previous/Next as `nav` says. onSigned
 * runs after the signing dialog signed the report (the sign-off worklist then goes to the next draft).
 */
export function ReportEditorDialog({
  reportId,
  nav,
  onClose,
  onSigned,
}: {
  reportId: number;
  nav: EditorNavigation;
  onClose: () => void;
  onSigned?: (report: Report) => void;
}) {
  const target = { reportId, position: nav.position };
  const report = useApiQuery([REPORTS_KEY, target.reportId], reportSchema);
  const templates = useTemplates();
  const [mode, exitFullscreen] = useFullscreen();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [amending, setAmending] = useState(false);
  const [signing, setSigning] = useState<{ report: Report; datesAcknowledged: boolean } | null>(null);
  const { update, remove } = useReportMutations();
  const data = report.data;
  const { user } = useAuth();
  const { draft, dirty, restoredAt, change, discard } = useReportDraft(data, templates.data, user?.id);
  const hasCritical = Boolean(data && (data.criticalResults.length > 0 || data.criticalCommunications.length > 0));
  const unsaved = useUnsavedGuard(dirty);

  const save = (then?: () => void) => {
    if (!data || !draft) return;
    const templateId =
      draft.templateId === undefined ? {} : { templateId: draft.templateId ? Number(draft.templateId) : null };
    // Finalizing is the signing dialog's act: the edits are saved first, then the dialog shows what is signed.
    const signAfter = draft.finalize ? { datesAcknowledged: draft.acknowledgeDateWarnings === true } : null;
    update.mutate(
      { id: data.id, body: { ...fieldsOf(draft.form), ...templateId } },
      {
        onSuccess: (saved) => {
          discard();
          if (signAfter) setSigning({ report: saved, ...signAfter });
          then?.();
        },
        // The failure notice says why; the clinician stays with the edits.
        onError: unsaved.keepEditing,
      },
    );
  };

  return (
    <DialogPrimitive.Root open onOpenChange={(open) => (open ? null : unsaved.guard(onClose))}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlay} />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            "fixed z-50 flex flex-col bg-white shadow-xl",
            mode === "fullscreen"
              ? "inset-0"
              : "left-1/2 top-1/2 max-h-[94vh] w-[calc(100vw-1rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 rounded-lg",
          )}
        >
          <EditorHeader
            subtitle={
              data
                ? `${data.patientName || "Unnamed patient"} · #${data.id} · ${draftTemplateName(data, draft, templates.data)}`
                : ""
            }
            position={target.position}
            total={nav.total}
            hasPrevious={nav.hasPrevious}
            hasNext={nav.hasNext}
            moving={nav.moving}
            canDelete={Boolean(data)}
            // A report signed once is kept for records retention: no Delete (the server refuses it too).
            showDelete={!data || isDeletable(data)}
            fullscreen={mode === "fullscreen"}
            onPrevious={() => unsaved.guard(nav.previous)}
            onNext={() => unsaved.guard(nav.next)}
            onDelete={() => setConfirmDelete(true)}
            // Edits survive leaving fullscreen (the same form stays open), so there is nothing to ask.
            onExitFullscreen={exitFullscreen}
            onClose={() => unsaved.guard(onClose)}
          />
          {report.isLoading ? (
            <Spinner label="Loading report..." className="flex-1" />
          ) : report.isError || !data || !draft ? (
            <p className="p-6 text-sm text-red-700">{errorMessage(report.error, "Failed to load the report")}</p>
          ) : (
            <>
              {restoredAt ? <RestoredEditsNotice restoredAt={restoredAt} onDiscard={discard} /> : null}
              <div
                className={cn(
                  "grid min-h-0 flex-1 gap-4 overflow-y-auto p-4",
                  mode === "fullscreen" && "lg:grid-cols-2 lg:overflow-hidden",
                  mode === "fullscreen" && hasCritical && "lg:grid-rows-[auto_1fr]",
                )}
              >
                {hasCritical ? (
                  <div className={cn(mode === "fullscreen" && "lg:col-span-2")}>
                    <CriticalResultsBanner report={data} />
                  </div>
                ) : null}
                <div
                  className={cn("grid min-h-0 content-start gap-3", mode === "fullscreen" && "lg:grid-rows-[1fr_auto]")}
                >
                  <div className={cn("min-h-64", mode === "fullscreen" ? "lg:min-h-0" : "h-72")}>
                    <WorksheetPane report={data} />
                  </div>
                  <SonographerImpression comments={data.sonographerComments ?? ""} />
                  <PriorStudy reportId={data.id} />
                </div>
                <EditorForm
                  key={`${data.id}:${data.updatedAt}`}
                  report={data}
                  draft={draft}
                  onChange={change}
                  templates={templates.data}
                  scrollable={mode === "fullscreen"}
                  saving={update.isPending}
                  onSave={() => save()}
                  onClose={() => unsaved.guard(onClose)}
                  onAmend={() => setAmending(true)}
                />
              </div>
            </>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Report"
        description={DELETE_CONFIRMATION}
        onConfirm={() => remove.mutate(target.reportId, { onSuccess: () => void nav.afterDelete() })}
      />
      <AmendDialog report={data ?? null} open={amending} onOpenChange={setAmending} />
      {signing ? (
        <SignDialog
          report={signing.report}
          datesAcknowledged={signing.datesAcknowledged}
          open
          onOpenChange={(open) => (open ? null : setSigning(null))}
          onSigned={onSigned}
        />
      ) : null}
      <UnsavedChangesDialog
        open={unsaved.asking}
        saving={update.isPending}
        onKeepEditing={unsaved.keepEditing}
        onDiscard={() => {
          discard();
          unsaved.proceed();
        }}
        onSave={() => save(unsaved.proceed)}
      />
    </DialogPrimitive.Root>
  );
}
