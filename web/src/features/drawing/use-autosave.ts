import { useCallback, useEffect, useRef, useState } from "react";
import { digitalWorksheetSchema } from "../../../../domain/contracts/drawings";
import { api } from "../../lib/api";
import { AUTOSAVE_DELAY_MS } from "./drawing-tools";

export type SavePayload = { drawingData: string; drawingHistory: string; vectorData: unknown };
export type SaveStatus = "saved" | "pending" | "saving" | "retrying";

/**
 * Saves 10 s after the last stroke (a new stroke restarts the wait). Each save sends the whole current
 * drawing, so a failed save loses nothing: it is retried with backoff until one succeeds.
 */
export function useAutosave(sessionId: number, buildPayload: (quality: number) => SavePayload, quality: number) {
  const [status, setStatus] = useState<SaveStatus>("saved");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const dirty = useRef(false);
  const failures = useRef(0);
  const build = useRef(buildPayload);
  build.current = buildPayload;

  const save = useCallback(
    async (saveQuality = quality): Promise<void> => {
      clearTimeout(timer.current);
      dirty.current = false;
      setStatus("saving");
      try {
        await api.send(
          "PUT",
          `/api/digital-worksheets/${sessionId}`,
          build.current(saveQuality),
          digitalWorksheetSchema,
        );
        failures.current = 0;
        setStatus(dirty.current ? "pending" : "saved");
      } catch (error) {
        console.error("Autosave failed", error);
        dirty.current = true;
        failures.current++;
        setStatus("retrying");
        timer.current = setTimeout(() => void save(), Math.min(60_000, 2_000 * 2 ** failures.current));
        throw error;
      }
    },
    [sessionId, quality],
  );

  const schedule = useCallback(() => {
    dirty.current = true;
    setStatus("pending");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void save().catch(() => {}), AUTOSAVE_DELAY_MS);
  }, [save]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => {
      window.removeEventListener("beforeunload", warn);
      clearTimeout(timer.current);
    };
  }, []);

  return { status, schedule, saveNow: save };
}
