import { squash } from "./worksheet-vocabulary";

/** The 13 scan types of the spec (shared/clinical-criteria.md), matched on words of the worksheet title. */
const RULES: [RegExp, string][] = [
  [/transcranial|tcd/, "Transcranial Doppler"],
  [/(postendovenous|postablation|ehit|evla|endovenousablation|postevla|postrfa)/, "Post Endovenous Intervention"],
  [/(fistula|avgraft|avaccess|dialysisaccess)/, "AV Fistula/Graft"],
  [/(dvt|deepvein(thrombosis)?)/, "DVT Assessment"],
  [/carotid/, "Carotid Duplex"],
  [/vertebral/, "Vertebral Duplex"],
  [/(aorta|aortic|aaa)/, "Abdominal Aorta"],
  [/renal/, "Renal Duplex"],
  [/(mesenteric|splanchnic)/, "Mesenteric Duplex"],
  [/(upper(limb|extremity|arm)|arm)venous|venous.*(upper(limb|extremity)|arm)/, "Upper Limb Venous"],
  [/(lower(limb|extremity)|leg)venous|venous.*(lower(limb|extremity)|leg)|varicose|venousreflux/, "Lower Limb Venous"],
  [/(upper(limb|extremity)|arm)arterial|arterial.*(upper(limb|extremity)|arm)/, "Upper Limb Arterial"],
  [/(lower(limb|extremity)|leg|peripheral)arterial|arterial.*(lower(limb|extremity)|leg)/, "Lower Limb Arterial"],
];

/** A line reads like a worksheet title when it names the kind of document. */
const TITLE_WORDS = /(worksheet|duplex|ultrasound|doppler|scan|assessment|study|examination|mapping)/;

/** Detects the scan type from title lines (not from free text such as an indication "?DVT"); null if unsure. */
export function detectScanType(titleCandidates: string[]): string | null {
  for (const line of titleCandidates) {
    const s = squash(line);
    if (!TITLE_WORDS.test(s)) continue;
    for (const [re, type] of RULES) if (re.test(s)) return type;
  }
  return null;
}
