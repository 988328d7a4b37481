import { Eraser } from "lucide-react";
import { type Ref, useCallback, useEffect, useImperativeHandle, useRef, useState } from "react";
import { Button } from "../../components/ui/button";

export const SIGNATURE_WIDTH = 400;
export const SIGNATURE_HEIGHT = 150;

export type SignaturePadHandle = {
  /** The drawing as a PNG, or null when nothing was drawn. */
  toPng(): Promise<Blob | null>;
  clear(): void;
};

/**
 * The spec's 400x150 signature canvas: black, 2 px, round caps and joins. Pointer events cover mouse,
 * touch and stylus alike; touch-action none keeps a finger stroke from scrolling the page instead.
 */
export function SignaturePad({
  onChange,
  ref,
}: {
  onChange?: (hasDrawing: boolean) => void;
  ref?: Ref<SignaturePadHandle>;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [hasDrawing, setHasDrawing] = useState(false);

  const context = useCallback(() => {
    const ctx = canvasRef.current?.getContext("2d");
    if (!ctx) return null;
    ctx.strokeStyle = "#000000";
    ctx.fillStyle = "#000000";
    ctx.lineWidth = 2;
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    return ctx;
  }, []);

  const clear = useCallback(() => {
    const canvas = canvasRef.current;
    canvas?.getContext("2d")?.clearRect(0, 0, canvas.width, canvas.height);
    setHasDrawing(false);
    onChange?.(false);
  }, [onChange]);

  useImperativeHandle(
    ref,
    () => ({
      clear,
      toPng: () =>
        new Promise<Blob | null>((resolve) => {
          if (!hasDrawing || !canvasRef.current) return resolve(null);
          canvasRef.current.toBlob((blob) => resolve(blob), "image/png");
        }),
    }),
    [clear, hasDrawing],
  );

  useEffect(() => {
    context();
  }, [context]);

  const point = (event: React.PointerEvent<HTMLCanvasElement>) => toCanvas(event.currentTarget, event);

  const onPointerDown = (event: React.PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    // Keeps the stroke when the pointer leaves the box; some synthetic or stale pointers cannot be captured.
    try {
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {
      /* drawing works without capture */
    }
    drawing.current = true;
    const p = point(event);
    last.current = p;
    const ctx = context();
    // A tap leaves a dot, as a pen would.
    ctx?.beginPath();
    ctx?.arc(p.x, p.y, 1, 0, Math.PI * 2);
    ctx?.fill();
    if (!hasDrawing) {
      setHasDrawing(true);
      onChange?.(true);
    }
  };

  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current || !last.current) return;
    const ctx = context();
    if (!ctx) return;
    // Coalesced events keep fast stylus strokes smooth.
    const events = event.nativeEvent.getCoalescedEvents?.() ?? [event.nativeEvent];
    for (const e of events.length ? events : [event.nativeEvent]) {
      const p = toCanvas(event.currentTarget, e);
      ctx.beginPath();
      ctx.moveTo(last.current.x, last.current.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      last.current = p;
    }
  };

  const onPointerEnd = () => {
    drawing.current = false;
    last.current = null;
  };

  return (
    <div className="flex flex-col gap-2">
      <canvas
        ref={canvasRef}
        width={SIGNATURE_WIDTH}
        height={SIGNATURE_HEIGHT}
        aria-label="Signature drawing area: draw the signature with a mouse, finger or stylus"
        role="img"
        data-testid="signature-canvas"
        className="aspect-[8/3] w-full max-w-[400px] cursor-crosshair touch-none rounded-md border border-slate-400 bg-white"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
      />
      <div className="flex items-center gap-3">
        <Button variant="outline" size="sm" onClick={clear} disabled={!hasDrawing}>
          <Eraser className="h-4 w-4" aria-hidden />
          Clear
        </Button>
        <span className="text-xs text-slate-700">{hasDrawing ? "Signature drawn" : "Draw in the box above"}</span>
      </div>
    </div>
  );
}

/** The canvas keeps its 400x150 pixels while CSS may shrink it on a phone: scale pointer positions. */
function toCanvas(canvas: HTMLCanvasElement, at: { clientX: number; clientY: number }) {
  const rect = canvas.getBoundingClientRect();
  return {
    x: ((at.clientX - rect.left) * canvas.width) / rect.width,
    y: ((at.clientY - rect.top) * canvas.height) / rect.height,
  };
}
