import { ChevronDown, Maximize2, ZoomIn, ZoomOut } from "lucide-react";
import { type PointerEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Box } from "../../../../domain/contracts/ocr";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { cn } from "../../lib/cn";
import type { PageImage } from "./use-page-image";

const ZOOM_STEPS = [1, 1.5, 2, 3, 4];
/** Room drawn around the outlined value, in page pixels. */
const PAD = 6;

/** Keeps a point of the page (in page pixels) at the centre of the scrolled view. */
function centreOn(view: HTMLElement, x: number, y: number, scale: number, smooth: boolean) {
  view.scrollTo({
    left: x * scale - view.clientWidth / 2,
    top: y * scale - view.clientHeight / 2,
    behavior: smooth ? "smooth" : "auto",
  });
}

/**
 * The worksheet beside the measurement table: zoom (fit width up to 4x) and pan (drag, scroll, or the arrow
 * keys once focused), with the selected value's box outlined and brought into view. On a phone it sits above
 * the table, collapsed until asked for: each row's own crop is there already.
 */
export function WorksheetViewer({
  page,
  box,
  label,
  className,
}: {
  page: PageImage | null;
  box: Box | null;
  /** What the outline shows, for screen readers ("Right ICA proximal PSV, read as 250"). */
  label: string | null;
  className?: string;
}) {
  const view = useRef<HTMLElement>(null);
  const [fitScale, setFitScale] = useState(0);
  const [zoomIndex, setZoomIndex] = useState(0);
  const [expanded, setExpanded] = useState(false);
  const drag = useRef<{ x: number; y: number; left: number; top: number; id: number } | null>(null);
  const scale = fitScale * ZOOM_STEPS[zoomIndex]!;
  const onPage = box && box.page === 0 ? box : null;

  // Fit width follows the panel's width (window resize, phone rotation, the panel expanding).
  useLayoutEffect(() => {
    const element = view.current;
    if (!element || !page) return;
    const measure = () => {
      if (element.clientWidth > 0) setFitScale(element.clientWidth / page.width);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [page]);

  // The selected value comes into view (and stays there when zooming).
  useEffect(() => {
    if (view.current && onPage && scale > 0) {
      centreOn(view.current, onPage.x + onPage.width / 2, onPage.y + onPage.height / 2, scale, true);
    }
  }, [onPage, scale]);

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.pointerType !== "mouse" || event.button !== 0 || !view.current) return;
    drag.current = {
      x: event.clientX,
      y: event.clientY,
      left: view.current.scrollLeft,
      top: view.current.scrollTop,
      id: event.pointerId,
    };
    view.current.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = drag.current;
    if (!start || !view.current) return;
    view.current.scrollLeft = start.left - (event.clientX - start.x);
    view.current.scrollTop = start.top - (event.clientY - start.y);
  };
  const endDrag = () => {
    if (drag.current && view.current?.hasPointerCapture(drag.current.id)) {
      view.current.releasePointerCapture(drag.current.id);
    }
    drag.current = null;
  };

  return (
    <Card className={cn("flex min-w-0 flex-col", className)}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-2 space-y-0">
        <CardTitle>Worksheet</CardTitle>
        <div className="flex items-center gap-1">
          <Button
            variant="outline"
            size="sm"
            className="lg:hidden"
            aria-expanded={expanded}
            aria-controls="worksheet-viewer-body"
            onClick={() => setExpanded((e) => !e)}
          >
            <ChevronDown className={cn("h-4 w-4 transition-transform", expanded && "rotate-180")} aria-hidden />
            {expanded ? "Hide worksheet" : "Show worksheet"}
          </Button>
          <div className={cn("items-center gap-1", expanded ? "flex" : "hidden lg:flex")}>
            <Button
              variant="ghost"
              size="icon"
              className="h-8 w-8"
              aria-label="Zoom out"
              disabled={zoomIndex === 0}
              onClick={() => setZoomIndex((z) => Math.max(0, z - 1))}
            >
              <ZoomOut className="h-4 w-4" aria-hidden />
            </Button>
            <span className="w-12 text-center text-xs text-slate-700" aria-live="polite">
              {Math.round(ZOOM_STEPS[zoomIndex]! * 100)}%
            </span>
            <Button
              variant="ghost"
              size="icon"
              className="h-8 w-8"
              aria-label="Zoom in"
              disabled={zoomIndex === ZOOM_STEPS.length - 1}
              onClick={() => setZoomIndex((z) => Math.min(ZOOM_STEPS.length - 1, z + 1))}
            >
              <ZoomIn className="h-4 w-4" aria-hidden />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="h-8 w-8"
              aria-label="Fit the worksheet to the panel width"
              disabled={zoomIndex === 0}
              onClick={() => setZoomIndex(0)}
            >
              <Maximize2 className="h-4 w-4" aria-hidden />
            </Button>
          </div>
        </div>
      </CardHeader>
      <CardContent
        id="worksheet-viewer-body"
        className={cn("min-h-0 flex-1 flex-col gap-2", expanded ? "flex" : "hidden lg:flex")}
      >
        {box && box.page > 0 ? (
          <p className="text-xs text-slate-700">The selected value is on page {box.page + 1}; this shows page 1.</p>
        ) : null}
        <section
          ref={view}
          aria-label="Worksheet image: drag or use the arrow keys to move around it"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must take focus to be panned by keyboard
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          className="relative h-72 min-h-0 flex-1 cursor-grab overflow-auto rounded-md border border-slate-200 bg-slate-100 active:cursor-grabbing lg:h-auto"
        >
          {page && scale > 0 ? (
            <div className="relative" style={{ width: page.width * scale, height: page.height * scale }}>
              <img
                src={page.url}
                alt="The uploaded worksheet"
                draggable={false}
                className="block h-full w-full select-none"
              />
              {onPage ? (
                <div
                  data-testid="selected-value-outline"
                  role="img"
                  aria-label={label ? `Outlined on the worksheet: ${label}` : "Outlined value"}
                  className="pointer-events-none absolute rounded-sm border-2 border-fuchsia-700 shadow-[0_0_0_3px_rgba(255,255,255,0.85)]"
                  style={{
                    left: (onPage.x - PAD) * scale,
                    top: (onPage.y - PAD) * scale,
                    width: (onPage.width + 2 * PAD) * scale,
                    height: (onPage.height + 2 * PAD) * scale,
                  }}
                />
              ) : null}
            </div>
          ) : (
            <p className="p-4 text-sm text-slate-700">Loading the worksheet image...</p>
          )}
        </section>
        <p className="text-xs text-slate-700">Select a value in the table to outline it here.</p>
      </CardContent>
    </Card>
  );
}
