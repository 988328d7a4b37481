// The closed vocabulary of ../../../shared/clinical-criteria.md: tests, the CLI and the UI must spell
// these exactly as written there, so they live in one place.

export const scanTypes = [
  "Lower Limb Venous",
  "Upper Limb Venous",
  "Lower Limb Arterial",
  "Upper Limb Arterial",
  "Carotid Duplex",
  "Vertebral Duplex",
  "Abdominal Aorta",
  "Renal Duplex",
  "Mesenteric Duplex",
  "DVT Assessment",
  "AV Fistula/Graft",
  "Post Endovenous Intervention",
  "Transcranial Doppler",
] as const;
export type ScanType = (typeof scanTypes)[number];

export const sides = ["right", "left"] as const;
export type Side = (typeof sides)[number];

/**
 * Base site codes in reading order: within a region, proximal to distal. The order of this list is the
 * order in which findings and conclusions are written.
 */
export const baseSiteCodes = [
  // Neck
  "CCA",
  "BULB",
  "ICA",
  "ECA",
  "VA",
  "SCA",
  // Abdomen
  "AO",
  "CA",
  "SMA",
  "RA",
  "IMA",
  "CIA",
  "EIA",
  // Limb arteries
  "CFA",
  "PFA",
  "SFA",
  "POPA",
  "TPT",
  "ATA",
  "PTA",
  "PERA",
  "DPA",
  "ANKLE",
  "AXA",
  "BA_ARM",
  "RADA",
  "ULNA",
  // Limb veins
  "CFV",
  "SFJ",
  "FV",
  "PFV",
  "POPV",
  "SPJ",
  "PTV",
  "PERV",
  "GSV",
  "SSV",
  "PERF",
  "IJV",
  "SCV",
  "AXV",
  "BRV",
  "CEPV",
  "BASV",
  // Dialysis access
  "AVF_ARTERY",
  "AVF_ANAST",
  "AVF_VEIN",
  // Intracranial
  "ICA_EXTRA",
  "MCA",
  "ACA",
  "PCA",
  "BA",
] as const;
export type BaseSiteCode = (typeof baseSiteCodes)[number];

export const segments = ["PROX", "MID", "DIST"] as const;
export type Segment = (typeof segments)[number];

export const parameters = [
  "PSV",
  "EDV",
  "MFV",
  "RATIO_ICA_CCA",
  "PSVR",
  "RAR",
  "LINDEGAARD",
  "REFLUX_MS",
  "DIAMETER_MM",
  "DEPTH_MM",
  "FLOW_ML_MIN",
  "ABI",
  "RI",
  "EXTENSION_PCT",
] as const;
export type Parameter = (typeof parameters)[number];

/** The unit each parameter is graded in; null for dimensionless ratios and indices. */
export const parameterUnits: Record<Parameter, string | null> = {
  PSV: "cm/s",
  EDV: "cm/s",
  MFV: "cm/s",
  RATIO_ICA_CCA: null,
  PSVR: null,
  RAR: null,
  LINDEGAARD: null,
  REFLUX_MS: "ms",
  DIAMETER_MM: "mm",
  DEPTH_MM: "mm",
  FLOW_ML_MIN: "mL/min",
  ABI: null,
  RI: null,
  EXTENSION_PCT: "%",
};

export const observationFindings = [
  "plaque",
  "no_plaque",
  "compressible",
  "non_compressible",
  "thrombus",
  "occluded",
  "near_occlusion",
  "no_flow",
  "antegrade",
  "retrograde",
  "to_and_fro",
  "triphasic",
  "biphasic",
  "monophasic",
  "dampened",
  "spontaneous_flow",
  "phasic_flow",
  "continuous_flow",
] as const;
export type ObservationFinding = (typeof observationFindings)[number];

export const gradesByCategory = {
  carotid_stenosis: ["normal", "lt50", "50_69", "70_99", "near_occlusion", "occlusion"],
  vertebral_flow: ["antegrade", "partial_steal", "retrograde", "absent"],
  arterial_stenosis: ["none", "lt50", "50_74", "75_99", "occlusion"],
  abi: ["noncompressible", "normal", "borderline", "mild_moderate", "severe"],
  dvt: ["absent", "present"],
  venous_reflux: ["absent", "present"],
  perforator: ["normal", "pathologic"],
  aortic_diameter: ["normal", "ectatic", "aneurysm_small", "aneurysm_medium", "aneurysm_large"],
  renal_stenosis: ["lt60", "ge60", "occlusion"],
  mesenteric_stenosis: ["lt70", "ge70", "occlusion"],
  avf_maturity: ["mature", "immature"],
  ehit: ["class1", "class2", "class3", "class4"],
  tcd_vasospasm: ["none", "mild", "moderate", "severe"],
  lindegaard: ["hyperemia", "vasospasm", "severe_vasospasm"],
} as const;
export type ConclusionCategory = keyof typeof gradesByCategory;
export type GradeOf<C extends ConclusionCategory> = (typeof gradesByCategory)[C][number];
export const conclusionCategories = Object.keys(gradesByCategory) as ConclusionCategory[];

/** Vessels that have no side: a side given for them is ignored. */
export const midlineSites: ReadonlySet<BaseSiteCode> = new Set<BaseSiteCode>(["AO", "CA", "SMA", "IMA", "BA"]);

/** Dialysis access sites: one access per study, so a missing side is allowed. */
export const sideOptionalSites: ReadonlySet<BaseSiteCode> = new Set<BaseSiteCode>([
  "AVF_ARTERY",
  "AVF_ANAST",
  "AVF_VEIN",
]);

export const siteNames: Record<BaseSiteCode, string> = {
  CCA: "common carotid artery",
  BULB: "carotid bulb",
  ICA: "internal carotid artery",
  ECA: "external carotid artery",
  VA: "vertebral artery",
  SCA: "subclavian artery",
  AO: "abdominal aorta",
  CA: "celiac artery",
  SMA: "superior mesenteric artery",
  RA: "renal artery",
  IMA: "inferior mesenteric artery",
  CIA: "common iliac artery",
  EIA: "external iliac artery",
  CFA: "common femoral artery",
  PFA: "profunda femoris artery",
  SFA: "superficial femoral artery",
  POPA: "popliteal artery",
  TPT: "tibioperoneal trunk",
  ATA: "anterior tibial artery",
  PTA: "posterior tibial artery",
  PERA: "peroneal artery",
  DPA: "dorsalis pedis artery",
  ANKLE: "ankle",
  AXA: "axillary artery",
  BA_ARM: "brachial artery",
  RADA: "radial artery",
  ULNA: "ulnar artery",
  CFV: "common femoral vein",
  SFJ: "saphenofemoral junction",
  FV: "femoral vein",
  PFV: "profunda femoris vein",
  POPV: "popliteal vein",
  SPJ: "saphenopopliteal junction",
  PTV: "posterior tibial veins",
  PERV: "peroneal veins",
  GSV: "great saphenous vein",
  SSV: "small saphenous vein",
  PERF: "perforator vein",
  IJV: "internal jugular vein",
  SCV: "subclavian vein",
  AXV: "axillary vein",
  BRV: "brachial veins",
  CEPV: "cephalic vein",
  BASV: "basilic vein",
  AVF_ARTERY: "access inflow artery",
  AVF_ANAST: "access anastomosis",
  AVF_VEIN: "access outflow vein",
  ICA_EXTRA: "extracranial internal carotid artery",
  MCA: "middle cerebral artery",
  ACA: "anterior cerebral artery",
  PCA: "posterior cerebral artery",
  BA: "basilar artery",
};

export const segmentNames: Record<Segment, string> = { PROX: "proximal", MID: "mid", DIST: "distal" };

export interface ParsedSite {
  /** The code as written in the study, normalised to upper case. */
  code: string;
  base: BaseSiteCode;
  segment: Segment | null;
}

const baseSiteSet: ReadonlySet<string> = new Set(baseSiteCodes);

/** Splits `SFA_MID` into its vessel and segment; null when the code is not in the vocabulary. */
export function parseSiteCode(raw: string): ParsedSite | null {
  const code = raw.trim().toUpperCase();
  if (baseSiteSet.has(code)) return { code, base: code as BaseSiteCode, segment: null };
  const cut = code.lastIndexOf("_");
  if (cut <= 0) return null;
  const base = code.slice(0, cut);
  const segment = code.slice(cut + 1);
  if (!baseSiteSet.has(base) || !(segments as readonly string[]).includes(segment)) return null;
  return { code, base: base as BaseSiteCode, segment: segment as Segment };
}

export function isSiteCode(raw: string): boolean {
  return parseSiteCode(raw) !== null;
}

/** "right internal carotid artery", "right proximal superficial femoral artery", "abdominal aorta". */
export function siteLabel(site: ParsedSite, side: Side | null): string {
  const words = [side ?? "", site.segment ? segmentNames[site.segment] : "", siteNames[site.base]];
  return words.filter(Boolean).join(" ");
}

export function vesselLabel(base: BaseSiteCode, side: Side | null): string {
  return side ? `${side} ${siteNames[base]}` : siteNames[base];
}

export const siteOrder = (base: BaseSiteCode): number => baseSiteCodes.indexOf(base);
/** Whole-vessel entries come first, then proximal to distal. */
export const segmentOrder = (segment: Segment | null): number => (segment ? segments.indexOf(segment) + 1 : 0);
