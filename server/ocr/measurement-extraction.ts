import type { OcrMeasurement } from "../../domain/contracts/ocr";
import { ctcDecode } from "./ctc-decode";
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

type CellReading = { parsed: { value: number; factor: number }; text: string; confidence: number };

/**
 * Reads one cell. A cell in one region is read from its main crop and its alternates and the parsed values vote:
 * the winner's confidence is scaled by its share of the votes, so a number the crops disagree on is marked doubtful.
 */
function readCell(parts: ReadRegion[], alphabet: string, decimals: boolean): CellReading | null {
  const single = parts.length === 1 ? parts[0]! : null;
  const matrices = single ? [single.matrix, ...(single.alternates ?? [])] : [null];
  const readings: CellReading[] = [];
  for (const matrix of matrices) {
    const decoded = matrix ? [ctcDecode(matrix, alphabet)] : parts.map((p) => ctcDecode(p.matrix, alphabet));
    const text = decoded.map((d) => d.text).join("");
    const parsed = parseCell(text, decimals);
    if (!parsed) continue;
    const scored = decoded.filter((d) => d.chars.length).map((d) => d.confidence);
    readings.push({
      parsed,
      text: text.replace(/^[-.]+|[-.]+$/g, ""),
      confidence: Math.min(...scored) * parsed.factor,
    });
  }
  if (readings.length === 0) return null;
  const votes = new Map<number, CellReading[]>();
  for (const r of readings) votes.set(r.parsed.value, [...(votes.get(r.parsed.value) ?? []), r]);
  const [, winners] = [...votes.entries()].sort((a, b) => b[1].length - a[1].length || sum(b[1]) - sum(a[1]))[0]!;
  // The main crop's reading when it is among the winners, so text and box match what is shown.
  const chosen = winners.includes(readings[0]!) ? readings[0]! : winners[0]!;
  const agreement = winners.length / matrices.length;
  return { ...chosen, confidence: (sum(winners) / winners.length) * agreement };
}

const sum = (rs: CellReading[]) => rs.reduce((s, r) => s + r.confidence, 0);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Parses a cell in the sheet's unit; a decimal column with a lost point gets it back, at low confidence. */
function parseCell(text: string, decimals: boolean): { value: number; factor: number } | null {
  const cleaned = text.replace(/^[-.]+|[-.]+$/g, "");
  if (!/\d/.test(cleaned) || /-/.test(cleaned)) return null;
  if (!decimals) return /^\d{1,3}$/.test(cleaned) ? { value: Number(cleaned), factor: 1 } : null;
  if (/^\d{1,2}(\.\d{1,2})?$/.test(cleaned)) return { value: Number(cleaned), factor: cleaned.includes(".") ? 1 : 0.8 };
  if (/^\d{2,3}$/.test(cleaned)) return { value: Number(`${cleaned.slice(0, -1)}.${cleaned.slice(-1)}`), factor: 0.4 };
  return null;
}

/**
 * Reads the measurement table: each handwritten value is anchored to its row (vessel label) and its column
 * (side and parameter header) and decoded with the column's alphabet only (digits, and the point where the
 * column holds decimals), which is what makes handwritten digits readable.
 */
export function extractMeasurements(regions: ReadRegion[]): OcrMeasurement[] {
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
  const out: (OcrMeasurement & { sheetValue: number })[] = [];
  for (const { row, column, parts } of cells.values()) {
    const range = PLAUSIBLE[column.parameter];
    const decimals = (range?.decimals ?? true) && column.sheetUnit !== "ms";
    const reading = readCell(
      parts.sort((a, b) => a.u0 - b.u0),
      decimals ? "0123456789.-" : "0123456789-",
      decimals,
    );
    if (!reading) continue;
    const { parsed, text } = reading;
    let confidence = reading.confidence;
    const scale = column.parameter === "REFLUX_MS" && column.sheetUnit === "s" ? 1000 : 1;
    const limit = column.parameter === "REFLUX_MS" && column.sheetUnit === "ms" ? 1000 : 1;
    if (range && (parsed.value < range.min * limit || parsed.value > range.max * limit)) confidence *= 0.3;
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
      text: text.replace(/^[-.]+|[-.]+$/g, ""),
      box: {
        page: xs[0]!.page,
        x: x0,
        y: y0,
        width: Math.max(...xs.map((b) => b.x + b.width)) - x0,
        height: Math.max(...xs.map((b) => b.y + b.height)) - y0,
      },
      sheetValue: parsed.value,
    });
  }
  // An end-diastolic velocity above the peak systolic one of the same vessel and side is a misread of one of them.
  for (const edv of out.filter((m) => m.parameter === "EDV")) {
    const psv = out.find((m) => m.parameter === "PSV" && m.site === edv.site && m.side === edv.side);
    if (psv && edv.value > psv.value) {
      edv.confidence *= 0.5;
      psv.confidence *= 0.5;
    }
  }
  return out.map(({ sheetValue: _, ...m }) => ({ ...m, confidence: Math.round(m.confidence * 1000) / 1000 }));
}
