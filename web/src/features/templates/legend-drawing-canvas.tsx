import { Eraser } from "lucide-react";
import { type PointerEvent, useEffect, useRef } from "react";
import { LEGEND_CANVAS } from "../../../../domain/contracts/templates";
import { Button } from "../../components/ui/button";

const { width: W, height: H } = LEGEND_CANVAS;

/**
 * The legend's 400x300 drawing pad. Pointer events cover mouse, touch and stylus alike; touch-action
 * none keeps a finger stroke from scrolling the page. The PNG is always exported at 400x300, whatever
 * size the pad is shown at.
 */
export function LegendDrawingCanvas({
  initial,
  onChange,
  labelledBy,
}: {
  initial?: string | null;
  onChange: (dataUrl: string | null) => void;
  labelledBy?: string;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, H);
    if (initial) {
      const image = new Image();
      image.onload = () => ctx.drawImage(image, 0, 0, W, H);
      image.src = initial;
    }
  }, [initial]);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) * W) / rect.width, y: ((event.clientY - rect.top) * H) / rect.height };
  };

  function start(event: PointerEvent<HTMLCanvasElement>) {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    last.current = point(event);
    draw(event);
  }

  function draw(event: PointerEvent<HTMLCanvasElement>) {
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx || !last.current) return;
    const next = point(event);
    // A stylus draws thinner or thicker with pressure; mouse and finger draw a steady 3 px line.
    ctx.lineWidth = event.pointerType === "pen" ? 1 + 4 * (event.pressure || 0.5) : 3;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#111827";
    ctx.beginPath();
    ctx.moveTo(last.current.x, last.current.y);
    ctx.lineTo(next.x + (next.x === last.current.x && next.y === last.current.y ? 0.01 : 0), next.y);
    ctx.stroke();
    last.current = next;
  }

  function end() {
    if (!last.current) return;
    last.current = null;
    onChange(canvasRef.current?.toDataURL("image/png") ?? null);
  }

  function clear() {
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx) return;
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, H);
    onChange(null);
  }

  return (
    <div className="space-y-2">
      <canvas
        ref={canvasRef}
        width={W}
        height={H}
        role="img"
        aria-labelledby={labelledBy}
        aria-label={labelledBy ? undefined : "Drawing pad, 400 by 300 pixels"}
        data-testid="legend-canvas"
        className="block aspect-[4/3] w-full max-w-[400px] cursor-crosshair rounded-md border border-slate-400 bg-white"
        style={{ touchAction: "none" }}
        onPointerDown={start}
        onPointerMove={draw}
        onPointerUp={end}
        onPointerCancel={end}
        onPointerLeave={end}
      />
      <Button type="button" variant="outline" size="sm" onClick={clear}>
        <Eraser className="h-4 w-4" aria-hidden />
        Clear Drawing
      </Button>
    </div>
  );
}
