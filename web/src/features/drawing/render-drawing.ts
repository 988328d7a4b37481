import type { DrawingDocument, DrawingItem, Stroke } from "../../../../domain/drawing/drawing-document";
import { textFontPx } from "./drawing-tools";

export type Rect = { x: number; y: number; width: number; height: number };

/** Where the template sits inside a canvas: fitted whole, centred (points are fractions of this rect). */
export function fitRect(canvasWidth: number, canvasHeight: number, imageWidth: number, imageHeight: number): Rect {
  if (!imageWidth || !imageHeight) return { x: 0, y: 0, width: canvasWidth, height: canvasHeight };
  const scale = Math.min(canvasWidth / imageWidth, canvasHeight / imageHeight);
  const width = imageWidth * scale;
  const height = imageHeight * scale;
  return { x: (canvasWidth - width) / 2, y: (canvasHeight - height) / 2, width, height };
}

/** Smooth strokes: quadratic curves through the midpoints, width following stylus pressure. */
function drawStroke(ctx: CanvasRenderingContext2D, stroke: Stroke, rect: Rect, scale: number) {
  const pts = stroke.points.map((p) => ({
    x: rect.x + p.x * rect.width,
    y: rect.y + p.y * rect.height,
    pressure: p.pressure,
  }));
  ctx.save();
  ctx.globalAlpha = stroke.opacity;
  ctx.globalCompositeOperation = stroke.tool === "eraser" ? "destination-out" : "source-over";
  ctx.strokeStyle = stroke.color;
  ctx.fillStyle = stroke.color;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const widthAt = (pressure: number) => stroke.size * scale * (stroke.tool === "pen" ? 0.5 + pressure : 1);
  if (pts.length === 1) {
    ctx.beginPath();
    ctx.arc(pts[0]!.x, pts[0]!.y, widthAt(pts[0]!.pressure) / 2, 0, Math.PI * 2);
    ctx.fill();
  } else if (stroke.tool === "pen") {
    for (let i = 1; i < pts.length; i++) {
      const prev = pts[i - 1]!;
      const curr = pts[i]!;
      const next = pts[i + 1];
      ctx.beginPath();
      ctx.lineWidth = widthAt((prev.pressure + curr.pressure) / 2);
      ctx.moveTo((prev.x + curr.x) / 2 || prev.x, (prev.y + curr.y) / 2 || prev.y);
      const end = next ? { x: (curr.x + next.x) / 2, y: (curr.y + next.y) / 2 } : curr;
      ctx.quadraticCurveTo(curr.x, curr.y, end.x, end.y);
      ctx.stroke();
    }
  } else {
    // Highlighter and whiteout are one path, so overlapping segments do not darken.
    ctx.beginPath();
    ctx.lineWidth = widthAt(0.5);
    ctx.moveTo(pts[0]!.x, pts[0]!.y);
    for (let i = 1; i < pts.length - 1; i++) {
      const curr = pts[i]!;
      const next = pts[i + 1]!;
      ctx.quadraticCurveTo(curr.x, curr.y, (curr.x + next.x) / 2, (curr.y + next.y) / 2);
    }
    const last = pts.at(-1)!;
    ctx.lineTo(last.x, last.y);
    ctx.stroke();
  }
  ctx.restore();
}

function drawItem(ctx: CanvasRenderingContext2D, item: DrawingItem, rect: Rect, scale: number) {
  if (item.kind === "stroke") return drawStroke(ctx, item, rect, scale);
  ctx.save();
  ctx.fillStyle = item.color;
  ctx.textBaseline = "top";
  ctx.font = `${textFontPx(item.size) * scale}px Arial, sans-serif`;
  const lineHeight = textFontPx(item.size) * scale * 1.2;
  item.text.split("\n").forEach((line, i) => {
    ctx.fillText(line, rect.x + item.x * rect.width, rect.y + item.y * rect.height + i * lineHeight);
  });
  ctx.restore();
}

/** Ink only (the template is a separate layer, so the eraser removes ink and never the template). */
export function renderInk(ctx: CanvasRenderingContext2D, doc: DrawingDocument, rect: Rect, scale = 1) {
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  for (const item of doc.items) drawItem(ctx, item, rect, scale);
}

/** The template with the ink on top, at the template's own resolution (bounded), as an image data URL. */
export function flattenDrawing(
  template: HTMLImageElement | null,
  doc: DrawingDocument,
  quality: number,
  mime = "image/jpeg",
) {
  const maxSide = 1800;
  const naturalW = template?.naturalWidth || 1200;
  const naturalH = template?.naturalHeight || 900;
  const factor = Math.min(1, maxSide / Math.max(naturalW, naturalH));
  const width = Math.round(naturalW * factor);
  const height = Math.round(naturalH * factor);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d")!;
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, width, height);
  if (template) ctx.drawImage(template, 0, 0, width, height);
  const ink = document.createElement("canvas");
  ink.width = width;
  ink.height = height;
  // Stroke widths were chosen on screen; scale them to this resolution (screen canvases are about 800 px wide).
  renderInk(ink.getContext("2d")!, doc, { x: 0, y: 0, width, height }, width / 800);
  ctx.drawImage(ink, 0, 0);
  return canvas.toDataURL(mime, quality);
}
