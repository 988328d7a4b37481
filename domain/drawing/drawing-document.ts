/**
 * A drawing session kept as vectors, so it can be reopened and edited. Coordinates are fractions of the
 * template's width and height (0..1): the same document renders at any canvas size.
 * Stored JSON always goes through restoreDrawing, which fills defaults, migrates old versions and keeps
 * properties it does not know (a newer client's additions survive an older server).
 */
export const DRAWING_VERSION = 1;

export const drawingTools = ["pen", "highlighter", "whiteout", "eraser", "text"] as const;
export type DrawingTool = (typeof drawingTools)[number];

export type StrokePoint = { x: number; y: number; pressure: number };
export type Stroke = {
  kind: "stroke";
  tool: Exclude<DrawingTool, "text">;
  color: string;
  size: number;
  opacity: number;
  points: StrokePoint[];
  [extra: string]: unknown;
};
export type TextItem = {
  kind: "text";
  x: number;
  y: number;
  text: string;
  color: string;
  size: number;
  [extra: string]: unknown;
};
export type DrawingItem = Stroke | TextItem;
export type DrawingDocument = { version: typeof DRAWING_VERSION; items: DrawingItem[]; [extra: string]: unknown };

export const emptyDrawing = (): DrawingDocument => ({ version: DRAWING_VERSION, items: [] });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const unit = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : null);
const positive = (v: unknown, fallback: number) =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback;
const colour = (v: unknown, fallback: string) => (typeof v === "string" && /^#[0-9a-f]{3,8}$/i.test(v) ? v : fallback);

function restoreStroke(raw: Record<string, unknown>): Stroke | null {
  const tool =
    drawingTools.includes(raw.tool as DrawingTool) && raw.tool !== "text" ? (raw.tool as Stroke["tool"]) : "pen";
  const points = (Array.isArray(raw.points) ? raw.points : [])
    .filter(isRecord)
    .map((p) => ({ x: unit(p.x), y: unit(p.y), pressure: unit(p.pressure) ?? 0.5 }))
    .filter((p): p is StrokePoint => p.x !== null && p.y !== null);
  if (points.length === 0) return null;
  return {
    ...raw,
    kind: "stroke",
    tool,
    color: colour(raw.color, tool === "whiteout" ? "#ffffff" : "#000000"),
    size: positive(raw.size, 2),
    opacity: unit(raw.opacity) ?? 1,
    points,
  };
}

function restoreText(raw: Record<string, unknown>): TextItem | null {
  const x = unit(raw.x);
  const y = unit(raw.y);
  const text = typeof raw.text === "string" ? raw.text.slice(0, 2000) : "";
  if (x === null || y === null || !text.trim()) return null;
  return { ...raw, kind: "text", x, y, text, color: colour(raw.color, "#000000"), size: positive(raw.size, 16) };
}

/** The one way stored or received drawing JSON becomes a document; invalid items are dropped, never guessed. */
export function restoreDrawing(raw: unknown): DrawingDocument {
  if (!isRecord(raw)) return emptyDrawing();
  // Version 0 (no version field) stored strokes under "strokes"; version 1 keeps every item under "items".
  const rawItems = Array.isArray(raw.items) ? raw.items : Array.isArray(raw.strokes) ? raw.strokes : [];
  const items = rawItems
    .filter(isRecord)
    .map((item) => (item.kind === "text" ? restoreText(item) : restoreStroke(item)))
    .filter((item): item is DrawingItem => item !== null);
  const { strokes: _legacy, ...rest } = raw;
  return { ...rest, version: DRAWING_VERSION, items };
}

/** What was typed with the text tool, top to bottom then left to right: read directly, no OCR needed. */
export function typedText(doc: DrawingDocument): string {
  return doc.items
    .filter((item): item is TextItem => item.kind === "text")
    .sort((a, b) => (Math.abs(a.y - b.y) < 0.01 ? a.x - b.x : a.y - b.y))
    .map((item) => item.text.trim())
    .join("\n");
}
