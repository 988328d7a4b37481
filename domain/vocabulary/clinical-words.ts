import { segmentLabels, segmentNames } from "./segments";
import { siteEntries } from "./sites";
import { observationFindings, plaqueCharacterLabels } from "./study-terms";

// The words a vascular worksheet's free text is written in: the indication ("carotid bruit", "pre-ablation
// mapping", "Left calf pain") and the sonographer's comments ("No DVT seen", "GSV incompetent from SFJ to knee").
// Vessel, segment and plaque words come from the rest of the clinical vocabulary; the others are listed here.
// The OCR checks a misread word of those fields against this list (server/ocr/clinical-words.ts), so a word belongs
// here only if clinics write it in such notes: it is a spelling to recognise, never a word to put on a page.

/** Symptoms, reasons for referral and their qualifiers. */
const INDICATION_WORDS = `
  abdominal ablation abnormal absent ache aching acute af amaurosis aneurysm angina angioplasty ankle arm arms
  arrhythmia asymptomatic ataxia attack atrial blackout blindness blurred blurring bruit burning bypass cabg cea
  changes change chest chronic claudication cold collapse confusion cosmetic cramp cramps cva cvi diabetes
  diabetic discoloration discolouration dizziness dizzy droop dvt dysarthria dysphasia eczema edema oedema embolism
  endarterectomy erythema evla evlt facial fainting fall family feet fever fibrillation follow followup foot
  fugax gangrene graft haemosiderin headache healing heaviness heavy hemiparesis hemiplegia hx hypertension
  hyperlipidaemia hyperlipidemia injury ischaemia ischemia ischaemic ischemic itch itching itchy leg legs
  lipodermatosclerosis loss mapping monocular murmur neck night numbness op pad pain pop painful pallor palpable
  paraesthesia paresthesia pe phlebitis pigmentation planning pregnancy preop postop previous pulse pulses
  pulsatile query recurrence recurrent redness reduced rest restless rfa rule screening sclerotherapy sided
  skin slurred smoker smoking speech stenosis stent stenting stroke surveillance suspected swelling swollen
  symptomatic symptoms syncope tenderness tender thrombophlebitis thrombosis tia tingling transient trauma
  ulcer ulcers ulceration unilateral varices varicose varicosities vein veins venous vertigo vision visual
  weakness workup wound
`;

/** How findings are described: degrees, flow, views, and the small words between them. */
const FINDING_WORDS = `
  above absent and antegrade appearance are artery arteries at axis below bilateral bilaterally both bulb bulbs
  but by calcification calcified cm competent compressible consistent continuous deep diameter difficult
  distal due elevated evidence flow focal for from good great greater habitus heterogeneous homogeneous
  in incompetence incompetent increased irregular is junction l less likely limited lower ml mm moderate
  movement mild minimal ms near no non normal not noted occluded occlusion of on or partial partially patent
  patient perforator perforators plaque plaques poor poorly post pre proximal r ratio reduction reflux
  retrograde right left s seen segment segments severe short sig significant small smooth study superficial
  suggest suggestive technically than the thrombus to tortuous tortuosity trace ulcerated up upper velocities
  velocity vessel vessels view views visualised visualized was well with within without
`;

const words = (text: string) => text.trim().split(/\s+/);

/** Words of the site, segment and plaque vocabularies: "common", "carotid", "saphenous", "GSV", "calf". */
function vocabularyWords(): string[] {
  const phrases = [
    ...siteEntries.flatMap((s) => [
      s.name,
      ...(s.otherNames ?? []),
      ...(s.abbreviations ?? []),
      ...(s.worksheetLabels ?? []),
    ]),
    ...Object.values(segmentNames),
    ...Object.values(segmentLabels).flat(),
    ...Object.values(plaqueCharacterLabels).flat(),
    ...observationFindings,
  ];
  return phrases.flatMap((p) => p.toLowerCase().split(/[^a-z]+/));
}

/** Every word, lower case, letters only, at least one letter. */
export const clinicalWords: ReadonlySet<string> = new Set(
  [...words(INDICATION_WORDS), ...words(FINDING_WORDS), ...vocabularyWords()].filter((w) => /^[a-z]+$/.test(w)),
);

/** Vessels' abbreviations, lower case ("gsv", "ica"): a side is written before them ("L GSV", "RICA"). */
export const vesselAbbreviations: ReadonlySet<string> = new Set(
  siteEntries.flatMap((s) => s.abbreviations ?? []).map((a) => a.toLowerCase()),
);
