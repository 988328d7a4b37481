import type { Box } from "../../../../domain/contracts/ocr";
import { LOW_CONFIDENCE, type MeasurementRow } from "./measurement-rows";

/** The table's sections: each side of the body in the worksheet's order, then what the clinician added. */
export type RowGroup = { key: "right" | "left" | "none" | "added"; label: string; rows: MeasurementRow[] };

const groupLabels: Record<RowGroup["key"], string> = {
  right: "Right",
  left: "Left",
  none: "No side (midline)",
  added: "Added by hand",
};

/**
 * Reading order on the sheet: page, then line, then left to right. Two boxes whose vertical centres are within
 * half a box height of each other are on one line (handwriting is never level).
 */
export function compareOnSheet(a: Box, b: Box): number {
  if (a.page !== b.page) return a.page - b.page;
  const ay = a.y + a.height / 2;
  const by = b.y + b.height / 2;
  if (Math.abs(ay - by) > Math.min(a.height, b.height) / 2) return ay - by;
  return a.x - b.x;
}

/** Rows read from the sheet in its order (rows without a box keep their place after those with one). */
function sheetOrdered(rows: MeasurementRow[]): MeasurementRow[] {
  const located = rows.filter((r) => r.box);
  const unlocated = rows.filter((r) => !r.box);
  return [...located.sort((a, b) => compareOnSheet(a.box!, b.box!)), ...unlocated];
}

/** Right, left and midline rows in the worksheet's order, then the rows added by hand as added. */
export function groupRows(rows: MeasurementRow[]): RowGroup[] {
  const read = sheetOrdered(rows.filter((r) => r.confidence !== null));
  const groups: RowGroup[] = [
    { key: "right", label: groupLabels.right, rows: read.filter((r) => r.side === "right") },
    { key: "left", label: groupLabels.left, rows: read.filter((r) => r.side === "left") },
    { key: "none", label: groupLabels.none, rows: read.filter((r) => r.side === null) },
    { key: "added", label: groupLabels.added, rows: rows.filter((r) => r.confidence === null) },
  ];
  return groups.filter((g) => g.rows.length > 0);
}

/** Read with low confidence, corrected or not: a correction does not move the row in the walk. */
const readUnsure = (row: MeasurementRow) => row.confidence !== null && row.confidence < LOW_CONFIDENCE;

/**
 * The order Enter walks the values in: those read with low confidence first (they need the clinician's eye),
 * then every other value, each part in the table's order.
 */
export function checkOrder(groups: RowGroup[]): string[] {
  const shown = groups.flatMap((g) => g.rows);
  return [...shown.filter(readUnsure), ...shown.filter((r) => !readUnsure(r))].map((r) => r.key);
}

/** The key Enter (step 1) or Shift+Enter (step -1) moves to from `key`; it wraps around. */
export function nextInOrder(order: string[], key: string, step: 1 | -1): string | null {
  if (order.length === 0) return null;
  const at = order.indexOf(key);
  if (at === -1) return order[0]!;
  return order[(at + step + order.length) % order.length]!;
}
