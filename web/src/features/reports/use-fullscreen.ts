import { useEffect, useState } from "react";

/** The spec: fullscreen is requested 100 ms after the editor opens. */
export const FULLSCREEN_DELAY_MS = 100;

export type EditorMode = "fullscreen" | "dialog";

/**
 * Fullscreen is asked of the whole page (not of the editor element) so that notices and nested dialogs,
 * which render at the end of the page, stay visible. When it is refused the dialog variant is shown.
 */
export function useFullscreen(): [EditorMode, () => void] {
  const [mode, setMode] = useState<EditorMode>("fullscreen");
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
