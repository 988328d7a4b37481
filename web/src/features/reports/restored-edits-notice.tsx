import { History } from "lucide-react";
import { Button } from "../../components/ui/button";
import { showDateTime } from "../../lib/dates";

/** Says that the edits on screen came back from an earlier session, and lets the clinician drop them. */
export function RestoredEditsNotice({ restoredAt, onDiscard }: { restoredAt: number; onDiscard: () => void }) {
  return (
    <div
      role="status"
      className="mx-4 mt-3 flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <History className="h-4 w-4 shrink-0" aria-hidden />
      <span className="min-w-0 flex-1">
        Your unsaved edits from {showDateTime(new Date(restoredAt))} are back. Check them, then save, or discard them to
        see the saved report.
      </span>
      <Button variant="outline" size="sm" onClick={onDiscard}>
        Discard these edits
      </Button>
    </div>
  );
}
