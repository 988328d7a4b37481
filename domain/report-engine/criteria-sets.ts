import type { BaseSiteCode } from "./vocabulary";

// Thresholds are data so that a clinic can choose a set without code changes; every grading function
// reads its numbers from here and names `source` in the basis of each conclusion.

export interface CarotidCriteria {
  source: string;
  /** ICA PSV (cm/s) at or above which the PSV alone means >= 50 % stenosis. */
  psv50From: number;
  /** A second route to >= 50 %: at least this PSV together with at least this ICA/CCA ratio. */
  psv50WithRatio: { psvFrom: number; ratioFrom: number } | null;
  /** ICA PSV (cm/s) above which the stenosis is >= 70 %. */
  psv70Above: number;
  /** Additional parameters, used to flag disagreement with the primary grade. */
  ratio50From: number;
  ratio70Above: number;
  edv50From: number;
  edv70Above: number;
  /** The follow-up the impression recommends for each grade, with its source; absent grades recommend nothing. */
  followUp?: Partial<Record<string, string>>;
}

export interface LimbArterialCriteria {
  source: string;
  psvr50From: number;
  psvr75From: number;
}

export interface AbiCriteria {
  source: string;
  noncompressibleAbove: number;
  normalFrom: number;
  borderlineAbove: number;
  mildModerateAbove: number;
  noncompressibleRecommendation: string;
}

export interface VenousCriteria {
  dvtSource: string;
  refluxSource: string;
  /** Deep veins use the longer reflux threshold; every other vein uses the superficial one. */
  deepRefluxVeins: readonly BaseSiteCode[];
  deepRefluxAboveMs: number;
  superficialRefluxAboveMs: number;
  perforatorSource: string;
  perforatorRefluxFromMs: number;
  perforatorDiameterFromMm: number;
}

export interface AaaSurveillanceBand {
  fromMm: number;
  belowMm: number | null;
  recommendation: string;
}

export interface AortaCriteria {
  source: string;
  ectaticFromMm: number;
  smallFromMm: number;
  mediumFromMm: number;
  largeFromMm: number;
  surveillance: readonly AaaSurveillanceBand[];
  referralFromMm: { male: number; female: number };
}

export interface RenalCriteria {
  source: string;
  psvFrom: number;
  rarFrom: number;
  /** A resistive index at or above this suggests renal parenchymal disease. */
  riFrom: number;
  riSource: string;
}

export interface MesentericCriteria {
  source: string;
  smaPsvFrom: number;
  celiacPsvFrom: number;
  fastingNote: string;
}

export interface AvfCriteria {
  source: string;
  flowFromMlMin: number;
  diameterFromMm: number;
  depthUpToMm: number;
}

export interface EhitCriteria {
  source: string;
  class3FromPct: number;
  class4FromPct: number;
}

export interface TcdCriteria {
  source: string;
  mildFrom: number;
  moderateFrom: number;
  severeFrom: number;
  lindegaardSource: string;
  lindegaardVasospasmFrom: number;
  lindegaardSevereAbove: number;
}

export interface VertebralCriteria {
  source: string;
}

export const criteriaSetIds = ["default", "carotid-sru-strict"] as const;
export type CriteriaSetId = (typeof criteriaSetIds)[number];

export interface CriteriaSetInfo {
  id: CriteriaSetId;
  label: string;
  source: string;
}

export interface CriteriaSet extends CriteriaSetInfo {
  carotid: CarotidCriteria;
  vertebral: VertebralCriteria;
  limbArterial: LimbArterialCriteria;
  abi: AbiCriteria;
  venous: VenousCriteria;
  aorta: AortaCriteria;
  renal: RenalCriteria;
  mesenteric: MesentericCriteria;
  avf: AvfCriteria;
  ehit: EhitCriteria;
  tcd: TcdCriteria;
}

const sruCarotid: CarotidCriteria = {
  source: "SRU consensus conference 2003 (Grant et al., Radiology 2003;229:340-346)",
  psv50From: 125,
  psv50WithRatio: null,
  psv70Above: 230,
  ratio50From: 2.0,
  ratio70Above: 4.0,
  edv50From: 40,
  edv70Above: 100,
  followUp: {
    "50_69":
      "Carotid duplex surveillance of the 50-69% stenosis, commonly every 6 to 12 months (SVS 2022 extracranial cerebrovascular guideline).",
    "70_99":
      "Refer for vascular surgery evaluation of the 70-99% stenosis (SVS 2022 extracranial cerebrovascular guideline).",
    near_occlusion:
      "Refer for vascular surgery evaluation of the near occlusion (SVS 2022 extracranial cerebrovascular guideline).",
  },
};

const defaultSet: CriteriaSet = {
  id: "default",
  label: "Consensus criteria (SRU 2003 carotid)",
  source:
    "SRU 2003 carotid consensus; Cossman/Ranke/Polak PSV ratio; AHA/ACC PAD guideline (ABI); Labropoulos 2003 and SVS/AVF 2011 (venous); SVS 2018 AAA guideline; ACR-AIUM-SRU renal; Moneta 1993 mesenteric; KDOQI rule of 6s; SVS/AVF EHIT 2021; Lindegaard TCD",
  carotid: sruCarotid,
  vertebral: {
    source: "Vertebral flow direction on duplex (subclavian steal: to-and-fro partial, retrograde complete)",
  },
  limbArterial: {
    source: "PSV ratio criteria (Cossman et al. 1989; Ranke et al. 1992; Polak 2004)",
    psvr50From: 2.0,
    psvr75From: 4.0,
  },
  abi: {
    source: "AHA/ACC lower extremity PAD guideline (ankle-brachial index)",
    noncompressibleAbove: 1.4,
    normalFrom: 1.0,
    borderlineAbove: 0.9,
    mildModerateAbove: 0.4,
    noncompressibleRecommendation:
      "Toe-brachial index recommended: the ankle arteries are non-compressible (AHA/ACC 2016 PAD guideline).",
  },
  venous: {
    dvtSource:
      "Compression ultrasound: a non-compressible, occluded or thrombus-filled segment is thrombosis unless recorded as chronic or as a treated vein",
    refluxSource: "Labropoulos et al., J Vasc Surg 2003;38:793",
    deepRefluxVeins: ["CFV", "FV", "PFV", "POPV"],
    deepRefluxAboveMs: 1000,
    superficialRefluxAboveMs: 500,
    perforatorSource: "SVS/AVF guideline 2011 (pathologic perforator)",
    perforatorRefluxFromMs: 500,
    perforatorDiameterFromMm: 3.5,
  },
  aorta: {
    source: "SVS 2018 abdominal aortic aneurysm guideline",
    ectaticFromMm: 25,
    smallFromMm: 30,
    mediumFromMm: 40,
    largeFromMm: 50,
    surveillance: [
      { fromMm: 25, belowMm: 30, recommendation: "Repeat aortic ultrasound in 10 years." },
      { fromMm: 30, belowMm: 40, recommendation: "Repeat aortic ultrasound every 3 years." },
      { fromMm: 40, belowMm: 50, recommendation: "Repeat aortic ultrasound every 12 months." },
      { fromMm: 50, belowMm: 55, recommendation: "Repeat aortic ultrasound every 6 months." },
    ],
    referralFromMm: { male: 55, female: 50 },
  },
  renal: {
    source: "ACR-AIUM-SRU renal artery duplex practice parameter; Hoffmann et al. 1991",
    psvFrom: 200,
    rarFrom: 3.5,
    riFrom: 0.8,
    riSource: "Radermacher et al., N Engl J Med 2001;344:410-417",
  },
  mesenteric: {
    source: "Moneta et al. 1993, fasting criteria",
    smaPsvFrom: 275,
    celiacPsvFrom: 200,
    fastingNote:
      "The velocity criteria apply to a fasting study; velocities recorded after a meal may overstate stenosis (Moneta et al. 1993).",
  },
  avf: {
    source: "KDOQI vascular access guideline, rule of 6s",
    flowFromMlMin: 600,
    diameterFromMm: 6,
    depthUpToMm: 6,
  },
  ehit: {
    source: "Kabnick EHIT classification; SVS/AVF EHIT guideline 2021",
    class3FromPct: 50,
    class4FromPct: 100,
  },
  tcd: {
    source: "TCD MCA mean flow velocity criteria for vasospasm",
    mildFrom: 120,
    moderateFrom: 160,
    severeFrom: 200,
    lindegaardSource: "Lindegaard ratio (MCA MFV / extracranial ICA MFV)",
    lindegaardVasospasmFrom: 3,
    lindegaardSevereAbove: 6,
  },
};

const strictCarotidSet: CriteriaSet = {
  ...defaultSet,
  id: "carotid-sru-strict",
  label: "Stricter carotid criteria (multicentre SRU revalidation)",
  source:
    "Carotid: multicentre revalidation of the SRU criteria against angiography (PMC8493430); other categories as the default set",
  carotid: {
    ...sruCarotid,
    source:
      "SRU 2003 criteria with the stricter >= 50 % rule of the multicentre revalidation (PMC8493430): PSV >= 180 cm/s, or PSV >= 125 cm/s with ICA/CCA ratio >= 2.0",
    psv50From: 180,
    psv50WithRatio: { psvFrom: 125, ratioFrom: 2.0 },
  },
};

const allSets: readonly CriteriaSet[] = [defaultSet, strictCarotidSet];

/** For a settings dropdown: what each set is and where its thresholds come from. */
export const criteriaSets: readonly CriteriaSetInfo[] = allSets.map(({ id, label, source }) => ({ id, label, source }));

export const defaultCriteriaSetId: CriteriaSetId = "default";

export function getCriteriaSet(id: CriteriaSetId = defaultCriteriaSetId): CriteriaSet {
  return allSets.find((set) => set.id === id) ?? defaultSet;
}
