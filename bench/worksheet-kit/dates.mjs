// Dates on the worksheets: random dates, written in the formats clinics use, with ISO ground truth.

export const pad = (n) => String(n).padStart(2, "0");
export function isoOf(y, m, d) {
  return `${y}-${pad(m)}-${pad(d)}`;
}
export function randomDate(rng, y0, y1) {
  const y = rng.i(y0, y1);
  const m = rng.i(1, 12);
  const dim = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { y, m, d: rng.i(1, dim) };
}
// Two-digit-year rules used by the extractor (documented in README):
//   DOB: yy <= 30 -> 20yy else 19yy ; exam date: yy > EXAM_PIVOT -> 19yy else 20yy
export const EXAM_PIVOT = 26;
export function twoDigitOk(kind, y) {
  const yy = y % 100;
  const back = kind === "dob" ? (yy <= 30 ? 2000 + yy : 1900 + yy) : yy > EXAM_PIVOT ? 1900 + yy : 2000 + yy;
  return back === y;
}
export const DATE_FORMATS = [
  "dd/mm/yyyy",
  "dd.mm.yy",
  "dd-mm-yyyy",
  "yyyy-mm-dd",
  "dd.mm.yyyy",
  "d/m/yyyy",
  "dd/mm/yy",
];
export function formatDate(rng, kind, { y, m, d }) {
  let fmt = rng.pick(DATE_FORMATS);
  if (fmt.endsWith("yy") && !fmt.endsWith("yyyy") && !twoDigitOk(kind, y)) fmt = fmt.replace(/yy$/, "yyyy");
  const s = fmt
    .replace("yyyy", String(y))
    .replace(/yy$/, pad(y % 100))
    .replace("dd", pad(d))
    .replace(/\bd\b/, String(d))
    .replace("mm", pad(m))
    .replace(/\bm\b/, String(m));
  return { text: s, format: fmt };
}
