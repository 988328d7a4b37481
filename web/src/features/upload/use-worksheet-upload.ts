import { useCallback, useEffect, useRef, useState } from "react";
import type { OcrResult } from "../../../../domain/contracts/ocr";
import { type OcrResponse, WORKSHEET_FIELD, type WorksheetRecord } from "../../../../domain/contracts/worksheets";
import { toast } from "../../components/ui/use-toast";
import { ApiError, apiJson } from "../../lib/api";
import { handleUnauthorized } from "../../lib/session-expiry";
import { postFormWithProgress } from "./upload-request";

/** The spec's limits (section 5 and 9). */
export const MAX_WORKSHEET_BYTES = 10 * 1024 * 1024;
export const OCR_START_DELAY_MS = 500;

/** idle -> (uploading) -> uploaded -> processing (500 ms later) -> completed, whether OCR succeeded or not. */
export type UploadPhase = "idle" | "uploading" | "uploaded" | "processing" | "completed";

export type UploadCallbacks = {
  /** A new upload starts: patient fields are cleared and the current report discarded. */
  onNewUpload: () => void;
  onOcrResult: (result: OcrResult) => void;
};

/** Whether the reading found any of the patient fields the spec's notice is about. */
export const patientDataRead = (result: OcrResult | null) =>
  Boolean(result && (result.patientName || result.patientDob || result.examDate));

export function useWorksheetUpload(callbacks: UploadCallbacks) {
  const [phase, setPhase] = useState<UploadPhase>("idle");
  const [progress, setProgress] = useState(0);
  const [worksheet, setWorksheet] = useState<WorksheetRecord | null>(null);
  const [ocrResult, setOcrResult] = useState<OcrResult | null>(null);
  const [ocrFailed, setOcrFailed] = useState(false);
  // Each upload gets a number: answers that arrive for an older upload are ignored.
  const generation = useRef(0);
  const abortUpload = useRef<(() => void) | null>(null);
  const ocrTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(callbacks);
  latest.current = callbacks;

  useEffect(
    () => () => {
      generation.current++;
      abortUpload.current?.();
      if (ocrTimer.current) clearTimeout(ocrTimer.current);
    },
    [],
  );

  const runOcr = useCallback(async (id: number, mine: number) => {
    setPhase("processing");
    try {
      const { ocrResult: result } = await apiJson<OcrResponse>("POST", `/api/worksheets/${id}/ocr`);
      if (mine !== generation.current) return;
      setOcrResult(result);
      setPhase("completed");
      latest.current.onOcrResult(result);
      // A blank or unreadable page is said as such, not as "extracted with 0% confidence"; a DICOM SR was not OCR'd.
      toast(
        result.source === "dicom-sr"
          ? {
              title: "Structured Report Read",
              description: `${result.measurements.length} measurements taken from the DICOM SR`,
              variant: "success",
            }
          : patientDataRead(result)
            ? {
                title: "OCR Complete",
                description: `Patient data extracted with ${Math.round(result.confidence * 100)}% confidence`,
                variant: "success",
              }
            : {
                title: "OCR Complete",
                description: "No patient details could be read from this page. Please enter them manually.",
              },
      );
    } catch (error) {
      if (mine !== generation.current || handleUnauthorized(error)) return;
      setOcrFailed(true);
      setPhase("completed");
      // The server's reason first when it gives one ("OCR is already running for this worksheet").
      const reason = error instanceof ApiError ? error.serverMessage : null;
      const said = reason && reason !== "OCR Processing Failed" ? `${reason.replace(/\.?$/, ".")} ` : "";
      toast({
        title: "OCR Processing Failed",
        description: `${said}Please enter patient information manually.`,
        variant: "destructive",
      });
    }
  }, []);

  const upload = useCallback(
    async (file: File) => {
      if (file.size > MAX_WORKSHEET_BYTES) {
        toast({
          title: "File Too Large",
          description: `File size must be less than ${MAX_WORKSHEET_BYTES / (1024 * 1024)} MB`,
          variant: "destructive",
        });
        return;
      }
      const mine = ++generation.current;
      abortUpload.current?.();
      if (ocrTimer.current) clearTimeout(ocrTimer.current);
      latest.current.onNewUpload();
      setWorksheet(null);
      setOcrResult(null);
      setOcrFailed(false);
      setProgress(0);
      setPhase("uploading");

      const form = new FormData();
      form.append(WORKSHEET_FIELD, file, file.name);
      const request = postFormWithProgress<WorksheetRecord>("/api/worksheets/upload", form, (percent) => {
        if (mine === generation.current) setProgress(percent);
      });
      abortUpload.current = request.abort;
      try {
        const record = await request.promise;
        if (mine !== generation.current) return;
        setWorksheet(record);
        setProgress(100);
        setPhase("uploaded");
        toast({ title: "Upload Successful", description: "Worksheet uploaded successfully", variant: "success" });
        ocrTimer.current = setTimeout(() => void runOcr(record.id, mine), OCR_START_DELAY_MS);
      } catch (error) {
        if (mine !== generation.current || handleUnauthorized(error)) return;
        setPhase("idle");
        setProgress(0);
        // The server says why a file was refused (damaged, password-protected, not a worksheet type).
        const reason = error instanceof ApiError ? error.serverMessage : null;
        toast({
          title: "Upload Failed",
          description: reason ?? "Failed to upload worksheet. Please try again.",
          variant: "destructive",
        });
      } finally {
        if (mine === generation.current) abortUpload.current = null;
      }
    },
    [runOcr],
  );

  return { phase, progress, worksheet, ocrResult, ocrFailed, upload };
}
