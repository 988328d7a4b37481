import { useMutation } from "@tanstack/react-query";
import { type KeyboardEvent, type PointerEvent, useId, useRef, useState } from "react";
import {
  type WorksheetZone,
  worksheetZonesResponse,
  zoneFieldNames,
  zoneParameters,
} from "../../../../domain/contracts/worksheet-zones";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/card";
import { Input, Select } from "../../components/ui/input";
import { toast } from "../../components/ui/use-toast";
import { api, errorMessage, useApiQuery } from "../../lib/api";
import { queryClient } from "../../lib/query-client";
import { Field } from "./form-field";
import { responseText } from "./template-text";

const FIELD_NAMES: Record<(typeof zoneFieldNames)[number], string> = {
  patientName: "Patient name",
  patientDob: "Date of birth",
  examDate: "Exam date",
  indication: "Indication",
  referringPhysician: "Referring physician",
  mrn: "MRN",
  sonographer: "Sonographer",
  sex: "Sex",
  comments: "Comments",
};
const SHEET_UNIT: Record<(typeof zoneParameters)[number], "cm/s" | "s" | "mm"> = {
  PSV: "cm/s",
  EDV: "cm/s",
  MFV: "cm/s",
  REFLUX_MS: "s",
  DIAMETER_MM: "mm",
};
/** Pixels of the form a zone moves per arrow key (five times more with Ctrl). */
const STEP = 4;
const MIN_SIZE = 12;

export const zoneName = (z: WorksheetZone) =>
  z.kind === "field"
    ? FIELD_NAMES[z.field]
    : `${z.site.replace(/_/g, " ")} ${z.side ?? ""} ${z.parameter.replace("_MS", "").replace("_MM", "")}`.replace(
        /\s+/g,
        " ",
      );

type Drag = { id: string; mode: "move" | "resize"; x: number; y: number; start: WorksheetZone; scale: number };

/**
 * The reading zones of a clinic's blank form drawn on it: an admin selects a zone (pointer, or the list),
 * moves or resizes it by dragging (mouse, touch and stylus through pointer events) or with the arrow keys
 * (Shift+arrows resize), or types its position; assigns it to a field or a table cell; removes or adds zones; and
 * saves them for the form's next readings.
 */
export function FormZonesEditor({
  templateId,
  imageUrl,
  name,
}: {
  templateId: number;
  imageUrl: string;
  name: string;
}) {
  const url = `/api/worksheet-templates/${templateId}/zones`;
  const layout = useApiQuery([url], worksheetZonesResponse);
  const [zones, setZones] = useState<WorksheetZone[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const drag = useRef<Drag | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const id = useId();
  const save = useMutation({
    mutationFn: (next: WorksheetZone[]) => api.send("PUT", url, { zones: next }, worksheetZonesResponse),
    onSuccess: (saved) => {
      queryClient.setQueryData([url], saved);
      setZones(null);
      toast({
        title: "Reading Zones Saved",
        description: "The next worksheet of this form is read with them.",
        variant: "success",
      });
    },
    onError: (error) => toast({ title: "Saving Failed", description: responseText(error), variant: "destructive" }),
  });

  if (layout.isLoading) return <Spinner label="Loading reading zones..." />;
  if (layout.isError)
    return (
      <p role="alert" className="text-red-700">
        {errorMessage(layout.error)}
      </p>
    );
  const data = layout.data!;
  if (!data.readable && data.zones.length === 0) {
    return (
      <p className="text-sm text-slate-800">
        No reading zones were found on this form: it is a filled worksheet (its patient fields already hold values), it
        has too little printed text to be recognised on a filled sheet, or it could not be analysed. Worksheets are read
        without it. Upload a clear scan of the blank form to read worksheets by it.
      </p>
    );
  }
  const current = zones ?? data.zones;
  // Zones clinicians keep correcting on checked sheets (since the zones were last saved).
  const corrected = new Map(data.corrections.map((c) => [c.zoneId, c]));
  const zone = current.find((z) => z.id === selected) ?? null;
  const dirty = zones !== null;
  const clamp = (z: WorksheetZone): WorksheetZone => {
    const width = Math.max(MIN_SIZE, Math.min(z.width, data.width));
    const height = Math.max(MIN_SIZE, Math.min(z.height, data.height));
    return {
      ...z,
      width: Math.round(width),
      height: Math.round(height),
      x: Math.round(Math.max(0, Math.min(z.x, data.width - width))),
      y: Math.round(Math.max(0, Math.min(z.y, data.height - height))),
    };
  };
  const update = (zoneId: string, change: (z: WorksheetZone) => WorksheetZone) =>
    setZones(current.map((z) => (z.id === zoneId ? clamp(change(z)) : z)));
  const pct = (v: number, of: number) => `${(100 * v) / of}%`;

  const startDrag = (event: PointerEvent<HTMLElement>, z: WorksheetZone, mode: Drag["mode"]) => {
    event.stopPropagation();
    setSelected(z.id);
    const rect = stage.current!.getBoundingClientRect();
    drag.current = { id: z.id, mode, x: event.clientX, y: event.clientY, start: z, scale: data.width / rect.width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const moveDrag = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = (event.clientX - d.x) * d.scale;
    const dy = (event.clientY - d.y) * d.scale;
    update(d.id, () =>
      d.mode === "move"
        ? { ...d.start, x: d.start.x + dx, y: d.start.y + dy }
        : { ...d.start, width: d.start.width + dx, height: d.start.height + dy },
    );
  };
  const endDrag = () => {
    drag.current = null;
  };
  const onKey = (event: KeyboardEvent<HTMLElement>, z: WorksheetZone) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const step = STEP * (event.ctrlKey ? 5 : 1);
    const [dx, dy] = [move[0] * step, move[1] * step];
    update(z.id, (o) =>
      event.shiftKey ? { ...o, width: o.width + dx, height: o.height + dy } : { ...o, x: o.x + dx, y: o.y + dy },
    );
  };
  const addZone = () => {
    const used = new Set(current.flatMap((z) => (z.kind === "field" ? [z.field] : [])));
    const field = zoneFieldNames.find((f) => !used.has(f)) ?? "comments";
    let n = 1;
    while (current.some((z) => z.id === `z-${n}`)) n++;
    const fresh = clamp({
      id: `z-${n}`,
      kind: "field",
      field,
      x: data.width / 2 - 150,
      y: data.height / 2 - 40,
      width: 300,
      height: 80,
    });
    setZones([...current, fresh]);
    setSelected(fresh.id);
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div>
        <p id={`${id}-help`} className="mb-2 text-sm text-slate-800">
          Drag a zone to move it, or its corner to resize it. With a zone focused, the arrow keys move it and
          Shift+arrows resize it.
        </p>
        <div
          ref={stage}
          className="relative touch-none select-none border border-slate-300"
          onPointerDown={() => setSelected(null)}
        >
          <img src={imageUrl} alt={`Blank form ${name}`} className="block h-auto w-full" draggable={false} />
          {current.map((z) => {
            const active = z.id === selected;
            const toCheck = corrected.has(z.id);
            return (
              // biome-ignore lint/a11y/useSemanticElements: a positioned, draggable zone; keyboard handled below
              <div
                key={z.id}
                role="button"
                tabIndex={0}
                aria-pressed={active}
                aria-label={`Zone ${zoneName(z)}${toCheck ? " (often corrected)" : ""}`}
                aria-describedby={`${id}-help`}
                data-zone={z.id}
                className={
                  active
                    ? "absolute z-10 border-2 border-brand-700 bg-brand-600/20 outline-offset-2"
                    : toCheck
                      ? "absolute border-4 border-dashed border-amber-700 bg-amber-400/25"
                      : z.kind === "field"
                        ? "absolute border-2 border-red-700/80 bg-red-600/10"
                        : "absolute border border-blue-800/70 bg-blue-600/5"
                }
                style={{
                  left: pct(z.x, data.width),
                  top: pct(z.y, data.height),
                  width: pct(z.width, data.width),
                  height: pct(z.height, data.height),
                  cursor: "move",
                }}
                onPointerDown={(e) => startDrag(e, z, "move")}
                onPointerMove={moveDrag}
                onPointerUp={endDrag}
                onPointerCancel={endDrag}
                onFocus={() => setSelected(z.id)}
                onKeyDown={(e) => onKey(e, z)}
              >
                {z.kind === "field" ? (
                  <span className="pointer-events-none absolute left-0 top-0 bg-white/90 px-1 text-[10px] font-medium leading-tight text-slate-900 sm:text-xs">
                    {toCheck ? "⚠ " : ""}
                    {zoneName(z)}
                  </span>
                ) : null}
                {active ? (
                  <span
                    aria-hidden
                    className="absolute -bottom-2 -right-2 h-5 w-5 cursor-nwse-resize rounded-sm border-2 border-white bg-brand-700"
                    onPointerDown={(e) => startDrag(e, z, "resize")}
                    onPointerMove={moveDrag}
                    onPointerUp={endDrag}
                    onPointerCancel={endDrag}
                  />
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      <div className="space-y-4">
        {data.corrections.length ? (
          <div role="status" className="rounded-md border border-amber-700 bg-amber-50 p-3 text-sm text-slate-900">
            <p className="font-semibold">Zones to check</p>
            <ul className="mt-1 list-disc pl-5">
              {data.corrections.map((c) => {
                const z = current.find((k) => k.id === c.zoneId);
                return (
                  <li key={c.zoneId}>
                    <button
                      type="button"
                      className="text-left underline underline-offset-2"
                      onClick={() => setSelected(c.zoneId)}
                    >
                      {z ? zoneName(z) : c.field}
                    </button>
                    : corrected on {c.corrected} of the last {c.of} checked worksheets. Move or resize it over where the
                    value is written, then save.
                  </li>
                );
              })}
            </ul>
          </div>
        ) : null}
        <Field label="Zone" htmlFor={`${id}-pick`}>
          <Select id={`${id}-pick`} value={selected ?? ""} onChange={(e) => setSelected(e.target.value || null)}>
            <option value="">Choose a zone...</option>
            {current.map((z) => (
              <option key={z.id} value={z.id}>
                {zoneName(z)}
              </option>
            ))}
          </Select>
        </Field>
        {zone ? (
          <ZoneDetails
            key={zone.id}
            zone={zone}
            onChange={(next) => update(zone.id, () => next)}
            onRemove={() => {
              setZones(current.filter((z) => z.id !== zone.id));
              setSelected(null);
            }}
          />
        ) : (
          <p className="text-sm text-slate-800">
            {current.length} zones: {current.filter((z) => z.kind === "field").length} header fields and{" "}
            {current.filter((z) => z.kind === "cell").length} table cells.
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={addZone}>
            Add zone
          </Button>
          <Button type="button" variant="outline" disabled={!dirty} onClick={() => setZones(null)}>
            Undo changes
          </Button>
          <Button type="button" disabled={!dirty || save.isPending} onClick={() => save.mutate(current)}>
            {save.isPending ? "Saving..." : "Save zones"}
          </Button>
        </div>
      </div>
    </div>
  );
}

function ZoneDetails({
  zone,
  onChange,
  onRemove,
}: {
  zone: WorksheetZone;
  onChange: (z: WorksheetZone) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const kindValue = zone.kind === "field" ? zone.field : "cell";
  const number = (key: "x" | "y" | "width" | "height", label: string) => (
    <Field label={label} htmlFor={`${id}-${key}`}>
      <Input
        id={`${id}-${key}`}
        type="number"
        inputMode="numeric"
        value={zone[key]}
        onChange={(e) =>
          Number.isFinite(e.target.valueAsNumber) && onChange({ ...zone, [key]: e.target.valueAsNumber })
        }
      />
    </Field>
  );
  return (
    <fieldset className="space-y-3 rounded-md border border-slate-300 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-900">{zoneName(zone)}</legend>
      <Field label="Reads" htmlFor={`${id}-kind`}>
        <Select
          id={`${id}-kind`}
          value={kindValue}
          onChange={(e) => {
            const v = e.target.value;
            const { x, y, width, height } = zone;
            if (v === "cell") {
              onChange({
                id: zone.id,
                kind: "cell",
                site: "ICA_PROX",
                side: "right",
                parameter: "PSV",
                sheetUnit: "cm/s",
                x,
                y,
                width,
                height,
              });
            } else
              onChange({
                id: zone.id,
                kind: "field",
                field: v as (typeof zoneFieldNames)[number],
                x,
                y,
                width,
                height,
              });
          }}
        >
          {zoneFieldNames.map((f) => (
            <option key={f} value={f}>
              {FIELD_NAMES[f]}
            </option>
          ))}
          <option value="cell">A table cell (measurement)</option>
        </Select>
      </Field>
      {zone.kind === "cell" ? (
        <>
          <Field label="Site code" htmlFor={`${id}-site`}>
            <Input
              id={`${id}-site`}
              value={zone.site}
              onChange={(e) => {
                const site = e.target.value.toUpperCase().replace(/[^A-Z0-9_]/g, "");
                if (/^[A-Z]/.test(site)) onChange({ ...zone, site });
              }}
            />
          </Field>
          <Field label="Side" htmlFor={`${id}-side`}>
            <Select
              id={`${id}-side`}
              value={zone.side ?? ""}
              onChange={(e) => onChange({ ...zone, side: (e.target.value || null) as "left" | "right" | null })}
            >
              <option value="right">Right</option>
              <option value="left">Left</option>
              <option value="">Not sided</option>
            </Select>
          </Field>
          <Field label="Parameter" htmlFor={`${id}-param`}>
            <Select
              id={`${id}-param`}
              value={zone.parameter}
              onChange={(e) => {
                const parameter = e.target.value as (typeof zoneParameters)[number];
                onChange({ ...zone, parameter, sheetUnit: SHEET_UNIT[parameter] });
              }}
            >
              {zoneParameters.map((p) => (
                <option key={p} value={p}>
                  {p === "REFLUX_MS" ? "Reflux (s)" : p === "DIAMETER_MM" ? "Diameter (mm)" : `${p} (cm/s)`}
                </option>
              ))}
            </Select>
          </Field>
        </>
      ) : null}
      <div className="grid grid-cols-2 gap-2">
        {number("x", "Left (px)")}
        {number("y", "Top (px)")}
        {number("width", "Width (px)")}
        {number("height", "Height (px)")}
      </div>
      <Button type="button" variant="destructive" size="sm" onClick={onRemove}>
        Remove zone
      </Button>
    </fieldset>
  );
}
