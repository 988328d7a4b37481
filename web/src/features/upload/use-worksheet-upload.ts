import { useCallback, useEffect, useRef, useState } from "react";
import { z } from "zod";
import type { OcrResult } from "../../../../domain/contracts/ocr";
import {
  type OcrStage,
  ocrResponse,
  ocrView,
  WORKSHEET_FIELD,
  type WorksheetRecord,
  worksheetDetail,
} from "../../../../domain/contracts/worksheets";
import { toast } from "../../components/ui/use-toast";
import { ApiError, api } from "../../lib/api";
import { handleUnauthorized } from "../../lib/session-expiry";
import { postFormWithProgress } from "./upload-request";

/** The spec's limits (section 5 and 9). */
export const MAX_WORKSHEET_BYTES = 10 * 1024 * 1024;
export const OCR_START_DELAY_MS = 500;
/** How often the client asks where a worksheet's OCR job is. */
export const OCR_POLL_MS = 1000;
/** The worksheet being read in this tab, so a reload picks it up again (its id only: no patient data). */
const READING_KEY = "sonoscribe.reading-worksheet";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  /** Where the OCR job is, as the server reports it (GET /api/worksheets/{id}/ocr). */
  const [stage, setStage] = useState<OcrStage | null>(null);
  const [ocrProgress, setOcrProgress] = useState(0);
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

  const succeeded = useCallback((result: OcrResult, announce: boolean) => {
    sessionStorage.removeItem(READING_KEY);
    setOcrResult(result);
    setStage("done");
    setOcrProgress(1);
    setPhase("completed");
    latest.current.onOcrResult(result);
    if (!announce) return;
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
  }, []);

  const failed = useCallback((reason: string | null) => {
    sessionStorage.removeItem(READING_KEY);
    setOcrFailed(true);
    setStage("failed");
    setPhase("completed");
    // The server's reason first when it gives one ("OCR is already running for this worksheet").
    const said = reason && reason !== "OCR Processing Failed" ? `${reason.replace(/\.?$/, ".")} ` : "";
    toast({
      title: "OCR Processing Failed",
      description: `${said}Please enter patient information manually.`,
      variant: "destructive",
    });
  }, []);

  /** Follows the job until it ends (or another upload takes over), showing its stage and progress. */
  const follow = useCallback(
    async (id: number, mine: number, ended: { current: boolean }) => {
      while (mine === generation.current && !ended.current) {
        await pause(OCR_POLL_MS);
        if (mine !== generation.current || ended.current) return;
        try {
          const view = ocrView.parse(await api.get(`/api/worksheets/${id}/ocr`, ocrView));
          if (mine !== generation.current || ended.current) return;
          setStage(view.stage);
          setOcrProgress(view.progress);
          if (view.state === "completed" && view.ocrResult) {
            ended.current = true;
            return succeeded(view.ocrResult, true);
          }
          if (view.state === "failed") {
            ended.current = true;
            return failed(view.error);
          }
          // "pending": the request that queues the job has not reached the server yet.
        } catch (error) {
          if (mine !== generation.current || handleUnauthorized(error)) return;
          // A web process restarting or a dropped connection: ask again at the next beat.
        }
      }
    },
    [succeeded, failed],
  );

  /**
   * Queues the OCR and follows it: the POST answers { ocrResult } when the job ends within the server's wait,
   * 202 otherwise; meanwhile GET says where the job is, for the progress bar.
   */
  const runOcr = useCallback(
    async (id: number, mine: number) => {
      setPhase("processing");
      setStage("queued");
      setOcrProgress(0);
      sessionStorage.setItem(READING_KEY, String(id));
      const ended = { current: false };
      const answer = z.union([ocrResponse, ocrView]);
      // Parsed again for the contract's output: what OCR read, its optional fields filled in with their defaults.
      const request = api.send("POST", `/api/worksheets/${id}/ocr`, undefined, answer).then((a) => answer.parse(a));
      // The stages while the request waits for the job (and after, when it answers 202).
      void follow(id, mine, ended);
      try {
        const answer = await request;
        if (mine !== generation.current || ended.current) return;
        if (!("state" in answer)) {
          ended.current = true;
          succeeded(answer.ocrResult, true);
        }
      } catch (error) {
        if (mine !== generation.current || ended.current || handleUnauthorized(error)) return;
        ended.current = true;
        failed(error instanceof ApiError ? error.serverMessage : null);
      }
    },
    [follow, succeeded, failed],
  );

  /** After a reload: the worksheet this tab was reading comes back, and its OCR is followed to the end. */
  useEffect(() => {
    const saved = Number(sessionStorage.getItem(READING_KEY));
    if (!Number.isInteger(saved) || saved <= 0) return;
    const mine = ++generation.current;
    void (async () => {
      try {
        const detail = worksheetDetail.parse(await api.get(`/api/worksheets/${saved}`, worksheetDetail));
        if (mine !== generation.current) return;
        setWorksheet(detail);
        setProgress(100);
        if (detail.ocrStatus === "completed" && detail.ocrResult) return succeeded(detail.ocrResult, false);
        // Uploaded, and the page reloaded before its OCR was asked for: ask now.
        if (detail.ocrStatus === "pending") return runOcr(saved, mine);
        if (detail.ocrStatus !== "processing") {
          sessionStorage.removeItem(READING_KEY);
          setPhase("uploaded");
          return;
        }
        setPhase("processing");
        setStage("queued");
        await follow(saved, mine, { current: false });
      } catch (error) {
        if (handleUnauthorized(error)) return;
        sessionStorage.removeItem(READING_KEY);
      }
    })();
  }, [follow, succeeded, runOcr]);

  /** Opens a worksheet read in the background (the batch list) as the one being checked. */
  const open = useCallback(
    async (id: number) => {
      const mine = ++generation.current;
      abortUpload.current?.();
      if (ocrTimer.current) clearTimeout(ocrTimer.current);
      const detail = worksheetDetail.parse(await api.get(`/api/worksheets/${id}`, worksheetDetail));
      if (mine !== generation.current) return;
      latest.current.onNewUpload();
      setWorksheet(detail);
      setOcrResult(null);
      setOcrFailed(false);
      setProgress(100);
      if (detail.ocrStatus === "completed" && detail.ocrResult) return succeeded(detail.ocrResult, false);
      if (detail.ocrStatus === "processing") {
        setPhase("processing");
        sessionStorage.setItem(READING_KEY, String(id));
        return follow(id, mine, { current: false });
      }
      setOcrFailed(detail.ocrStatus === "failed");
      setPhase("completed");
    },
    [follow, succeeded],
  );

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
      setStage(null);
      setOcrProgress(0);
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
        // Remembered now, not when OCR starts 0.5 s later: a reload in between still has it read.
        sessionStorage.setItem(READING_KEY, String(record.id));
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

  return { phase, progress, stage, ocrProgress, worksheet, ocrResult, ocrFailed, upload, open };
}
