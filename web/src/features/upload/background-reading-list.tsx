import { CheckCircle2, Loader2, X, XCircle } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { type BatchItem, settled } from "./use-background-reading";

/** What the list says of one worksheet, in the clinician's words. */
export function describeItem(item: BatchItem): string {
  if (item.refused) return `Not uploaded: ${item.refused}`;
  if (!item.view) return "Uploading";
  const percent = `${Math.round(item.view.progress * 100)}%`;
  if (item.view.state === "completed") return "Read";
  if (item.view.state === "failed") return item.view.error ?? "Could not be read";
  if (item.view.stage === "loading") return `Opening the file (${percent})`;
  if (item.view.stage === "reading") return `Reading (${percent})`;
  return "Waiting for a reader";
}

/**
 * The worksheets of a batch being read in the background: each one's state, live, and Open for one that was
 * read (or could not be), which brings it into the page to check.
 */
export function BackgroundReadingList({
  items,
  onOpen,
  onDismiss,
}: {
  items: BatchItem[];
  onOpen: (id: number) => void;
  onDismiss: (key: string) => void;
}) {
  if (items.length === 0) return null;
  const reading = items.filter((item) => !settled(item)).length;
  return (
    <Card role="region" aria-labelledby="background-reading-title">
      <CardHeader>
        <CardTitle id="background-reading-title">Worksheets being read</CardTitle>
        <p className="text-sm text-slate-700" aria-live="polite">
          {reading > 0
            ? `${reading} of ${items.length} still being read. You can keep working meanwhile.`
            : `All ${items.length} done. Open one to check it.`}
        </p>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {items.map((item) => {
            const done = settled(item);
            const ok = item.view?.state === "completed";
            const percent = item.view && !done ? Math.round(item.view.progress * 100) : null;
            return (
              <li key={item.key} className="flex items-center gap-3 rounded-md border border-slate-200 p-2 text-sm">
                {done ? (
                  ok ? (
                    <CheckCircle2 className="h-4 w-4 shrink-0 text-green-700" aria-hidden />
                  ) : (
                    <XCircle className="h-4 w-4 shrink-0 text-red-700" aria-hidden />
                  )
                ) : (
                  <Loader2 className="h-4 w-4 shrink-0 animate-spin text-brand-600" aria-hidden />
                )}
                <div className="grid min-w-0 flex-1 gap-1">
                  <span className="truncate font-medium text-slate-900">{item.name}</span>
                  <span className={ok || !done ? "text-slate-700" : "text-red-800"}>{describeItem(item)}</span>
                  {percent !== null ? (
                    <div
                      role="progressbar"
                      aria-label={`${item.name}: ${describeItem(item)}`}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={percent}
                      className="h-1.5 overflow-hidden rounded-full bg-slate-200"
                    >
                      <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
                    </div>
                  ) : null}
                </div>
                {item.id !== null && done && !item.refused ? (
                  <Button size="sm" variant="outline" onClick={() => onOpen(item.id!)}>
                    Open<span className="sr-only"> {item.name}</span>
                  </Button>
                ) : null}
                {done ? (
                  <Button size="sm" variant="ghost" onClick={() => onDismiss(item.key)}>
                    <X className="h-4 w-4" aria-hidden />
                    <span className="sr-only">Remove {item.name} from the list</span>
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
