import type { OcrMeasurement } from "../../domain/contracts/ocr";
import { type CellSignals, cellConfidence } from "./cell-confidence";
import { readNumberCell } from "./cell-reading";
import { emissionConfidence } from "./cell-rescue";
import { centerU, centerV, groupLines, heightOf, type ReadRegion } from "./read-region";
import { type ColumnKind, columnFromHeader, PLAUSIBLE, siteFromLabel } from "./worksheet-vocabulary";

type Column = ColumnKind & { u: number; left: number; right: number; header: ReadRegion };
type Row = { site: string; v: number; label: ReadRegion };

/** Finds the column headers ("Rt PSV cm/s"), also when the detector split one header into two regions. */
function findColumns(regions: ReadRegion[]): Column[] {
  const found: Column[] = [];
  for (const line of groupLines(regions)) {
    for (let i = 0; i < line.length; i++) {
      const alone = columnFromHeader(line[i]!.read.text);
      const joined = i + 1 < line.length ? columnFromHeader(line[i]!.read.text + line[i + 1]!.read.text) : null;
      const kind = alone ?? joined;
      if (!kind) continue;
      const u1 = alone ? line[i]!.u1 : line[i + 1]!.u1;
      found.push({ ...kind, u: (line[i]!.u0 + u1) / 2, left: 0, right: 0, header: line[i]! });
      if (!alone) i++;
    }
  }
  if (found.length === 0) return [];
  // Keep the header line with the most columns: one table per worksheet is what the layouts have.
  const byLine = groupLines(found.map((c) => c.header));
  const main = byLine.sort((a, b) => b.length - a.length)[0]!;
  const columns = found.filter((c) => main.includes(c.header)).sort((a, b) => a.u - b.u);
  columns.forEach((c, i) => {
    const prev = columns[i - 1];
    const next = columns[i + 1];
    const half = next ? (next.u - c.u) / 2 : prev ? (c.u - prev.u) / 2 : c.header.u1 - c.header.u0;
    c.left = prev ? (prev.u + c.u) / 2 : c.u - half;
    c.right = next ? (c.u + next.u) / 2 : c.u + half;
  });
  return columns;
}

/** Row labels: vessel names below the header line and left of the first value column. */
function findRows(regions: ReadRegion[], columns: Column[]): Row[] {
  const headerBottom = Math.max(...columns.map((c) => c.header.v1));
  const firstLeft = columns[0]!.left;
  const rows: Row[] = [];
  for (const r of regions) {
    if (centerV(r) < headerBottom || centerU(r) > firstLeft) continue;
    const site = siteFromLabel(r.read.text);
    if (site) rows.push({ site, v: centerV(r), label: r });
  }
  return rows.sort((a, b) => a.v - b.v);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * Values read below this confidence are not emitted: a number nobody can read is better added by the clinician
 * than shown as a guess (a wrong number must be rare). 0.40 rather than 0.35: on five corpora 0.3 to 0.4 points
 * of precision for 0.1 to 1.0 of recall.
 */
export const MIN_MEASUREMENT_CONFIDENCE = 0.4;

/** What the detector's unclipping adds around a word, in text heights. */
const REGION_PADDING = 0.35;
/** Character width (text heights) when a page has too few sure cells to measure its own. */
const DEFAULT_CHAR_WIDTH = 0.45;
/** How many characters' width a cell may have beyond what was read in it. */
const WIDTH_TOLERANCE = 0.8;

/** Width of the ink of a cell (text heights) and how many characters were read in it (a point counts half). */
function cellWidth(parts: ReadRegion[], text: string) {
  const width = parts.reduce((s, p) => s + (p.u1 - p.u0) / heightOf(p) - REGION_PADDING, 0);
  const units = [...text].reduce((s, ch) => s + (ch === "." ? 0.5 : 1), 0);
  return { width, units };
}

/**
 * A cell much wider than the characters read in it has lost one: the recogniser sometimes sees nothing at all
 * of a digit in an unusual hand ("24" read as a sure "4"), and no probability shows it. The ink's width does,
 * measured against the page's own character width (one hand, or one printer font, per page).
 */
function penaliseWideCells(
  cells: {
    width: number;
    units: number;
    confidence: number;
    doubt?: string | null;
    strokesAgree: boolean;
    signals: CellSignals;
  }[],
) {
  // Cells the recogniser was sure of (its votes alone, and no other reading of the strokes) measure the hand.
  const sure = cells
    .filter((c) => c.signals.votes >= 0.8 && c.signals.strokes !== "disagree" && c.units > 0)
    .map((c) => c.width / c.units);
  const charWidth = sure.length >= 5 ? median(sure) : DEFAULT_CHAR_WIDTH;
  for (const c of cells) {
    // The digit classifier found the same characters in the ink: nothing was lost, the hand is merely wide (real
    // handwritten digits are often wider than tall; measured on seed 101, 37 of 63 values read right and not
    // emitted had been penalised here).
    if (c.strokesAgree) continue;
    if (c.width / charWidth - c.units > WIDTH_TOLERANCE) {
      c.signals.wide = true;
      c.doubt ??= "more is written in the cell than was read: check the sheet";
    }
  }
}

/**
 * Reads the measurement table: each handwritten value is anchored to its row (vessel label) and its column
 * (side and parameter header) and decoded with the column's alphabet only (digits, and the point where the
 * column holds decimals), which is what makes handwritten digits readable.
 */
export function extractMeasurements(regions: ReadRegion[]): OcrMeasurement[] {
  return readMeasurementCells(regions)
    .filter((m) => m.confidence >= MIN_MEASUREMENT_CONFIDENCE)
    .map(({ parts: _, signals: __, ...m }) => ({ ...m, confidence: Math.round(m.confidence * 1000) / 1000 }));
}

/** Every table cell's reading, also those too doubtful to emit, with the regions it was read from (for benches). */
export function readMeasurementCells(
  regions: ReadRegion[],
): (OcrMeasurement & { parts: ReadRegion[]; signals: CellSignals })[] {
  const columns = findColumns(regions);
  if (columns.length === 0) return [];
  const rows = findRows(regions, columns);
  if (rows.length === 0) return [];
  const pitch =
    rows.length > 1 ? median(rows.slice(1).map((r, i) => r.v - rows[i]!.v)) : heightOf(rows[0]!.label) * 1.5;
  const headerBottom = Math.max(...columns.map((c) => c.header.v1));
  const cells = new Map<string, { row: Row; column: Column; parts: ReadRegion[] }>();
  for (const r of regions) {
    const u = centerU(r);
    const v = centerV(r);
    if (v < headerBottom || u < columns[0]!.left || u > columns.at(-1)!.right) continue;
    if (rows.some((row) => row.label === r) || columns.some((c) => c.header === r)) continue;
    const row = rows.reduce((a, b) => (Math.abs(a.v - v) <= Math.abs(b.v - v) ? a : b));
    if (Math.abs(row.v - v) > 0.6 * pitch) continue;
    const column = columns.find((c) => u >= c.left && u < c.right);
    if (!column) continue;
    const key = `${row.site}|${column.side}|${column.parameter}`;
    const cell = cells.get(key) ?? { row, column, parts: [] };
    cell.parts.push(r);
    cells.set(key, cell);
  }
  const out: (OcrMeasurement & {
    parts: ReadRegion[];
    signals: CellSignals;
    width: number;
    units: number;
    strokesAgree: boolean;
    leadingOne: boolean;
  })[] = [];
  for (const { row, column, parts } of cells.values()) {
    const range = PLAUSIBLE[column.parameter];
    const decimals = (range?.decimals ?? true) && column.sheetUnit !== "ms";
    const scale = column.parameter === "REFLUX_MS" && column.sheetUnit === "s" ? 1000 : 1;
    const limit = column.parameter === "REFLUX_MS" && column.sheetUnit === "ms" ? 1000 : 1;
    const reading = readNumberCell(
      parts.sort((a, b) => a.u0 - b.u0),
      {
        decimals,
        min: (range?.min ?? 0) * limit,
        max: (range?.max ?? Number.POSITIVE_INFINITY) * limit,
        usual: range && {
          min: range.usualMin * limit,
          max: range.usualMax * limit,
          noun: range.noun,
          unit: column.sheetUnit,
        },
      },
    );
    if (!reading) continue;
    const { text } = reading;
    const parsed = { value: reading.value };
    const confidence = reading.confidence;
    const xs = parts.map((p) => p.box);
    const x0 = Math.min(...xs.map((b) => b.x));
    const y0 = Math.min(...xs.map((b) => b.y));
    out.push({
      site: row.site,
      side: column.side,
      parameter: column.parameter,
      value: Math.round(parsed.value * scale * 100) / 100,
      unit: column.unit,
      confidence,
      doubt: reading.doubt,
      text: text.replace(/^[-.]+|[-.]+$/g, ""),
      box: {
        page: xs[0]!.page,
        x: x0,
        y: y0,
        width: Math.max(...xs.map((b) => b.x + b.width)) - x0,
        height: Math.max(...xs.map((b) => b.y + b.height)) - y0,
      },
      parts,
      signals: reading.signals,
      strokesAgree: reading.byStrokes === reading.value,
      leadingOne: reading.leadingOne ?? false,
      ...cellWidth(parts, text),
    });
  }
  penaliseWideCells(out);
  // An end-diastolic velocity above the peak systolic one of the same vessel and side is a misread of one of them.
  for (const edv of out.filter((m) => m.parameter === "EDV")) {
    const psv = out.find((m) => m.parameter === "PSV" && m.site === edv.site && m.side === edv.side);
    if (psv && edv.value > psv.value) {
      edv.signals.conflict = true;
      edv.doubt ??= "end-diastolic velocity above the peak systolic one: check both";
      // A 1 the strokes put before the EDV is then the likelier misreading ("11" whose strokes read "111"): the PSV
      // is not doubted for it (committed corpus, ws-noisy-031).
      if (edv.leadingOne) continue;
      psv.signals.conflict = true;
      psv.doubt ??= "peak systolic velocity below the end-diastolic one: check both";
    }
  }
  // The width check and the pair of velocities add their signals: the confidence is judged again on them all, and
  // values both readers support are kept (cell-rescue.ts).
  for (const c of out) c.confidence = emissionConfidence(cellConfidence(c.signals), c, MIN_MEASUREMENT_CONFIDENCE);
  return out.map(({ width: _, units: __, strokesAgree: ___, leadingOne: ____, ...m }) => m);
}
