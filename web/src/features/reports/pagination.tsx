import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "../../components/ui/button";

export const MAX_PAGE_BUTTONS = 5;

/** Up to 5 page numbers, centred on the current page where possible. */
export function pageWindow(page: number, pageCount: number, max = MAX_PAGE_BUTTONS): number[] {
  const count = Math.min(max, pageCount);
  const start = Math.min(Math.max(1, page - Math.floor(count / 2)), Math.max(1, pageCount - count + 1));
  return Array.from({ length: count }, (_, i) => start + i);
}

export function Pagination({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pagination" className="flex flex-col items-center justify-between gap-3 sm:flex-row">
      <p className="text-sm text-slate-700" aria-live="polite">
        Showing {first}-{last} of {total} reports
      </p>
      <div className="flex flex-wrap items-center gap-1">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          <ChevronLeft className="h-4 w-4" aria-hidden />
          Previous
        </Button>
        {pageWindow(page, pageCount).map((n) => (
          <Button
            key={n}
            variant={n === page ? "default" : "outline"}
            size="sm"
            className="min-w-9"
            aria-current={n === page ? "page" : undefined}
            aria-label={`Page ${n}`}
            onClick={() => onPage(n)}
          >
            {n}
          </Button>
        ))}
        <Button variant="outline" size="sm" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
