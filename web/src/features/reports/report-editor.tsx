import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, Minimize2, Trash2, X } from "lucide-react";
import { useEffect, useState } from "react";
import type { Report } from "../../../../domain/contracts/reports";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/dialog";
import { errorMessage } from "../../lib/api";
import { cn } from "../../lib/cn";
import { AmendDialog } from "./amend-dialog";
import { REPORTS_KEY, useReportMutations } from "./report-api";
import { EditorForm } from "./report-editor-form";
import { templateName, useTemplates } from "./report-exports";
import { WorksheetPane } from "./worksheet-pane";

/** The spec: fullscreen is requested 100 ms after the editor opens. */
export const FULLSCREEN_DELAY_MS = 100;
export const DELETE_CONFIRMATION =
  "Are you sure you want to delete the report for the patient? This action cannot be undone.";

type Mode = "fullscreen" | "dialog";

/**
 * Fullscreen is asked of the whole page (not of the editor element) so that notices and nested dialogs,
 * which render at the end of the page, stay visible. When it is refused the dialog variant is shown.
 */
function useFullscreen(): [Mode, () => void] {
  const [mode, setMode] = useState<Mode>("fullscreen");
  useEffect(() => {
    const timer = setTimeout(() => {
      const root = document.documentElement;
      if (!document.fullscreenEnabled || !root.requestFullscreen) {
        setMode("dialog");
        return;
      }
      root.requestFullscreen().catch(() => setMode("dialog"));
    }, FULLSCREEN_DELAY_MS);
    const onChange = () => {
      if (!document.fullscreenElement) setMode("dialog");
    };
    document.addEventListener("fullscreenchange", onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("fullscreenchange", onChange);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    };
  }, []);
  const exit = () => {
    setMode("dialog");
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
  };
  return [mode, exit];
}

/** The report editor opened from Edit: one report of `ids` at a time, with Previous and Next. */
export function ReportEditor({
  ids,
  index,
  onIndexChange,
  onClose,
  onDeleted,
}: {
  ids: number[];
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  onDeleted: (id: number) => void;
}) {
  const reportId = ids[index]!;
  const report = useQuery<Report>({ queryKey: [REPORTS_KEY, reportId] });
  const templates = useTemplates();
  const [mode, exitFullscreen] = useFullscreen();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [amending, setAmending] = useState(false);
  const { remove } = useReportMutations();
  const data = report.data;

  return (
    <DialogPrimitive.Root open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className={cn(
            "fixed z-50 flex flex-col bg-white shadow-xl",
            mode === "fullscreen"
              ? "inset-0"
              : "left-1/2 top-1/2 max-h-[94vh] w-[calc(100vw-1rem)] max-w-4xl -translate-x-1/2 -translate-y-1/2 rounded-lg",
          )}
        >
          <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3">
            <div className="min-w-0 flex-1">
              <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">
                Edit Report
              </DialogPrimitive.Title>
              <p className="truncate text-sm text-slate-700">
                {data
                  ? `${data.patientName || "Unnamed patient"} · #${data.id} · ${templateName(data, templates.data)}`
                  : ""}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={index <= 0}
                onClick={() => onIndexChange(index - 1)}
                aria-label="Previous report"
              >
                <ChevronLeft className="h-4 w-4" aria-hidden />
                Previous
              </Button>
              <span className="text-sm text-slate-700" aria-live="polite">
                {index + 1} of {ids.length}
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={index >= ids.length - 1}
                onClick={() => onIndexChange(index + 1)}
                aria-label="Next report"
              >
                Next
                <ChevronRight className="h-4 w-4" aria-hidden />
              </Button>
              <Button
                variant="outline"
                size="sm"
                className="text-red-800"
                onClick={() => setConfirmDelete(true)}
                disabled={!data}
              >
                <Trash2 className="h-4 w-4" aria-hidden />
                Delete
              </Button>
              {mode === "fullscreen" ? (
                <Button variant="outline" size="sm" onClick={exitFullscreen}>
                  <Minimize2 className="h-4 w-4" aria-hidden />
                  Exit Fullscreen
                </Button>
              ) : null}
              <DialogPrimitive.Close asChild>
                <Button variant="ghost" size="icon" aria-label="Close editor">
                  <X className="h-4 w-4" aria-hidden />
                </Button>
              </DialogPrimitive.Close>
            </div>
          </header>
          {report.isLoading ? (
            <Spinner label="Loading report..." className="flex-1" />
          ) : report.isError || !data ? (
            <p className="p-6 text-sm text-red-700">{errorMessage(report.error, "Failed to load the report")}</p>
          ) : (
            <div
              className={cn(
                "grid min-h-0 flex-1 gap-4 overflow-y-auto p-4",
                mode === "fullscreen" && "lg:grid-cols-2 lg:overflow-hidden",
              )}
            >
              <div className={cn("min-h-64", mode === "fullscreen" ? "lg:min-h-0" : "h-72")}>
                <WorksheetPane report={data} />
              </div>
              <EditorForm
                key={`${data.id}:${data.updatedAt}`}
                report={data}
                templates={templates.data}
                scrollable={mode === "fullscreen"}
                onClose={onClose}
                onAmend={() => setAmending(true)}
              />
            </div>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Report"
        description={DELETE_CONFIRMATION}
        onConfirm={() => remove.mutate(reportId, { onSuccess: () => onDeleted(reportId) })}
      />
      <AmendDialog report={data ?? null} open={amending} onOpenChange={setAmending} />
    </DialogPrimitive.Root>
  );
}
