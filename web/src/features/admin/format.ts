import { showDate } from "../../lib/dates";
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export const formatDollars = (value: number) => `$${value.toFixed(2)}`;

export const formatDate = (iso: string | null): string => showDate(iso, "N/A");
