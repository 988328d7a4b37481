import { Camera, CheckCircle2, FileText, XCircle } from "lucide-react";
import { useState } from "react";
import type { OcrStage, WorksheetRecord } from "../../../../domain/contracts/worksheets";
import { WORKSHEET_ACCEPT } from "../../../../domain/contracts/worksheets";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { CameraCapture } from "./camera-capture";
import { UploadDropzone } from "./upload-dropzone";
import type { PageImage } from "./use-page-image";
import { MAX_WORKSHEET_BYTES, type UploadPhase } from "./use-worksheet-upload";

function ProgressBar({ label, value }: { label: string; value: number | null }) {
  return (
    <div className="grid gap-1.5">
      <div className="flex justify-between text-sm text-slate-800">
        <span>{label}</span>
        {value !== null ? <span>{value}%</span> : null}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value ?? undefined}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        {value !== null ? (
          <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${value}%` }} />
        ) : (
          // Waiting for a reader: an indeterminate bar says it is queued, not how far it got.
          <div className="h-full w-1/3 animate-pulse rounded-full bg-brand-600" />
        )}
      </div>
    </div>
  );
}

/** The OCR job's stage as the progress bar says it, with how far it got (null while it waits for a reader). */
function ocrStep(stage: OcrStage | null, progress: number, pageCount: number): { label: string; value: number | null } {
  const percent = Math.round(progress * 100);
  if (stage === "loading") return { label: "Opening the worksheet", value: percent };
  if (stage === "reading") {
    const read = Math.min(pageCount, Math.round(progress * pageCount));
    return {
      label:
        pageCount > 1
          ? `Reading the worksheet (page ${Math.min(pageCount, read + 1)} of ${pageCount})`
          : "Reading the worksheet",
      value: percent,
    };
  }
  return { label: "Waiting for a reader", value: null };
}

export function WorksheetUploadCard({
  phase,
  progress,
  stage,
  ocrProgress,
  worksheet,
  page,
  ocrFailed,
  onFile,
  onFiles,
}: {
  phase: UploadPhase;
  progress: number;
  /** Where the OCR job is, and how far through its stage (0-1), as the server reports it. */
  stage: OcrStage | null;
  ocrProgress: number;
  worksheet: WorksheetRecord | null;
  page: PageImage | null;
  ocrFailed: boolean;
  onFile: (file: File) => void;
  onFiles: (files: File[]) => void;
}) {
  const [cameraOpen, setCameraOpen] = useState(false);
  const busy = phase === "uploading" || phase === "uploaded" || phase === "processing";
  const fromSr = worksheet?.kind === "dicom-sr";
  return (
    <Card>
      <CardHeader>
        <CardTitle>Worksheet</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <UploadDropzone
          accept={WORKSHEET_ACCEPT}
          maxMegabytes={MAX_WORKSHEET_BYTES / (1024 * 1024)}
          disabled={busy}
          onFile={onFile}
          onFiles={onFiles}
        />
        <Button variant="outline" onClick={() => setCameraOpen(true)} disabled={busy} className="w-full sm:w-auto">
          <Camera className="h-4 w-4" aria-hidden />
          Camera
        </Button>
        <CameraCapture open={cameraOpen} onOpenChange={setCameraOpen} onCapture={onFile} />

        <div aria-live="polite" className="grid gap-3">
          {phase === "uploading" ? <ProgressBar label="Uploading worksheet" value={progress} /> : null}
          {phase === "uploaded" || phase === "processing" ? (
            <ProgressBar
              {...(fromSr
                ? { label: "Reading the structured report", value: null }
                : ocrStep(stage, ocrProgress, worksheet?.pageCount ?? 1))}
            />
          ) : null}
          {phase === "completed" ? (
            ocrFailed ? (
              <p className="flex items-center gap-2 text-sm text-red-800">
                <XCircle className="h-4 w-4" aria-hidden />
                {fromSr ? "The structured report" : "The worksheet"} could not be read. Please enter patient information
                manually.
              </p>
            ) : (
              <p className="flex items-center gap-2 text-sm text-green-800">
                <CheckCircle2 className="h-4 w-4" aria-hidden />
                {fromSr
                  ? "Structured report read: its measurements are in the table below. Check them."
                  : "Worksheet read. Check the values below."}
              </p>
            )
          ) : null}
        </div>

        {worksheet ? (
          <div className="flex items-start gap-3 rounded-md border border-slate-200 p-3">
            {page ? (
              <a href={page.url} target="_blank" rel="noreferrer" className="shrink-0">
                <img
                  src={page.url}
                  alt="First page of the uploaded worksheet"
                  className="h-28 w-20 rounded border border-slate-200 object-cover object-top"
                />
              </a>
            ) : (
              <FileText className="h-10 w-10 shrink-0 text-slate-500" aria-hidden />
            )}
            <div className="min-w-0 text-sm">
              <p className="truncate font-medium text-slate-900">{worksheet.originalName}</p>
              <p className="text-slate-700">
                {fromSr
                  ? "DICOM structured report"
                  : `${worksheet.pageCount} ${worksheet.pageCount === 1 ? "page" : "pages"}`}
              </p>
            </div>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
