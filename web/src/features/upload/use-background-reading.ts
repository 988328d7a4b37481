import { useCallback, useEffect, useRef, useState } from "react";
import { type OcrView, ocrView, WORKSHEET_FIELD, type WorksheetRecord } from "../../../../domain/contracts/worksheets";
import { ApiError, api, apiRequest } from "../../lib/api";
import { handleUnauthorized } from "../../lib/session-expiry";
import { postFormWithProgress } from "./upload-request";
import { MAX_WORKSHEET_BYTES } from "./use-worksheet-upload";

/** One worksheet of a batch: uploading, then what the server says of its OCR job, or why it was refused. */
export type BatchItem = {
  key: string;
  name: string;
  id: number | null;
  view: Pick<OcrView, "state" | "stage" | "progress" | "error"> | null;
  /** The upload itself was refused (too large, not a worksheet). */
  refused: string | null;
};

/** The batch in this tab (ids and file names, no patient data), so a reload keeps following it. */
const BATCH_KEY = "sonoscribe.reading-batch";
const POLL_MS = 1500;

/** Said of a file whose upload a reload cut short: the page no longer has the file to send. */
export const CHOOSE_AGAIN = "choose them again";

/** The saved batch; a file that had no worksheet yet when the page went cannot be uploaded now. */
const load = (): BatchItem[] => {
  try {
    const saved = JSON.parse(sessionStorage.getItem(BATCH_KEY) ?? "[]") as BatchItem[];
    if (!Array.isArray(saved)) return [];
    return saved.map((item) => (item.id === null && !item.refused ? { ...item, refused: CHOOSE_AGAIN } : item));
  } catch {
    return [];
  }
};

export const settled = (item: BatchItem) =>
  item.refused !== null || item.view?.state === "completed" || item.view?.state === "failed";

/**
 * A batch of worksheets read in the background while the clinician works on something else: each is uploaded,
 * its OCR queued (the server's worker reads them one after another), and its state followed until it ends.
 */
export function useBackgroundReading() {
  const [items, setItems] = useState<BatchItem[]>(load);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  /** Items whose OCR this page asks for (or already did): any other still pending lost its request to a reload. */
  const asked = useRef(new Set<string>());

  useEffect(() => {
    sessionStorage.setItem(BATCH_KEY, JSON.stringify(items));
  }, [items]);

  const update = useCallback((key: string, change: Partial<BatchItem>) => {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback(
    async (files: File[]) => {
      const added = files.map((file, i) => ({
        key: `${Date.now()}-${i}-${file.name}`,
        name: file.name,
        id: null,
        view: null,
        refused: file.size > MAX_WORKSHEET_BYTES ? `Larger than ${MAX_WORKSHEET_BYTES / (1024 * 1024)} MB` : null,
        file,
      }));
      setItems((current) => [...current, ...added.map(({ file: _file, ...item }) => item)]);
      for (const { key } of added) asked.current.add(key);
      // One after another: the uploads share the clinician's connection, and the reader reads one at a time.
      for (const { file, key, refused } of added) {
        if (refused) continue;
        const form = new FormData();
        form.append(WORKSHEET_FIELD, file, file.name);
        try {
          const record = await postFormWithProgress<WorksheetRecord>("/api/worksheets/upload", form, () => {}).promise;
          update(key, { id: record.id, view: { state: "processing", stage: "queued", progress: 0, error: null } });
          // Queued without waiting for the job (wait=0: a held request per worksheet would starve the browser's
          // connections); the list follows GET.
          await apiRequest("POST", `/api/worksheets/${record.id}/ocr?wait=0`);
        } catch (error) {
          if (handleUnauthorized(error)) return;
          update(key, { refused: (error instanceof ApiError && error.serverMessage) || "The upload failed" });
        }
      }
    },
    [update],
  );

  // Follows every worksheet still being read.
  useEffect(() => {
    const timer = setInterval(async () => {
      for (const item of itemsRef.current) {
        if (item.id === null || settled(item)) continue;
        try {
          const view = await api.get(`/api/worksheets/${item.id}/ocr`, ocrView);
          if (view.state === "pending" && !asked.current.has(item.key)) {
            // Uploaded just before a reload, its OCR never asked for: ask once now.
            asked.current.add(item.key);
            await apiRequest("POST", `/api/worksheets/${item.id}/ocr?wait=0`);
            continue;
          }
          update(item.key, {
            view: { state: view.state, stage: view.stage, progress: view.progress, error: view.error },
          });
        } catch (error) {
          if (handleUnauthorized(error)) return;
        }
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [update]);

  const dismiss = useCallback((key: string) => {
    setItems((current) => current.filter((item) => item.key !== key));
  }, []);

  return { items, add, dismiss };
}
