/** Ground truth of the form-family generator's sheets and how a reading is scored against it (shared benches). */
import type { OcrFieldName, OcrResult } from "../../domain/contracts/ocr";
import { columnFromHeader, siteFromLabel } from "../../server/ocr/worksheet-vocabulary";

export type Truth = {
  id: string;
  level: "clean" | "noisy";
  files: { image: string };
  patientNameTokens: string[];
  patientDob: string;
  examDate: string;
  otherFields: { mrn: string; referrer: string; sonographer: string; indication: string; sex: string };
  impression: string;
  measurements: { vessel: string; side: "R" | "L"; param: string; value: number; unit: string }[];
};

export const words = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const tokens = (name: string) => words(name).split(" ").filter(Boolean).sort().join(" ");
export const FIELDS: [OcrFieldName, (r: OcrResult, t: Truth) => boolean][] = [
  ["patientName", (r, t) => tokens(r.fields.patientName.value ?? "") === tokens(t.patientNameTokens.join(" "))],
  ["patientDob", (r, t) => r.fields.patientDob.value === t.patientDob],
  ["examDate", (r, t) => r.fields.examDate.value === t.examDate],
  ["mrn", (r, t) => (r.fields.mrn.value ?? "").toUpperCase() === t.otherFields.mrn.toUpperCase()],
  ["referringPhysician", (r, t) => words(r.fields.referringPhysician.value ?? "") === words(t.otherFields.referrer)],
  ["sonographer", (r, t) => words(r.fields.sonographer.value ?? "") === words(t.otherFields.sonographer)],
  ["indication", (r, t) => words(r.fields.indication.value ?? "") === words(t.otherFields.indication)],
  ["sex", (r, t) => r.fields.sex.value === (t.otherFields.sex === "M" ? "male" : "female")],
  // Spaces in a handwritten line are the recogniser's weakest point; the words' letters are what is compared.
  [
    "comments",
    (r, t) => words(r.fields.comments.value ?? "").replace(/ /g, "") === words(t.impression).replace(/ /g, ""),
  ],
];

export function expectedMeasurements(t: Truth): Set<string> {
  return new Set(
    t.measurements.map((m) => {
      const column = columnFromHeader(`${m.side === "R" ? "Rt" : "Lt"} ${m.param} ${m.unit}`);
      const value = column?.parameter === "REFLUX_MS" && m.unit === "s" ? Math.round(m.value * 1000) : m.value;
      return `${siteFromLabel(m.vessel)}|${m.side === "R" ? "right" : "left"}|${column?.parameter}|${value}`;
    }),
  );
}
