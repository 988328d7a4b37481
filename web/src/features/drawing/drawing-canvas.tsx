import { type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from "react";
import type { DrawingDocument, Stroke, StrokePoint } from "../../../../domain/drawing/drawing-document";
import { MIN_STROKE_PX, type ToolState, textFontPx } from "./drawing-tools";
import { fitRect, type Rect, renderInk } from "./render-drawing";

type Props = {
  doc: DrawingDocument;
  tool: ToolState;
  template: HTMLImageElement | null;
  width: number;
  height: number;
  /** Called once per finished stroke or placed text, with the new document. */
  onCommit: (doc: DrawingDocument) => void;
};

const REFERENCE_WIDTH = 800;

/**
 * Two layers: the template below, the ink above. Pointer events give one path for mouse, touch and
 * stylus (with pressure); touch-action none lets a finger draw without scrolling the page.
 */
export function DrawingCanvas({ doc, tool, template, width, height, onCommit }: Props) {
  const templateLayer = useRef<HTMLCanvasElement>(null);
  const inkLayer = useRef<HTMLCanvasElement>(null);
  const live = useRef<Stroke | null>(null);
  const [textAt, setTextAt] = useState<{ x: number; y: number; left: number; top: number } | null>(null);
  const [text, setText] = useState("");
  const rect: Rect = fitRect(width, height, template?.naturalWidth ?? width, template?.naturalHeight ?? height);
  const scale = rect.width / REFERENCE_WIDTH;

  useEffect(() => {
    const ctx = templateLayer.current?.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
    if (template) ctx.drawImage(template, rect.x, rect.y, rect.width, rect.height);
  }, [template, width, height, rect.x, rect.y, rect.width, rect.height]);

  useEffect(() => {
    const ctx = inkLayer.current?.getContext("2d");
    if (ctx) renderInk(ctx, doc, rect, scale);
  }, [doc, rect, scale]);

  const toPoint = (event: PointerEvent | ReactPointerEvent): StrokePoint => {
    const bounds = inkLayer.current!.getBoundingClientRect();
    return {
      x: Math.min(1, Math.max(0, (event.clientX - bounds.left - rect.x) / rect.width)),
      y: Math.min(1, Math.max(0, (event.clientY - bounds.top - rect.y) / rect.height)),
      // A mouse reports 0.5 while pressed; a pen reports its real pressure.
      pressure: event.pressure > 0 ? event.pressure : 0.5,
    };
  };

  const redrawWithLive = () => {
    const ctx = inkLayer.current?.getContext("2d");
    if (!ctx || !live.current) return;
    renderInk(ctx, { ...doc, items: [...doc.items, live.current] }, rect, scale);
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    if (tool.type === "text") {
      const bounds = event.currentTarget.getBoundingClientRect();
      const p = toPoint(event);
      setText("");
      setTextAt({ x: p.x, y: p.y, left: event.clientX - bounds.left, top: event.clientY - bounds.top });
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    live.current = {
      kind: "stroke",
      tool: tool.type,
      color: tool.color,
      size: tool.size,
      opacity: tool.opacity,
      points: [toPoint(event)],
    };
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    if (!live.current) return;
    const events = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
    for (const e of events) live.current.points.push(toPoint(e));
    redrawWithLive();
  };

  const onPointerUp = () => {
    const stroke = live.current;
    live.current = null;
    if (!stroke) return;
    let travelled = 0;
    for (let i = 1; i < stroke.points.length; i++) {
      const a = stroke.points[i - 1]!;
      const b = stroke.points[i]!;
      travelled += Math.hypot((b.x - a.x) * rect.width, (b.y - a.y) * rect.height);
    }
    if (travelled < MIN_STROKE_PX) {
      renderInk(inkLayer.current!.getContext("2d")!, doc, rect, scale);
      return;
    }
    onCommit({ ...doc, items: [...doc.items, stroke] });
  };

  const commitText = () => {
    if (textAt && text.trim()) {
      onCommit({
        ...doc,
        items: [
          ...doc.items,
          { kind: "text", x: textAt.x, y: textAt.y, text: text.trim(), color: tool.color, size: tool.size },
        ],
      });
    }
    setTextAt(null);
    setText("");
  };

  return (
    <div className="relative mx-auto" style={{ width, height }}>
      <canvas
        ref={templateLayer}
        width={width}
        height={height}
        className="absolute inset-0 rounded-md border border-slate-300"
      />
      <canvas
        ref={inkLayer}
        width={width}
        height={height}
        role="img"
        aria-label="Worksheet drawing canvas"
        data-testid="drawing-canvas"
        className={`absolute inset-0 ${tool.type === "text" ? "cursor-text" : "cursor-crosshair"}`}
        style={{ touchAction: "none" }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      />
      {textAt ? (
        <input
          aria-label="Text to place on the worksheet"
          autoFocus
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commitText();
            if (e.key === "Escape") setTextAt(null);
          }}
          onBlur={commitText}
          className="absolute min-w-40 rounded border border-brand-600 bg-white/90 px-1 outline-none"
          style={{ left: textAt.left, top: textAt.top, color: tool.color, fontSize: textFontPx(tool.size) * scale }}
        />
      ) : null}
    </div>
  );
}
