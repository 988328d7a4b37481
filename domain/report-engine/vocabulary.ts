// The engine's view of the one clinical vocabulary (../vocabulary/), which follows
// ../../../shared/clinical-criteria.md, plus the grades the engine concludes with.

export { type Parameter, parameterLabels, parameters, parameterUnits } from "../vocabulary/parameters";
export { allSegments, type Segment, segmentNames, segments } from "../vocabulary/segments";
export {
  isSiteCode,
  type ParsedSite,
  parseSiteCode,
  segmentOrder,
  siteLabel,
  siteOrder,
  vesselLabel,
} from "../vocabulary/site-codes";
export {
  type BaseSiteCode,
  baseSiteCodes,
  gradedSites,
  midlineSites,
  sideOptionalSites,
  siteNames,
} from "../vocabulary/sites";
export {
  isPlaqueCharacter,
  type ObservationFinding,
  observationFindings,
  type PlaqueCharacter,
  plaqueCharacters,
  type ScanType,
  type Side,
  scanTypes,
  sides,
} from "../vocabulary/study-terms";

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
