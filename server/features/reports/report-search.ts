import type { SearchToken } from "./reports.repository";

const MAX_TOKENS = 8;
const MAX_INT = 2_147_483_647;

/**
 * The search box, word by word: every word must match the patient name, study type or MRN (substring), the
 * report number ("123" or "#123") or the exam date or date of birth (ISO, or day/month/year with /, . or -).
 */
export function parseSearch(search: string | undefined): SearchToken[] {
  const words = (search ?? "").trim().split(/\s+/).filter(Boolean).slice(0, MAX_TOKENS);
  return words.map((word) => ({ text: word, id: reportNumber(word), date: examDate(word) }));
}

function reportNumber(word: string): number | null {
  const match = word.match(/^#?(\d{1,10})$/);
  if (!match) return null;
  const n = Number(match[1]);
  return n >= 1 && n <= MAX_INT ? n : null;
}

function examDate(word: string): string | null {
  let y: number;
  let m: number;
  let d: number;
  const iso = word.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
  const dmy = word.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy) [d, m, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}
