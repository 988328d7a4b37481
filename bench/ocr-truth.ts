/** The ground truth of the worksheet generators' sheets, shared by bench/ocr.ts and bench/handwriting/miss-causes.ts. */
import type { OcrHeaderFieldName } from "../domain/contracts/ocr";
import { columnFromHeader, siteFromLabel } from "../server/ocr/worksheet-vocabulary";

export type Truth = {
  id: string;
  level: "clean" | "noisy";
  files: { image: string; pdf: string | null };
  patientNameTokens: string[];
  patientDob: string;
  examDate: string;
  measurements: { vessel: string; side: "R" | "L"; param: string; value: number; unit: string; written?: string }[];
  /** The varied generator's header fields (null: the sheet has no such field). */
  header?: Record<OcrHeaderFieldName, string | null>;
  /** The first generator's: every sheet has them, with its impression as the comments. */
  otherFields?: { mrn: string; referrer: string; sonographer: string; indication: string; sex: string };
  impression?: string;
  layout?: string;
};

/** The ground truth in the codes the pipeline emits (reflux seconds become ms, as the criteria want). */
export function expectedMeasurements(t: Truth): string[] {
  return t.measurements.map((m) => {
    const side = m.side === "R" ? "right" : "left";
    const column = columnFromHeader(`${m.side === "R" ? "Rt" : "Lt"} ${m.param} ${m.unit}`);
    const site = siteFromLabel(m.vessel) ?? `?${m.vessel}`;
    const value = column?.parameter === "REFLUX_MS" && m.unit === "s" ? Math.round(m.value * 1000) : m.value;
    return `${site}|${side}|${column?.parameter ?? m.param}|${value}`;
  });
}
