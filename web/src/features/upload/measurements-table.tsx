import { AlertTriangle, Plus, Trash2 } from "lucide-react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input, Select } from "../../components/ui/input";
import { cn } from "../../lib/cn";
import {
  blankRow,
  isLowConfidence,
  LOW_CONFIDENCE,
  type MeasurementRow,
  parameterOptions,
  parameterWords,
  parseValue,
  siteOptions,
  siteWords,
  unitOf,
} from "./measurement-rows";
import type { PageImage } from "./use-page-image";
import { WorksheetCrop } from "./worksheet-crop";

const sideWords = (side: MeasurementRow["side"]) => (side === "right" ? "Right" : side === "left" ? "Left" : "-");

/** The values OCR read, for the clinician to check against the sheet and correct before generating. */
export function MeasurementsTable({
  rows,
  page,
  onChange,
}: {
  rows: MeasurementRow[];
  page: PageImage | null;
  onChange: (rows: MeasurementRow[]) => void;
}) {
  const update = (key: string, patch: Partial<MeasurementRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch, edited: true } : row)));
  const lowCount = rows.filter(isLowConfidence).length;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Measurements read from the worksheet</CardTitle>
        <p className="text-sm text-slate-700">
          Check each value against the part of the worksheet it was read from, and correct it before generating.
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        {lowCount > 0 ? (
          <p className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            {lowCount === 1 ? "1 value was" : `${lowCount} values were`} read with low confidence (below{" "}
            {Math.round(LOW_CONFIDENCE * 100)}%) and {lowCount === 1 ? "is" : "are"} highlighted in amber. Compare{" "}
            {lowCount === 1 ? "it" : "them"} with the worksheet crop.
          </p>
        ) : null}
        {rows.length === 0 ? (
          <p className="text-sm text-slate-700">No measurements were read. Add any the report needs.</p>
        ) : (
          <div className="-mx-5 overflow-x-auto px-5">
            <table className="w-full min-w-[40rem] border-collapse text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-700">
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Vessel
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Side
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Parameter
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Value
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Unit
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Confidence
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    On the worksheet
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <MeasurementLine
                    key={row.key}
                    row={row}
                    page={page}
                    onUpdate={(patch) => update(row.key, patch)}
                    onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div>
          <Button variant="outline" size="sm" onClick={() => onChange([...rows, blankRow()])}>
            <Plus className="h-4 w-4" aria-hidden />
            Add measurement
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function MeasurementLine({
  row,
  page,
  onUpdate,
  onRemove,
}: {
  row: MeasurementRow;
  page: PageImage | null;
  onUpdate: (patch: Partial<MeasurementRow>) => void;
  onRemove: () => void;
}) {
  const manual = row.confidence === null;
  const low = isLowConfidence(row);
  const invalid = parseValue(row.valueText) === null;
  const name = `${sideWords(row.side)} ${siteWords(row.site)} ${parameterWords(row.parameter)}`;
  const errorId = `${row.key}-error`;
  return (
    <tr className="border-b border-slate-100 align-middle">
      <td className="py-1.5 pr-2 text-slate-900">
        {manual ? (
          <Select
            aria-label="Vessel"
            value={row.site}
            onChange={(e) => onUpdate({ site: e.target.value })}
            className="h-9 min-w-40"
          >
            {siteOptions.map((o) => (
              <option key={o.code} value={o.code}>
                {o.label}
              </option>
            ))}
          </Select>
        ) : (
          siteWords(row.site)
        )}
      </td>
      <td className="py-1.5 pr-2 text-slate-900">
        {manual ? (
          <Select
            aria-label="Side"
            value={row.side ?? ""}
            onChange={(e) => onUpdate({ side: (e.target.value || null) as MeasurementRow["side"] })}
            className="h-9 w-24"
          >
            <option value="right">Right</option>
            <option value="left">Left</option>
            <option value="">None</option>
          </Select>
        ) : (
          sideWords(row.side)
        )}
      </td>
      <td className="py-1.5 pr-2 text-slate-900">
        {manual ? (
          <Select
            aria-label="Parameter"
            value={row.parameter}
            onChange={(e) => onUpdate({ parameter: e.target.value, unit: unitOf(e.target.value) })}
            className="h-9 min-w-36"
          >
            {parameterOptions.map((o) => (
              <option key={o.code} value={o.code}>
                {o.label}
              </option>
            ))}
          </Select>
        ) : (
          parameterWords(row.parameter)
        )}
      </td>
      <td className={cn("py-1.5 pr-2", low && "bg-amber-50")}>
        <Input
          aria-label={`${name} value`}
          inputMode="decimal"
          value={row.valueText}
          onChange={(e) => onUpdate({ valueText: e.target.value })}
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          className={cn("h-9 w-24", low && "border-amber-500 bg-amber-50")}
        />
        {invalid ? (
          <span id={errorId} className="mt-0.5 block text-xs text-red-700">
            Enter a number
          </span>
        ) : null}
      </td>
      <td className="py-1.5 pr-2 text-slate-800">{row.unit || "-"}</td>
      <td className={cn("py-1.5 pr-2", low ? "bg-amber-50 font-medium text-amber-900" : "text-slate-800")}>
        {manual ? "Entered" : row.edited ? "Corrected" : `${Math.round((row.confidence ?? 0) * 100)}%`}
        {low ? <span className="sr-only"> (low confidence: check this value)</span> : null}
      </td>
      <td className="py-1.5 pr-2">
        {manual ? (
          <span className="text-xs text-slate-700">Entered by hand</span>
        ) : (
          <WorksheetCrop box={row.box} page={page} label={`Worksheet crop of ${name}: read as ${row.readAs ?? ""}`} />
        )}
      </td>
      <td className="py-1.5">
        <Button variant="ghost" size="icon" className="h-8 w-8" onClick={onRemove} aria-label={`Remove ${name}`}>
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      </td>
    </tr>
  );
}
