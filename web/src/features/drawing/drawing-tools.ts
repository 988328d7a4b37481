import type { DrawingTool } from "../../../../domain/drawing/drawing-document";

/** The spec's palettes, presets and slider bounds. */
export const PEN_COLOURS = ["#000000", "#dc2626", "#2563eb", "#16a34a", "#9333ea", "#ea580c", "#92400e", "#0f766e"];
export const HIGHLIGHTER_COLOURS = ["#fde047", "#86efac", "#f9a8d4", "#93c5fd", "#fdba74"];
export const WHITE = "#ffffff";

export type ToolState = { type: DrawingTool; color: string; size: number; opacity: number };

export const DEFAULT_TOOL: ToolState = { type: "pen", color: "#000000", size: 2, opacity: 1 };

export const sizeBounds: Record<DrawingTool, { min: number; max: number }> = {
  pen: { min: 1, max: 20 },
  text: { min: 1, max: 20 },
  highlighter: { min: 5, max: 15 },
  whiteout: { min: 4, max: 30 },
  eraser: { min: 5, max: 25 },
};

/** Switching tools applies the spec's presets; pen and text go back to full opacity. */
export function selectTool(current: ToolState, type: DrawingTool): ToolState {
  switch (type) {
    case "highlighter":
      return { type, color: HIGHLIGHTER_COLOURS[0]!, size: 8, opacity: 0.4 };
    case "whiteout":
      return { type, color: WHITE, size: 8, opacity: 1 };
    case "eraser":
      return { ...current, type, size: 20 };
    default: {
      const color = current.type === "pen" || current.type === "text" ? current.color : "#000000";
      const { min, max } = sizeBounds[type];
      return { type, color, size: Math.min(max, Math.max(min, current.size)), opacity: 1 };
    }
  }
}

/** Fewer than 2 px of travel is a tap, not a stroke. */
export const MIN_STROKE_PX = 2;
export const HISTORY_LIMIT = 5;
export const AUTOSAVE_DELAY_MS = 10_000;
export const AUTOSAVE_QUALITY = 0.6;
export const DRAFT_QUALITY = 0.8;
export const DRAFT_TIMEOUT_MS = 30_000;

export const textFontPx = (size: number) => 12 + size * 2;
