import type { OcrFieldName } from "../../../domain/contracts/ocr";
import { editDistance } from "../name-lexicon";
import { squash } from "../worksheet-vocabulary";

/**
 * How clinics print the labels of a worksheet's header fields, squashed (lower case, letters and digits only).
 * Used to name the zones proposed on a clinic's blank form, where a label stands alone in its region; the
 * clinic's own wordings learnt from corrections are added to this per clinic (`extra`).
 */
const LABELS: [string, OcrFieldName][] = [
  ["patientsname", "patientName"],
  ["patientname", "patientName"],
  ["patientfullname", "patientName"],
  ["patientnamesurnamegiven", "patientName"],
  ["fullname", "patientName"],
  ["ptname", "patientName"],
  ["patient", "patientName"],
  ["name", "patientName"],
  ["surname", "patientName"],
  ["dateofbirth", "patientDob"],
  ["birthdate", "patientDob"],
  ["dob", "patientDob"],
  ["born", "patientDob"],
  ["examdate", "examDate"],
  ["studydate", "examDate"],
  ["dateofexam", "examDate"],
  ["dateofstudy", "examDate"],
  ["scandate", "examDate"],
  ["dateofscan", "examDate"],
  ["testdate", "examDate"],
  ["dateofservice", "examDate"],
  ["date", "examDate"],
  ["indication", "indication"],
  ["indications", "indication"],
  ["clinicalindication", "indication"],
  ["reasonforexam", "indication"],
  ["reasonforstudy", "indication"],
  ["clinicalhistory", "indication"],
  ["history", "indication"],
  ["referringdr", "referringPhysician"],
  ["referringdoctor", "referringPhysician"],
  ["referringphysician", "referringPhysician"],
  ["referrer", "referringPhysician"],
  ["referredby", "referringPhysician"],
  ["refdr", "referringPhysician"],
  ["referring", "referringPhysician"],
  ["mrn", "mrn"],
  ["urn", "mrn"],
  ["ur", "mrn"],
  ["urno", "mrn"],
  ["hospitalno", "mrn"],
  ["hospitalnumber", "mrn"],
  ["medicalrecordnumber", "mrn"],
  ["medicalrecordno", "mrn"],
  ["patientid", "mrn"],
  ["id", "mrn"],
  ["sonographer", "sonographer"],
  ["technologist", "sonographer"],
  ["tech", "sonographer"],
  ["scannedby", "sonographer"],
  ["performedby", "sonographer"],
  ["sex", "sex"],
  ["gender", "sex"],
  ["comments", "comments"],
  ["comment", "comments"],
  ["impressioncomments", "comments"],
  ["impression", "comments"],
  ["preliminaryimpression", "comments"],
  ["notes", "comments"],
  ["findings", "comments"],
];

/** Labels this long may carry one misread letter. */
const FUZZY_LENGTH = 6;

/**
 * The field a printed label names, when the region's whole text is a label ("Patient Name:", "D.O.B.", "Date of
 * Scan"). A region with more than a label (a sentence, a value) names nothing. Clinic aliases come first.
 */
export function fieldOfLabel(text: string, extra: readonly [string, OcrFieldName][] = []): OcrFieldName | null {
  // A label has no digits: a zero read for an O ("D.0.B.") is undone.
  const s = squash(text.replace(/0/g, "o"));
  if (s.length < 2) return null;
  const all = [...extra, ...LABELS];
  const exact = all.find(([label]) => label === s);
  if (exact) return exact[1];
  if (s.length >= FUZZY_LENGTH) {
    const near = all.find(([label]) => label.length >= FUZZY_LENGTH && editDistance(s, label, 1) <= 1);
    if (near) return near[1];
  }
  return null;
}
