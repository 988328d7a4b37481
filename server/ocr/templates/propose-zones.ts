import type { Box, OcrFieldName } from "../../../domain/contracts/ocr";
import type { CellZone, FieldZone, WorksheetZone } from "../../../domain/contracts/worksheet-zones";
import { fieldOfLabel } from "../field-labels";
import { columnFromHeader, siteFromLabel, squash } from "../worksheet-vocabulary";
import type { FormRules, Rule } from "./form-rules";

/** A printed text on the form: what was read and where (page pixels). */
export type FormText = { text: string; box: Box };
/** A printed text that helps find the form on a photo of a filled sheet: squashed text and its centre. */
export type FormAnchor = { text: string; x: number; y: number };
export type FormLayout = {
  width: number;
  height: number;
  anchors: FormAnchor[];
  zones: WorksheetZone[];
  /** Zones an admin added or changed on the Templates screen (the others are as proposed): they keep priority. */
  editedZoneIds?: string[];
  /** When an admin last saved the zones (ISO): corrections before it no longer count against a zone. */
  zonesSavedAt?: string;
};

/** Anchors shorter than this (squashed) are too common to identify a place ("l", "dr"). */
const MIN_ANCHOR_LENGTH = 3;
/** How far above an underline handwriting reaches, in label heights (handwriting is larger than print). */
const ABOVE_LINE = 1.9;
const BELOW_LINE = 0.35;

const round = (n: number) => Math.round(n);
const right = (b: Box) => b.x + b.width;
const middle = (b: Box) => b.y + b.height / 2;

/**
 * Proposes the reading zones of a clinic's blank form from its printed texts and ruled lines: a value slot for
 * each header label (its underline, the space after it up to the next label or line, or the ruled lines below
 * it for comments), and one zone per table cell named by its row's vessel and its column's side and parameter.
 * An admin reviews them on the Templates screen.
 */
export function proposeZones(texts: FormText[], rules: FormRules, size: { width: number; height: number }): FormLayout {
  const fields = fieldZones(texts, rules, size.width);
  // A filled sheet uploaded as the "blank" form (a drawing template made from an example sheet): its patient slots
  // already hold a patient's values, which would become anchors and misplace every zone. It gets no zones, so it is
  // never used for reading; worksheets are then read by the general reader.
  const zones: WorksheetZone[] = isFilledSheet(texts, fields) ? [] : [...fields, ...cellZones(texts, rules)];
  return { width: size.width, height: size.height, anchors: formAnchors(texts), zones };
}

const PATIENT_FIELDS: readonly OcrFieldName[] = ["patientName", "patientDob", "examDate"];

/** Two or more of the patient slots already hold text: the form is a filled worksheet, not a blank one. */
export function isFilledSheet(texts: FormText[], zones: WorksheetZone[]): boolean {
  const holdsText = (z: WorksheetZone) =>
    texts.some((t) => {
      const cx = t.box.x + t.box.width / 2;
      const cy = middle(t.box);
      return cx > z.x && cx < z.x + z.width && cy > z.y && cy < z.y + z.height;
    });
  const filled = zones.filter((z) => z.kind === "field" && PATIENT_FIELDS.includes(z.field) && holdsText(z));
  return filled.length >= 2;
}

/** Every printed text whose wording is unique on the form. */
export function formAnchors(texts: FormText[]): FormAnchor[] {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(squash(t.text), (counts.get(squash(t.text)) ?? 0) + 1);
  return texts
    .map((t) => ({ text: squash(t.text), x: round(t.box.x + t.box.width / 2), y: round(middle(t.box)) }))
    .filter((a) => a.text.length >= MIN_ANCHOR_LENGTH && counts.get(a.text) === 1);
}

function fieldZones(texts: FormText[], rules: FormRules, pageWidth: number): FieldZone[] {
  const zones: FieldZone[] = [];
  for (const t of texts) {
    const field = fieldOfLabel(t.text);
    if (!field || zones.some((z) => z.field === field)) continue;
    const slot = underlineSlot(t.box, rules) ?? linesBelow(t.box, rules) ?? spaceAfter(t, texts, rules, pageWidth);
    if (!slot || slot.width < t.box.height) continue;
    zones.push({ id: fieldZoneId(field), kind: "field", field, ...slot });
  }
  return zones;
}

export const fieldZoneId = (field: OcrFieldName) => `f-${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

type Rect = { x: number; y: number; width: number; height: number };
const rect = (x0: number, y0: number, x1: number, y1: number): Rect => ({
  x: round(Math.max(0, x0)),
  y: round(Math.max(0, y0)),
  width: round(x1 - Math.max(0, x0)),
  height: round(y1 - Math.max(0, y0)),
});

/** An underline starting just after the label, at its baseline: the value is written on it. */
function underlineSlot(label: Box, rules: FormRules): Rect | null {
  const h = label.height;
  const line = rules.horizontal
    .filter(
      (r) =>
        r.at >= label.y + 0.5 * h &&
        r.at <= label.y + 1.6 * h &&
        r.from >= right(label) - h &&
        r.from <= right(label) + 3 * h &&
        r.to - r.from >= 2 * h,
    )
    .sort((a, b) => a.from - b.from)[0];
  return line ? rect(line.from, line.at - ABOVE_LINE * h, line.to, line.at + BELOW_LINE * h) : null;
}

/** Ruled lines under a label that has none after it (a comments box): the value fills the lines. */
function linesBelow(label: Box, rules: FormRules): Rect | null {
  const h = label.height;
  const lines: Rule[] = [];
  let bottom = label.y + label.height;
  for (const r of rules.horizontal) {
    if (r.at <= bottom || r.at > bottom + 3 * h) continue;
    if (r.from > label.x + 2 * h || r.to < right(label)) continue;
    lines.push(r);
    bottom = r.at;
  }
  if (lines.length === 0) return null;
  return rect(
    Math.min(...lines.map((l) => l.from)),
    label.y + label.height,
    Math.max(...lines.map((l) => l.to)),
    bottom + BELOW_LINE * h,
  );
}

/** No line to write on: the space after the label up to the next text or ruled line on its row. */
function spaceAfter(label: FormText, texts: FormText[], rules: FormRules, pageWidth: number): Rect | null {
  const b = label.box;
  const h = b.height;
  const y = middle(b);
  const nextText = texts
    .filter((t) => t !== label && Math.abs(middle(t.box) - y) < 0.5 * h && t.box.x > right(b))
    .map((t) => t.box.x);
  const nextRule = rules.vertical.filter((r) => r.at > right(b) && r.from <= y && r.to >= y).map((r) => r.at);
  const end = Math.min(pageWidth, ...nextText, ...nextRule);
  return rect(right(b) + 0.2 * h, b.y - 0.8 * h, end - 0.2 * h, b.y + b.height + 0.5 * h);
}

/** The grid line nearest a position on the side asked, crossing the given point of the other axis. */
function ruleBeside(rules: Rule[], across: number, from: number, direction: 1 | -1, limit: number): number | null {
  const hits = rules
    .filter((r) => r.from - 3 <= across && r.to + 3 >= across && (r.at - from) * direction > 0)
    .map((r) => r.at)
    .filter((at) => Math.abs(at - from) <= limit)
    .sort((a, b) => (a - b) * direction);
  return hits[0] ?? null;
}

function cellZones(texts: FormText[], rules: FormRules): CellZone[] {
  type Column = NonNullable<ReturnType<typeof columnFromHeader>> & {
    x0: number;
    x1: number;
    y: number;
    bottom: number;
  };
  const columns: Column[] = [];
  for (const t of texts) {
    const kind = columnFromHeader(t.text);
    if (kind)
      columns.push({ ...kind, x0: t.box.x, x1: right(t.box), y: middle(t.box), bottom: t.box.y + t.box.height });
  }
  if (columns.length === 0) return [];
  // One table: the header row with the most columns.
  const rowOf = (c: Column) => columns.filter((o) => Math.abs(o.y - c.y) < 20).length;
  const headerY = columns.reduce((a, b) => (rowOf(b) > rowOf(a) ? b : a)).y;
  const header = columns.filter((c) => Math.abs(c.y - headerY) < 20).sort((a, b) => a.x0 - b.x0);
  const headerBottom = Math.max(...header.map((c) => c.bottom));
  const firstLeft = header[0]!.x0;
  const rows = texts
    .filter((t) => middle(t.box) > headerBottom && right(t.box) < firstLeft + 10)
    .flatMap((t) => {
      const site = siteFromLabel(t.text);
      return site ? [{ site, box: t.box }] : [];
    })
    .sort((a, b) => a.box.y - b.box.y);
  if (rows.length === 0) return [];
  const pitch =
    rows.length > 1 ? (middle(rows.at(-1)!.box) - middle(rows[0]!.box)) / (rows.length - 1) : 2 * rows[0]!.box.height;
  const zones: CellZone[] = [];
  header.forEach((c, i) => {
    const cx = (c.x0 + c.x1) / 2;
    const half =
      header.length > 1
        ? (i > 0 ? cx - (header[i - 1]!.x0 + header[i - 1]!.x1) / 2 : (header[1]!.x0 + header[1]!.x1) / 2 - cx) / 2
        : c.x1 - c.x0;
    for (const row of rows) {
      const y = middle(row.box);
      const left = ruleBeside(rules.vertical, y, c.x0 + 2, -1, 2 * half) ?? cx - half;
      const rightEdge = ruleBeside(rules.vertical, y, c.x1 - 2, 1, 2 * half) ?? cx + half;
      const top = ruleBeside(rules.horizontal, cx, y, -1, pitch) ?? y - pitch / 2;
      const bottom = ruleBeside(rules.horizontal, cx, y, 1, pitch) ?? y + pitch / 2;
      const id = `c-${row.site}-${c.side ?? "x"}-${c.parameter}`.toLowerCase().replace(/_/g, "-");
      if (zones.some((z) => z.id === id)) continue;
      zones.push({
        id,
        kind: "cell",
        site: row.site,
        side: c.side,
        parameter: c.parameter as CellZone["parameter"],
        sheetUnit: c.sheetUnit as CellZone["sheetUnit"],
        ...rect(left, top, rightEdge, bottom),
      });
    }
  });
  return zones;
}
