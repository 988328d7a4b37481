import { Download, FilePlus2, Maximize2, Minimize2, Undo2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import type { DigitalWorksheet } from "../../../../domain/contracts/drawings";
import type { WorksheetTemplate } from "../../../../domain/contracts/templates";
import { type DrawingDocument, restoreDrawing } from "../../../../domain/drawing/drawing-document";
import { Button } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/dialog";
import { toast } from "../../components/ui/use-toast";
import { queryClient } from "../../lib/query-client";
import { createDraftReport } from "./create-draft-report";
import { DrawingCanvas } from "./drawing-canvas";
import { AUTOSAVE_QUALITY, DEFAULT_TOOL, DRAFT_QUALITY, HISTORY_LIMIT, type ToolState } from "./drawing-tools";
import { flattenDrawing } from "./render-drawing";
import { ToolsPanel } from "./tools-panel";
import { useAutosave } from "./use-autosave";
import { useCanvasSize } from "./use-canvas-size";
import { useTemplateImage } from "./use-template-image";

const statusText = {
  saved: "All changes saved",
  pending: "Unsaved changes",
  saving: "Saving...",
  retrying: "Save failed, retrying...",
};

export function DrawingWorkspace({ session, template }: { session: DigitalWorksheet; template: WorksheetTemplate }) {
  const [, navigate] = useLocation();
  const [doc, setDoc] = useState<DrawingDocument>(() => restoreDrawing(session.vectorData));
  const [history, setHistory] = useState<DrawingDocument[]>(() => [restoreDrawing(session.vectorData)]);
  const [tool, setTool] = useState<ToolState>(DEFAULT_TOOL);
  const [fullscreen, setFullscreen] = useState(false);
  const [confirmDraft, setConfirmDraft] = useState(false);
  const [creating, setCreating] = useState(false);
  const canvasBox = useRef<HTMLDivElement>(null);
  const size = useCanvasSize(canvasBox, fullscreen);
  const image = useTemplateImage(template.imageUrl);
  const docRef = useRef(doc);
  docRef.current = doc;
  const historyRef = useRef(history);
  historyRef.current = history;

  const buildPayload = useCallback(
    (quality: number) => ({
      drawingData: flattenDrawing(image, docRef.current, quality),
      drawingHistory: JSON.stringify(historyRef.current),
      vectorData: docRef.current,
    }),
    [image],
  );
  const autosave = useAutosave(session.id, buildPayload, AUTOSAVE_QUALITY);

  const commit = (next: DrawingDocument) => {
    setDoc(next);
    setHistory((h) => [...h, next].slice(-HISTORY_LIMIT));
    autosave.schedule();
  };

  const undo = () => {
    if (history.length <= 1) return;
    const previous = history.slice(0, -1);
    setHistory(previous);
    setDoc(previous.at(-1)!);
    autosave.schedule();
  };

  const clear = () => {
    const empty = { ...doc, items: [] };
    setDoc(empty);
    setHistory([empty]);
    autosave.schedule();
  };

  const toggleFullscreen = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      // The spec ignores a refused fullscreen; the workspace works the same in the page.
    }
  };

  useEffect(() => {
    const onChange = () => setFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener("fullscreenchange", onChange);
    void document.documentElement.requestFullscreen?.().catch(() => {});
    return () => {
      document.removeEventListener("fullscreenchange", onChange);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    };
  }, []);

  const exportPng = () => {
    const link = document.createElement("a");
    link.href = flattenDrawing(image, doc, 1, "image/png");
    link.download = `worksheet-${session.patientName || "untitled"}-${Date.now()}.png`;
    link.click();
  };

  const createDraft = async () => {
    setCreating(true);
    try {
      await autosave.saveNow(DRAFT_QUALITY);
      await createDraftReport(session.id);
      toast({
        title: "Draft Report Created",
        description: "Your drawing has been saved as a draft report",
        variant: "success",
      });
      await queryClient.invalidateQueries({ queryKey: ["/api/reports"] });
      setTimeout(() => navigate("/reports"), 100);
    } catch (error) {
      toast({
        title: "Failed to Create Draft",
        description: error instanceof Error && error.message ? error.message : "Failed to create draft report",
        variant: "destructive",
      });
    } finally {
      setCreating(false);
    }
  };

  return (
    <section className={fullscreen ? "fixed inset-0 z-30 overflow-auto bg-slate-50 p-4" : "grid gap-4"}>
      <header className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">
            Drawing: {template.name} - {session.patientName}
          </h1>
          <p className="text-sm text-slate-700">
            Session started • Auto-saving enabled{" "}
            <span className="ml-2 font-medium" role="status">
              ({statusText[autosave.status]})
            </span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={toggleFullscreen}>
            {fullscreen ? <Minimize2 className="h-4 w-4" aria-hidden /> : <Maximize2 className="h-4 w-4" aria-hidden />}
            {fullscreen ? "Exit Fullscreen" : "Fullscreen"}
          </Button>
          <Button variant="outline" onClick={undo} disabled={history.length <= 1}>
            <Undo2 className="h-4 w-4" aria-hidden />
            Undo
          </Button>
          <Button onClick={() => setConfirmDraft(true)} disabled={creating}>
            <FilePlus2 className="h-4 w-4" aria-hidden />
            {creating ? "Creating draft..." : "Create Draft Report"}
          </Button>
          <Button variant="outline" onClick={exportPng}>
            <Download className="h-4 w-4" aria-hidden />
            Export
          </Button>
        </div>
      </header>
      <div className="grid gap-4 lg:grid-cols-[220px_minmax(0,1fr)]">
        <ToolsPanel tool={tool} onChange={setTool} onClear={clear} />
        <div ref={canvasBox} className="min-w-0">
          <DrawingCanvas
            doc={doc}
            tool={tool}
            template={image}
            width={size.width}
            height={size.height}
            onCommit={commit}
          />
        </div>
      </div>
      <ConfirmDialog
        open={confirmDraft}
        onOpenChange={setConfirmDraft}
        title="Create Draft Report"
        description="The drawing is saved and a draft report is made from it with the clinic's criteria and legend. You can edit the draft in Reports."
        confirmLabel="Create Draft Report"
        destructive={false}
        onConfirm={() => void createDraft()}
      />
    </section>
  );
}
