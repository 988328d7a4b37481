import { AlertTriangle, Plus, SearchCheck, Trash2 } from "lucide-react";
import { type KeyboardEvent, useMemo } from "react";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Input, Select } from "../../components/ui/input";
import { cn } from "../../lib/cn";
import { checkOrder, groupRows, nextInOrder } from "./checking-order";
import {
  blankRow,
  isInvalidValue,
  isLowConfidence,
  LOW_CONFIDENCE,
  type MeasurementRow,
  outsideLimits,
  parameterOptions,
  parameterShort,
  parameterWords,
  siteOptions,
  siteWords,
  unitOf,
} from "./measurement-rows";
import type { PageImage } from "./use-page-image";
import { WorksheetCrop } from "./worksheet-crop";

const sideWords = (side: MeasurementRow["side"]) => (side === "right" ? "Right" : side === "left" ? "Left" : "No side");

/** "Right Internal carotid artery Peak systolic velocity": how a row is named to screen readers. */
export const rowName = (row: MeasurementRow) =>
  `${sideWords(row.side)} ${siteWords(row.site)} ${parameterWords(row.parameter)}`;

const valueInputId = (key: string) => `${key}-value`;
const focusValue = (key: string | null) => {
  if (key) document.getElementById(valueInputId(key))?.focus();
};

/**
 * The values OCR read, for the clinician to check against the sheet and correct before generating: grouped by
 * side in the worksheet's order. Enter moves to the next value to check (low-confidence ones first), Shift+Enter
 * back; the focused row is the selected one, outlined on the worksheet beside the table.
 */
export function MeasurementsTable({
  rows,
  page,
  selectedKey,
  onSelect,
  onChange,
  fromSr = false,
  notes = [],
  origin = null,
}: {
  rows: MeasurementRow[];
  page: PageImage | null;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onChange: (rows: MeasurementRow[]) => void;
  /** The values came from the ultrasound machine's DICOM SR, not from a sheet: there is no page to compare with. */
  fromSr?: boolean;
  /** What the reading left out and why (a DICOM SR's values without codes this product uses). */
  notes?: string[];
  /** The SR's device and study date ("GE LOGIQ E10, study of 2025-03-01"), when it says them. */
  origin?: string | null;
}) {
  const update = (key: string, patch: Partial<MeasurementRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...patch, edited: true } : row)));
  const lowCount = rows.filter(isLowConfidence).length;
  const groups = useMemo(() => groupRows(rows), [rows]);
  const order = useMemo(() => checkOrder(groups), [groups]);
  const onValueKey = (key: string) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    focusValue(nextInOrder(order, key, event.shiftKey ? -1 : 1));
  };
  const firstToCheck = rows.find(isLowConfidence)?.key ?? order[0] ?? null;

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>
          {fromSr ? "Measurements from the DICOM structured report" : "Measurements read from the worksheet"}
        </CardTitle>
        <p className="text-sm text-slate-700">
          {fromSr
            ? `Read from the ultrasound machine's DICOM SR${origin ? ` (${origin})` : ""}: its coded measurements (vessel, side and measurement). Check them, and correct or add any before generating.`
            : "Check each value against the part of the worksheet it was read from, and correct it before generating."}
        </p>
      </CardHeader>
      <CardContent className="grid gap-3">
        {notes.length > 0 ? (
          <ul className="grid gap-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        ) : null}
        {lowCount > 0 ? (
          <p className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            {lowCount === 1 ? "1 value was" : `${lowCount} values were`} read with low confidence (below{" "}
            {Math.round(LOW_CONFIDENCE * 100)}%) and {lowCount === 1 ? "is" : "are"} highlighted in amber. Compare{" "}
            {lowCount === 1 ? "it" : "them"} with the worksheet.
          </p>
        ) : null}
        {rows.length > 0 ? (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <Button variant="outline" size="sm" onClick={() => focusValue(firstToCheck)}>
              <SearchCheck className="h-4 w-4" aria-hidden />
              {lowCount > 0 ? "Check low-confidence values" : "Check values"}
            </Button>
            <p id="measurements-keys" className="text-xs text-slate-700">
              In a value, Enter goes to the next one to check (low-confidence values first), Shift+Enter back.
            </p>
          </div>
        ) : null}
        {rows.length === 0 ? (
          <p className="text-sm text-slate-700">No measurements were read. Add any the report needs.</p>
        ) : (
          <div className="relative -mx-5 overflow-x-auto px-5">
            <table className="w-full border-collapse text-sm sm:min-w-[30rem]">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-700">
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Vessel
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Parameter
                  </th>
                  <th scope="col" className="py-2 pr-2 font-semibold">
                    Value
                  </th>
                  <th scope="col" className="hidden py-2 pr-2 font-semibold sm:table-cell">
                    {fromSr || rows.some((r) => r.source === "DICOM SR") ? "Source" : "On the worksheet"}
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.key}>
                  <tr className="border-b border-slate-200 bg-slate-50">
                    <th
                      scope="rowgroup"
                      colSpan={5}
                      className="px-2 py-1.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-800"
                    >
                      {group.label}
                    </th>
                  </tr>
                  {group.rows.map((row) => (
                    <MeasurementLine
                      key={row.key}
                      row={row}
                      page={page}
                      selected={row.key === selectedKey}
                      onSelect={() => onSelect(row.key)}
                      onValueKey={onValueKey(row.key)}
                      onUpdate={(patch) => update(row.key, patch)}
                      onRemove={() => onChange(rows.filter((r) => r.key !== row.key))}
                    />
                  ))}
                </tbody>
              ))}
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
  selected,
  onSelect,
  onValueKey,
  onUpdate,
  onRemove,
}: {
  row: MeasurementRow;
  page: PageImage | null;
  selected: boolean;
  onSelect: () => void;
  onValueKey: (event: KeyboardEvent<HTMLInputElement>) => void;
  onUpdate: (patch: Partial<MeasurementRow>) => void;
  onRemove: () => void;
}) {
  const manual = row.confidence === null;
  const low = isLowConfidence(row);
  const invalid = isInvalidValue(row.valueText);
  const implausible = invalid ? null : outsideLimits(row);
  const limitId = `${row.key}-limit`;
  const name = rowName(row);
  const errorId = `${row.key}-error`;
  const fromSr = row.source === "DICOM SR";
  const confidenceText = manual
    ? "Entered by hand"
    : row.edited
      ? "Corrected"
      : fromSr
        ? `As the machine reported it: ${row.readAs ?? row.valueText}`
        : `${Math.round((row.confidence ?? 0) * 100)}% confidence`;
  const source = (
    <>
      {fromSr ? (
        <span className="block text-xs font-semibold text-slate-900">DICOM SR</span>
      ) : manual ? null : (
        <WorksheetCrop box={row.box} page={page} label={`Worksheet crop of ${name}: read as ${row.readAs ?? ""}`} />
      )}
      <span className={cn("block text-xs", low ? "font-medium text-amber-900" : "text-slate-700")}>
        {confidenceText}
        {low ? <span className="sr-only"> (low: check this value)</span> : null}
      </span>
      {row.doubt && !row.edited ? <span className="block text-xs text-amber-900">{row.doubt}</span> : null}
    </>
  );
  return (
    <tr
      className={cn(
        "border-b border-slate-100 align-middle",
        low && "bg-amber-50",
        selected && "outline outline-2 -outline-offset-2 outline-fuchsia-700",
      )}
      // Focus anywhere in the row (value, selects, remove) selects it; a click on its text too.
      onFocus={onSelect}
      onClick={onSelect}
    >
      {manual ? (
        // A row typed by hand spans vessel and parameter: three narrow selects would be unreadable on a phone.
        <td colSpan={2} className="py-1.5 pr-2">
          <div className="grid gap-1">
            <Select
              aria-label="Vessel"
              value={row.site}
              onChange={(e) => onUpdate({ site: e.target.value })}
              className="h-9"
            >
              {siteOptions.map((o) => (
                <option key={o.code} value={o.code}>
                  {o.label}
                </option>
              ))}
            </Select>
            <div className="grid gap-1 sm:grid-cols-[auto_1fr]">
              <Select
                aria-label="Side"
                value={row.side ?? ""}
                onChange={(e) => onUpdate({ side: (e.target.value || null) as MeasurementRow["side"] })}
                className="h-9 w-auto"
              >
                <option value="right">Right</option>
                <option value="left">Left</option>
                <option value="">No side</option>
              </Select>
              <Select
                aria-label="Parameter"
                value={row.parameter}
                onChange={(e) => onUpdate({ parameter: e.target.value, unit: unitOf(e.target.value) })}
                className="h-9 min-w-0"
              >
                {parameterOptions.map((o) => (
                  <option key={o.code} value={o.code}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </div>
          </div>
        </td>
      ) : (
        <>
          <td className="py-1.5 pr-2 text-slate-900">
            <span className="block">{siteWords(row.site)}</span>
            <span className="block text-xs text-slate-700">{sideWords(row.side)}</span>
          </td>
          <td className="py-1.5 pr-2 text-slate-900">
            <abbr title={parameterWords(row.parameter)} className="no-underline">
              {parameterShort(row.parameter)}
            </abbr>
          </td>
        </>
      )}
      <td className="py-1.5 pr-2">
        <div className="flex items-center gap-1.5">
          <Input
            id={valueInputId(row.key)}
            aria-label={`${name} value`}
            inputMode="decimal"
            enterKeyHint="next"
            value={row.valueText}
            onChange={(e) => onUpdate({ valueText: e.target.value })}
            onKeyDown={onValueKey}
            aria-invalid={invalid}
            aria-describedby={[invalid ? errorId : null, implausible ? limitId : null, "measurements-keys"]
              .filter(Boolean)
              .join(" ")}
            className={cn("h-9 w-20", low && "border-amber-500 bg-white")}
          />
          <span className="text-xs whitespace-nowrap text-slate-800">{row.unit}</span>
        </div>
        {invalid ? (
          <span id={errorId} className="mt-0.5 block text-xs text-red-700">
            Enter a number
          </span>
        ) : null}
        {implausible ? (
          <span id={limitId} className="mt-0.5 block text-xs text-red-700">
            {capitalizeFirst(implausible)}
          </span>
        ) : null}
        {/* On a phone the worksheet column would be off screen: the crop goes under the value instead. */}
        <div className="mt-1 sm:hidden">{source}</div>
      </td>
      <td className="hidden py-1.5 pr-2 sm:table-cell">{source}</td>
      <td className="py-1.5">
        <Button variant="ghost" size="icon" className="h-8 w-8" onClick={onRemove} aria-label={`Remove ${name}`}>
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      </td>
    </tr>
  );
}

const capitalizeFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
