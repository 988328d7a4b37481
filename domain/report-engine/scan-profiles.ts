import { type SiteRegion, siteEntries, ungradedSitesOf } from "../vocabulary/sites";
import type { BaseSiteCode, ScanType } from "./vocabulary";

// Which vessels belong to each scan type, which ones the report must mention even when nothing was
// recorded for them, and which grading rules apply.

export type GraderName =
  | "carotid"
  | "vertebral"
  | "lowerLimbArterial"
  | "upperLimbArterial"
  | "abi"
  | "dvt"
  | "reflux"
  | "perforator"
  | "aorta"
  | "renal"
  | "mesenteric"
  | "avf"
  | "ehit"
  | "tcd";

export interface ScanProfile {
  sites: readonly BaseSiteCode[];
  /** Vessels of the examined region that the criteria do not grade: reported as measured, never graded. */
  notGraded?: readonly BaseSiteCode[];
  /** Bilateral examinations report both sides; limb examinations report the sides that were scanned. */
  bilateral: boolean;
  /** Stated as "not assessed" in the findings when nothing was recorded for them on a reported side. */
  keyVessels: readonly BaseSiteCode[];
  /** Key vessels of a side scanned in the arm, when the scan type covers both arms and legs. */
  armKeyVessels?: readonly BaseSiteCode[];
  /** Abdominal studies read the aorta and midline branches before the paired vessels. */
  midlineFirst: boolean;
  graders: readonly GraderName[];
}

// The vessel lists come from the catalogue's regions, so a vessel added there is in every profile of its region.
const gradedIn = (region: SiteRegion): BaseSiteCode[] =>
  siteEntries.filter((s) => s.graded && s.region === region).map((s) => s.code);

export const neckSites: readonly BaseSiteCode[] = gradedIn("neck");
export const lowerLimbArteries: readonly BaseSiteCode[] = [
  "CIA",
  "EIA",
  ...gradedIn("legArtery").filter((code) => code !== "ANKLE"),
];
export const upperLimbArteries: readonly BaseSiteCode[] = ["SCA", ...gradedIn("armArtery")];
export const lowerLimbVeins: readonly BaseSiteCode[] = gradedIn("legVein");
export const upperLimbVeins: readonly BaseSiteCode[] = gradedIn("armVein");
/** Leg veins worksheets carry that the criteria do not grade: shown as measured, marked as not graded. */
const ungradedLegVeins = ungradedSitesOf(["legVein"]);
export const deepVeins: ReadonlySet<BaseSiteCode> = new Set<BaseSiteCode>([
  "CFV",
  "FV",
  "PFV",
  "POPV",
  "PTV",
  "PERV",
  "IJV",
  "SCV",
  "AXV",
  "BRV",
]);
export const accessSites: readonly BaseSiteCode[] = gradedIn("access");

export const scanProfiles: Record<ScanType, ScanProfile> = {
  "Carotid Duplex": {
    sites: neckSites,
    bilateral: true,
    keyVessels: ["CCA", "ICA", "ECA", "VA"],
    midlineFirst: false,
    graders: ["carotid", "vertebral"],
  },
  "Vertebral Duplex": {
    sites: neckSites,
    bilateral: true,
    keyVessels: ["VA"],
    midlineFirst: false,
    graders: ["vertebral"],
  },
  "Lower Limb Arterial": {
    sites: [...lowerLimbArteries, "ANKLE"],
    bilateral: false,
    keyVessels: ["CFA", "SFA", "POPA", "ATA", "PTA", "PERA"],
    midlineFirst: false,
    graders: ["lowerLimbArterial", "abi"],
  },
  "Upper Limb Arterial": {
    sites: upperLimbArteries,
    bilateral: false,
    keyVessels: ["SCA", "AXA", "BA_ARM", "RADA", "ULNA"],
    midlineFirst: false,
    graders: ["upperLimbArterial"],
  },
  "Lower Limb Venous": {
    sites: lowerLimbVeins,
    notGraded: ungradedLegVeins,
    bilateral: false,
    keyVessels: ["CFV", "FV", "POPV", "GSV", "SSV"],
    midlineFirst: false,
    graders: ["dvt", "reflux", "perforator"],
  },
  "Upper Limb Venous": {
    sites: upperLimbVeins,
    bilateral: false,
    keyVessels: ["IJV", "SCV", "AXV", "BRV", "CEPV", "BASV"],
    midlineFirst: false,
    graders: ["dvt", "reflux"],
  },
  "DVT Assessment": {
    sites: [...lowerLimbVeins, ...upperLimbVeins],
    notGraded: ungradedLegVeins,
    bilateral: false,
    keyVessels: ["CFV", "FV", "POPV", "PTV", "PERV"],
    armKeyVessels: ["IJV", "SCV", "AXV", "BRV"],
    midlineFirst: false,
    graders: ["dvt"],
  },
  "Abdominal Aorta": {
    sites: ["AO", "CIA", "EIA"],
    bilateral: false,
    keyVessels: ["AO"],
    midlineFirst: true,
    graders: ["aorta"],
  },
  "Renal Duplex": {
    sites: ["AO", "RA"],
    bilateral: true,
    keyVessels: ["RA"],
    midlineFirst: true,
    graders: ["renal"],
  },
  "Mesenteric Duplex": {
    sites: ["AO", "CA", "SMA", "IMA"],
    bilateral: false,
    keyVessels: ["CA", "SMA"],
    midlineFirst: true,
    graders: ["mesenteric"],
  },
  "AV Fistula/Graft": {
    sites: [...accessSites, ...upperLimbArteries, ...upperLimbVeins],
    bilateral: false,
    keyVessels: ["AVF_ARTERY", "AVF_ANAST", "AVF_VEIN"],
    midlineFirst: false,
    graders: ["avf"],
  },
  "Post Endovenous Intervention": {
    sites: lowerLimbVeins,
    notGraded: ungradedLegVeins,
    bilateral: false,
    keyVessels: ["CFV"],
    midlineFirst: false,
    graders: ["ehit", "dvt"],
  },
  "Transcranial Doppler": {
    sites: ["MCA", "ACA", "PCA", "BA", "ICA_EXTRA", "VA"],
    bilateral: true,
    keyVessels: ["MCA", "ACA", "PCA"],
    midlineFirst: false,
    graders: ["tcd"],
  },
};

/** The key vessels of one side; a side scanned in the arm uses the arm's list where the scan type has one. */
export function keyVesselsForSide(
  profile: ScanProfile,
  basesOnSide: ReadonlySet<BaseSiteCode>,
): readonly BaseSiteCode[] {
  if (!profile.armKeyVessels) return profile.keyVessels;
  const arm = upperLimbVeins.some((base) => basesOnSide.has(base));
  const leg = lowerLimbVeins.some((base) => basesOnSide.has(base));
  return arm && !leg ? profile.armKeyVessels : profile.keyVessels;
}
