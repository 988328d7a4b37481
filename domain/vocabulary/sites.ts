// Every vessel a worksheet, a drawing, a typed note or the report can name: one entry per vessel, in reading
// order (within a region, proximal to distal; findings and conclusions are written in this order).
// The codes of ../../../shared/clinical-criteria.md are `graded`; the others are vessels worksheets carry that
// the criteria do not grade: their values are reported as measured and marked as not graded.

export type SiteRegion =
  | "neck"
  | "abdomen"
  | "legArtery"
  | "armArtery"
  | "legVein"
  | "armVein"
  | "access"
  | "intracranial";

export interface SiteDefinition {
  code: string;
  /** The name the report uses: "great saphenous vein". */
  name: string;
  region: SiteRegion;
  /** False for vessels the criteria do not name: recorded and shown, never graded. */
  graded: boolean;
  /** "paired" vessels need a side; "midline" ones ignore it; "optional" ones (dialysis access) may omit it. */
  side: "paired" | "midline" | "optional";
  /** Vessels measured along the leg at the thigh, knee, calf and ankle (saphenous veins, perforators). */
  limbPositions?: boolean;
  /** Other ways text names this vessel (plurals, older names), matched without regard to case. */
  otherNames?: readonly string[];
  /** Abbreviations as written in text ("GSV", "LSV"), matched case-sensitively. */
  abbreviations?: readonly string[];
  /** Further printed row labels of worksheets, lower case without spaces ("popv", "vert"). */
  worksheetLabels?: readonly string[];
}

const site = <const C extends string>(
  code: C,
  name: string,
  region: SiteRegion,
  extra: Partial<Omit<SiteDefinition, "code" | "name" | "region">> = {},
) => ({ code, name, region, graded: true, side: "paired" as const, ...extra });

export const siteCatalogue = [
  // Neck
  site("CCA", "common carotid artery", "neck", {
    otherNames: ["common carotid arteries", "common carotid"],
    abbreviations: ["CCA", "CCAs"],
    worksheetLabels: ["commoncarotid"],
  }),
  site("BULB", "carotid bulb", "neck", { otherNames: ["bulb"] }),
  site("ICA", "internal carotid artery", "neck", {
    otherNames: ["internal carotid arteries", "internal carotid"],
    abbreviations: ["ICA", "ICAs"],
    worksheetLabels: ["internalcarotid"],
  }),
  site("ECA", "external carotid artery", "neck", {
    otherNames: ["external carotid"],
    abbreviations: ["ECA"],
    worksheetLabels: ["externalcarotid"],
  }),
  site("VA", "vertebral artery", "neck", {
    otherNames: ["vertebral arteries", "vertebral"],
    abbreviations: ["VA"],
    worksheetLabels: ["vert"],
  }),
  site("SCA", "subclavian artery", "neck", { otherNames: ["subclavian"], abbreviations: ["SCA"] }),
  // Abdomen
  site("AO", "abdominal aorta", "abdomen", { side: "midline", otherNames: ["aorta"] }),
  site("CA", "celiac artery", "abdomen", {
    side: "midline",
    otherNames: ["coeliac artery", "celiac trunk", "coeliac trunk", "celiac axis", "coeliac axis"],
    abbreviations: ["CA"],
  }),
  site("SMA", "superior mesenteric artery", "abdomen", { side: "midline", abbreviations: ["SMA"] }),
  site("RA", "renal artery", "abdomen", { otherNames: ["renal arteries"], abbreviations: ["RA"] }),
  site("IMA", "inferior mesenteric artery", "abdomen", { side: "midline", abbreviations: ["IMA"] }),
  site("CIA", "common iliac artery", "abdomen", {
    otherNames: ["common iliac arteries", "common iliac"],
    abbreviations: ["CIA"],
  }),
  site("EIA", "external iliac artery", "abdomen", {
    otherNames: ["external iliac arteries", "external iliac"],
    abbreviations: ["EIA"],
  }),
  // Limb arteries
  site("CFA", "common femoral artery", "legArtery", { abbreviations: ["CFA"] }),
  site("PFA", "profunda femoris artery", "legArtery", { otherNames: ["deep femoral artery"], abbreviations: ["PFA"] }),
  site("SFA", "superficial femoral artery", "legArtery", { abbreviations: ["SFA"] }),
  site("POPA", "popliteal artery", "legArtery", { worksheetLabels: ["popa", "poplitealartery"] }),
  site("TPT", "tibioperoneal trunk", "legArtery", { otherNames: ["tibio-peroneal trunk"], abbreviations: ["TPT"] }),
  site("ATA", "anterior tibial artery", "legArtery", { abbreviations: ["ATA"] }),
  site("PTA", "posterior tibial artery", "legArtery", { abbreviations: ["PTA"] }),
  site("PERA", "peroneal artery", "legArtery"),
  site("DPA", "dorsalis pedis artery", "legArtery", { otherNames: ["dorsalis pedis"], abbreviations: ["DPA"] }),
  site("ANKLE", "ankle", "legArtery"),
  site("AXA", "axillary artery", "armArtery"),
  site("BA_ARM", "brachial artery", "armArtery"),
  site("RADA", "radial artery", "armArtery"),
  site("ULNA", "ulnar artery", "armArtery"),
  // Limb veins
  site("CFV", "common femoral vein", "legVein", { abbreviations: ["CFV"] }),
  site("SFJ", "saphenofemoral junction", "legVein", {
    otherNames: ["sapheno-femoral junction"],
    abbreviations: ["SFJ"],
    worksheetLabels: ["saphenofemoral"],
  }),
  site("FV", "femoral vein", "legVein", {
    otherNames: ["superficial femoral vein"],
    abbreviations: ["FV"],
    worksheetLabels: ["sfv"],
  }),
  site("PFV", "profunda femoris vein", "legVein", { otherNames: ["deep femoral vein"], abbreviations: ["PFV"] }),
  site("POPV", "popliteal vein", "legVein", { worksheetLabels: ["popv", "poplitealvein"] }),
  site("SPJ", "saphenopopliteal junction", "legVein", {
    otherNames: ["sapheno-popliteal junction"],
    abbreviations: ["SPJ"],
    worksheetLabels: ["saphenopopliteal"],
  }),
  site("PTV", "posterior tibial veins", "legVein", { otherNames: ["posterior tibial vein"], abbreviations: ["PTV"] }),
  site("PERV", "peroneal veins", "legVein", { otherNames: ["peroneal vein"] }),
  site("GSV", "great saphenous vein", "legVein", {
    limbPositions: true,
    otherNames: ["long saphenous vein"],
    abbreviations: ["GSV", "LSV"],
  }),
  site("AASV", "anterior accessory saphenous vein", "legVein", {
    graded: false,
    limbPositions: true,
    abbreviations: ["AASV"],
  }),
  site("SSV", "small saphenous vein", "legVein", {
    limbPositions: true,
    otherNames: ["short saphenous vein"],
    abbreviations: ["SSV"],
  }),
  site("GASTV", "gastrocnemius veins", "legVein", { graded: false, otherNames: ["gastrocnemius vein"] }),
  site("SOLV", "soleal veins", "legVein", { graded: false, otherNames: ["soleal vein"] }),
  site("PERF", "perforator vein", "legVein", {
    limbPositions: true,
    otherNames: ["perforating vein", "perforator veins", "perforators", "perforator"],
  }),
  site("IJV", "internal jugular vein", "armVein", { abbreviations: ["IJV"] }),
  site("SCV", "subclavian vein", "armVein", { abbreviations: ["SCV"] }),
  site("AXV", "axillary vein", "armVein"),
  site("BRV", "brachial veins", "armVein", { otherNames: ["brachial vein"] }),
  site("CEPV", "cephalic vein", "armVein"),
  site("BASV", "basilic vein", "armVein"),
  // Dialysis access
  site("AVF_ARTERY", "access inflow artery", "access", { side: "optional", otherNames: ["inflow artery"] }),
  site("AVF_ANAST", "access anastomosis", "access", { side: "optional", otherNames: ["anastomosis"] }),
  site("AVF_VEIN", "access outflow vein", "access", { side: "optional", otherNames: ["outflow vein"] }),
  // Intracranial
  site("ICA_EXTRA", "extracranial internal carotid artery", "intracranial", {
    otherNames: ["extracranial internal carotid"],
  }),
  site("MCA", "middle cerebral artery", "intracranial", {
    otherNames: ["middle cerebral arteries"],
    abbreviations: ["MCA"],
  }),
  site("ACA", "anterior cerebral artery", "intracranial", { abbreviations: ["ACA"] }),
  site("PCA", "posterior cerebral artery", "intracranial", { abbreviations: ["PCA"] }),
  site("BA", "basilar artery", "intracranial", { side: "midline", abbreviations: ["BA"] }),
] as const satisfies readonly SiteDefinition[];

export type BaseSiteCode = (typeof siteCatalogue)[number]["code"];
export type SiteEntry = SiteDefinition & { code: BaseSiteCode };

export const siteEntries: readonly SiteEntry[] = siteCatalogue;
export const baseSiteCodes: readonly BaseSiteCode[] = siteEntries.map((s) => s.code);

const byCode = new Map<string, SiteEntry>(siteEntries.map((s) => [s.code, s]));
export const siteEntry = (code: BaseSiteCode): SiteEntry => byCode.get(code)!;
export const isBaseSiteCode = (code: string): code is BaseSiteCode => byCode.has(code);

export const siteNames = Object.fromEntries(siteEntries.map((s) => [s.code, s.name])) as Record<BaseSiteCode, string>;

const codesWhere = (keep: (s: SiteEntry) => boolean): ReadonlySet<BaseSiteCode> =>
  new Set(siteEntries.filter(keep).map((s) => s.code));

/** Vessels that have no side: a side given for them is ignored. */
export const midlineSites = codesWhere((s) => s.side === "midline");
/** Dialysis access sites: one access per study, so a missing side is allowed. */
export const sideOptionalSites = codesWhere((s) => s.side === "optional");
/** Vessels the criteria name; values at the others are shown as measured and marked as not graded. */
export const gradedSites = codesWhere((s) => s.graded);

/** The vessels of some regions that the criteria do not grade, in reading order. */
export function ungradedSitesOf(regions: readonly SiteRegion[]): readonly BaseSiteCode[] {
  return siteEntries.filter((s) => !s.graded && regions.includes(s.region)).map((s) => s.code);
}
