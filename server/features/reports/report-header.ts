import type { OcrResult } from "../../../domain/contracts/ocr";
import { type PatientInput, type PatientSex, patientSexes } from "../../../domain/contracts/reports";

/** The worksheet's header fields as a report stores them (issue 22 item 2). */
export type ReportHeader = {
  mrn: string | null;
  patientSex: PatientSex | null;
  referringPhysician: string | null;
  sonographerName: string | null;
  /** The report's Indication, as written on the sheet (or as the clinician corrected it). */
  indication: string | null;
  sonographerComments: string | null;
};

export const noHeader: ReportHeader = {
  mrn: null,
  patientSex: null,
  referringPhysician: null,
  sonographerName: null,
  indication: null,
  sonographerComments: null,
};

/** Column sizes: a long OCR reading is cut to fit rather than refused (the clinician sees and edits it). */
const limits = { mrn: 64, referringPhysician: 255, sonographerName: 255, indication: 2000, sonographerComments: 5000 };

const clip = (value: string | null | undefined, max: number) => value?.trim().slice(0, max).trim() || null;

/** "M", "Male", "f" as the sheet or OCR gives them; anything else is not a sex we can use. */
export function sexOf(value: string | null | undefined): PatientSex | null {
  const text = value?.trim().toLowerCase() ?? "";
  if (patientSexes.includes(text as PatientSex)) return text as PatientSex;
  if (text === "m") return "male";
  if (text === "f") return "female";
  return null;
}

/**
 * What the clinician checked wins field by field; a field they did not send (undefined) comes from the OCR
 * result, and null or blank means "none" even when OCR read something.
 */
export function reportHeader(checked: PatientInput | undefined, ocr: OcrResult | null): ReportHeader {
  const fields = ocr?.fields;
  const pick = <K extends keyof typeof limits>(key: K, ocrValue: string | null | undefined) => {
    const sent = checked?.[key];
    return clip(sent === undefined ? ocrValue : sent, limits[key]);
  };
  return {
    mrn: pick("mrn", fields?.mrn.value),
    patientSex: sexOf(checked?.patientSex === undefined ? fields?.sex.value : checked.patientSex),
    referringPhysician: pick("referringPhysician", fields?.referringPhysician.value),
    sonographerName: pick("sonographerName", fields?.sonographer.value),
    indication: pick("indication", fields?.indication.value),
    sonographerComments: pick("sonographerComments", fields?.comments.value),
  };
}
