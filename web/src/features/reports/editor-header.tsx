import * as DialogPrimitive from "@radix-ui/react-dialog";
import { ChevronLeft, ChevronRight, Minimize2, Trash2, X } from "lucide-react";
import { Button } from "../../components/ui/button";

/** The editor's header: title and patient, Previous/Next with "x of n", Delete, Exit Fullscreen, close. */
export function EditorHeader({
  subtitle,
  position,
  total,
  hasPrevious,
  hasNext,
  moving,
  canDelete,
  showDelete,
  fullscreen,
  onPrevious,
  onNext,
  onDelete,
  onExitFullscreen,
  onClose,
}: {
  subtitle: string;
  position: number;
  total: number | null;
  hasPrevious: boolean;
  hasNext: boolean;
  moving: boolean;
  canDelete: boolean;
  showDelete: boolean;
  fullscreen: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onDelete: () => void;
  onExitFullscreen: () => void;
  onClose: () => void;
}) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 px-4 py-3">
      <div className="min-w-0 flex-1">
        <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">Edit Report</DialogPrimitive.Title>
        <p className="truncate text-sm text-slate-700">{subtitle}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <nav aria-label="Reports in this list" className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={!hasPrevious || moving}
            onClick={onPrevious}
            aria-label="Previous report"
          >
            <ChevronLeft className="h-4 w-4" aria-hidden />
            Previous
          </Button>
          <span className="min-w-16 text-center text-sm text-slate-700" aria-live="polite" aria-atomic="true">
            {total === null ? "\u00a0" : `${position + 1} of ${total}`}
          </span>
          <Button variant="outline" size="sm" disabled={!hasNext || moving} onClick={onNext} aria-label="Next report">
            Next
            <ChevronRight className="h-4 w-4" aria-hidden />
          </Button>
        </nav>
        {showDelete ? (
          <Button variant="outline" size="sm" className="text-red-800" onClick={onDelete} disabled={!canDelete}>
            <Trash2 className="h-4 w-4" aria-hidden />
            Delete
          </Button>
        ) : null}
        {fullscreen ? (
          <Button variant="outline" size="sm" onClick={onExitFullscreen}>
            <Minimize2 className="h-4 w-4" aria-hidden />
            Exit Fullscreen
          </Button>
        ) : null}
        <Button variant="ghost" size="icon" aria-label="Close editor" onClick={onClose}>
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </header>
  );
}
