import { ListChecks } from "lucide-react";
import type { OcrObservation } from "../../../../domain/contracts/ocr";
import type { Observation } from "../../../../domain/contracts/study";
import { observationPhrases } from "../../../../domain/report-engine/value-format";
import type { ObservationFinding } from "../../../../domain/report-engine/vocabulary";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { cn } from "../../lib/cn";
import { LOW_CONFIDENCE, siteWords } from "./measurement-rows";

/** A finding read from a marked check box, and whether the clinician keeps it for the report. */
export type ObservationRow = { key: string; read: OcrObservation; kept: boolean };

export const observationRowsFromOcr = (observations: readonly OcrObservation[] | undefined): ObservationRow[] =>
  (observations ?? []).map((read, index) => ({ key: `observation-${index}`, read, kept: true }));

/** What goes into the report: the kept findings, in the study's vocabulary. */
export const keptObservations = (rows: readonly ObservationRow[]): Observation[] =>
  rows
    .filter((row) => row.kept)
    .map(({ read }) => ({ site: read.site, side: read.side, finding: read.finding }) as Observation);

/** "Right Internal carotid artery: calcified plaque". */
export function observationName({ read }: ObservationRow): string {
  const side = read.side === "right" ? "Right " : read.side === "left" ? "Left " : "";
  const finding = observationPhrases[read.finding as ObservationFinding] ?? read.finding;
  return `${side}${siteWords(read.site)}: ${finding}`;
}

/**
 * The findings OCR read from the sheet's check boxes (a plaque's character, issue 31), to check like the
 * measurements: each is kept for the report unless the clinician unticks it, and can be outlined on the sheet.
 */
export function ObservationsCard({
  rows,
  selectedKey,
  onSelect,
  onChange,
}: {
  rows: ObservationRow[];
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onChange: (rows: ObservationRow[]) => void;
}) {
  if (rows.length === 0) return null;
  const toggle = (key: string, kept: boolean) => onChange(rows.map((r) => (r.key === key ? { ...r, kept } : r)));
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <span className="flex items-center gap-2">
            <ListChecks className="h-5 w-5" aria-hidden />
            Ticked on the worksheet
          </span>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <p id="observations-help" className="text-sm text-slate-700">
          Read from the sheet's check boxes. Each one ticked here goes into the report's findings: untick any the sheet
          does not say.
        </p>
        <ul className="grid gap-2" aria-label="Findings read from check boxes">
          {rows.map((row) => {
            const name = observationName(row);
            const unsure = row.read.confidence < LOW_CONFIDENCE;
            return (
              <li
                key={row.key}
                className={cn(
                  "flex flex-wrap items-center justify-between gap-2 rounded-md border p-2 text-sm",
                  row.key === selectedKey ? "border-brand-600 bg-brand-50" : "border-slate-200",
                )}
              >
                <label className="flex min-w-0 items-center gap-2 text-slate-900">
                  <input
                    type="checkbox"
                    className="h-4 w-4 shrink-0"
                    checked={row.kept}
                    aria-describedby="observations-help"
                    onChange={(event) => toggle(row.key, event.target.checked)}
                  />
                  <span className="min-w-0 break-words">
                    {name}
                    <span className="block text-xs text-slate-700">
                      Read as "{row.read.text}", {Math.round(row.read.confidence * 100)}% sure
                      {unsure ? ": check it on the sheet" : ""}
                    </span>
                  </span>
                </label>
                {row.read.box ? (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-label={`Show on the sheet: ${name}`}
                    onClick={() => onSelect(row.key)}
                  >
                    Show on the sheet
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
