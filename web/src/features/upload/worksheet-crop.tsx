import type { Box } from "../../../../domain/contracts/ocr";
import type { PageImage } from "./use-page-image";

/** Room around the box, in page pixels, so the clinician sees the written value and its neighbours. */
const PAD = 10;

/**
 * The part of the worksheet a value was read from, drawn from the page image already in memory with CSS
 * background positioning (no request per crop). Scaled to a fixed height so every row lines up.
 */
export function WorksheetCrop({
  box,
  page,
  label,
  height = 32,
  maxWidth = 128,
}: {
  box: Box | null;
  page: PageImage | null;
  label: string;
  height?: number;
  maxWidth?: number;
}) {
  if (!box || !page) return <span className="text-xs text-slate-700">{box ? "Loading..." : "Not on sheet"}</span>;
  if (box.page !== 0) return <span className="text-xs text-slate-700">Page {box.page + 1}</span>;
  const x = Math.max(0, box.x - PAD);
  const y = Math.max(0, box.y - PAD);
  const w = Math.min(page.width - x, box.width + 2 * PAD);
  const h = Math.min(page.height - y, box.height + 2 * PAD);
  const scale = Math.min(height / h, maxWidth / w);
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className="inline-block rounded border border-slate-300 bg-white align-middle"
      style={{
        width: `${Math.round(w * scale)}px`,
        height: `${Math.round(h * scale)}px`,
        backgroundImage: `url(${page.url})`,
        backgroundRepeat: "no-repeat",
        backgroundSize: `${page.width * scale}px ${page.height * scale}px`,
        backgroundPosition: `${-x * scale}px ${-y * scale}px`,
      }}
    />
  );
}
