import { isParameter, type Parameter } from "../vocabulary/parameters";
import type { Segment } from "../vocabulary/segments";
import type { BaseSiteCode } from "../vocabulary/sites";
import type { Side } from "../vocabulary/study-terms";

/**
 * The codes a vascular ultrasound DICOM Structured Report (PS3.16 TID 5100 "Vascular Ultrasound Report" and its
 * sections TID 5103/5104) uses for what was measured, mapped to the one clinical vocabulary (`../vocabulary/`):
 * vessels (CID 12104-12115), vessel segment modifiers (CID 12116), laterality (CID 244) and measurements (CID
 * 12120-12124). Vessels and modifiers are SNOMED CT ("SCT"); machines built before DICOM retired SNOMED RT in
 * 2019 write the same concepts in SNOMED RT ("SRT", e.g. T-45300 for 86117002), so both are listed (the RT codes
 * as DICOM's own SCT-to-SRT map gives them). Measurements are LOINC ("LN"). A code not listed here is not
 * guessed: its value is left out and the reading says how many were.
 */

/** `SCHEME:CODE`, the scheme upper case ("SCT:86117002", "LN:11726-7"). */
export const codeKey = (scheme: string, code: string) => `${scheme.trim().toUpperCase()}:${code.trim()}`;

type Pair = readonly [sct: string, srt: string | null];

/** Concept names of the modifiers that say where a measurement was taken. */
export const FINDING_SITE: Pair = ["363698007", "G-C0E3"];
export const LATERALITY: Pair = ["272741003", "G-C171"];
export const TOPOGRAPHICAL_MODIFIER: Pair = ["106233006", "G-A1F8"];
/** TID 5104's "Selection Status": which of several values of one measurement the sonographer chose. */
export const SELECTION_STATUS = { scheme: "DCM", code: "121404" } as const;

/** The vascular ultrasound report's document title (TID 5100 root). */
export const VASCULAR_ULTRASOUND_REPORT = { scheme: "DCM", code: "125100" } as const;

const sides: [Pair, Side][] = [
  [["24028007", "G-A100"], "right"],
  [["7771000", "G-A101"], "left"],
];

/** Vessel segment modifiers (CID 12116): "Middle" is NCI Thesaurus C25569 in current editions. */
const segmentCodes: [string, Segment][] = [
  [codeKey("SCT", "40415009"), "PROX"],
  [codeKey("SRT", "G-A118"), "PROX"],
  [codeKey("SCT", "46053002"), "DIST"],
  [codeKey("SRT", "G-A119"), "DIST"],
  [codeKey("NCIT", "C25569"), "MID"],
];

/** A vessel, and for the few concepts that name a part of one ("great saphenous vein of thigh"), where. */
type VesselTarget = { base: BaseSiteCode; segment?: Segment };

const vessels: [Pair, VesselTarget][] = [
  // Extracranial arteries (CID 12104)
  [["32062004", "T-45100"], { base: "CCA" }],
  [["21479005", "T-45170"], { base: "BULB" }],
  [["86117002", "T-45300"], { base: "ICA" }],
  [["22286001", "T-45200"], { base: "ECA" }],
  [["85234005", "T-45700"], { base: "VA" }],
  [["36765005", "T-46100"], { base: "SCA" }],
  // Intracranial (CID 12105, 12106)
  [["17232002", "T-45600"], { base: "MCA" }],
  [["60176003", "T-45540"], { base: "ACA" }],
  [["70382005", "T-45900"], { base: "PCA" }],
  [["59011009", "T-45800"], { base: "BA" }],
  // Abdomen (CID 12111, 12112, 12115)
  [["7832008", "T-42500"], { base: "AO" }],
  [["57850000", "T-46400"], { base: "CA" }],
  [["42258001", "T-46510"], { base: "SMA" }],
  [["33795007", "T-46520"], { base: "IMA" }],
  [["2841007", "T-46600"], { base: "RA" }],
  [["73634005", "T-46710"], { base: "CIA" }],
  [["113269004", "T-46910"], { base: "EIA" }],
  // Lower extremity arteries (CID 12109)
  [["181347005", "T-47402"], { base: "CFA" }],
  [["31677005", "T-47440"], { base: "PFA" }],
  [["181349008", "T-47403"], { base: "SFA" }],
  [["43899006", "T-47500"], { base: "POPA" }],
  [["68053000", "T-47700"], { base: "ATA" }],
  [["13363002", "T-47600"], { base: "PTA" }],
  [["8821006", "T-47630"], { base: "PERA" }],
  [["86547008", "T-47740"], { base: "DPA" }],
  // Upper extremity arteries (CID 12107)
  [["67937003", "T-47100"], { base: "AXA" }],
  [["17137000", "T-47160"], { base: "BA_ARM" }],
  [["45631007", "T-47300"], { base: "RADA" }],
  [["44984001", "T-47200"], { base: "ULNA" }],
  // Lower extremity veins (CID 12110)
  [["397363009", "G-035B"], { base: "CFV" }],
  [["128587003", "T-D930A"], { base: "SFJ" }],
  [["397364003", "G-035A"], { base: "FV" }],
  [["23438002", "T-49660"], { base: "PFV" }],
  [["56849005", "T-49650"], { base: "POPV" }],
  [["244415001", "T-4941A"], { base: "SPJ" }],
  [["4258007", "T-49620"], { base: "PTV" }],
  [["71758008", "T-49640"], { base: "PERV" }],
  [["60734001", "T-49530"], { base: "GSV" }],
  [["414369008", null], { base: "GSV", segment: "THIGH" }],
  [["414368000", null], { base: "GSV", segment: "CALF" }],
  [["26805005", "T-49550"], { base: "SSV" }],
  [["264481007", "T-4942D"], { base: "GASTV" }],
  [["397427005", "G-036B"], { base: "SOLV" }],
  [["714759009", null], { base: "PERF", segment: "THIGH" }],
  [["714754004", null], { base: "PERF", segment: "CALF" }],
  // Upper extremity veins (CID 12108)
  [["12123001", "T-48170"], { base: "IJV" }],
  [["9454009", "T-48330"], { base: "SCV" }],
  [["68705008", "T-49110"], { base: "AXV" }],
  [["20115005", "T-49350"], { base: "BRV" }],
  [["20699002", "T-49240"], { base: "CEPV" }],
  [["19715009", "T-49230"], { base: "BASV" }],
];

/**
 * Measurements (CID 12120-12124, 12122) that the criteria grade. Left out on purpose: LOINC's "time averaged
 * mean velocity" (not the peak-envelope mean of transcranial criteria, which is the "time averaged peak
 * velocity"), stenosis percentages (the engine grades from velocities) and the generic "velocity ratio" (it does
 * not say which ratio).
 */
const measurements: [string, Parameter][] = [
  [codeKey("LN", "11726-7"), "PSV"],
  [codeKey("LN", "11653-3"), "EDV"],
  [codeKey("LN", "11692-1"), "MFV"],
  [codeKey("LN", "12023-8"), "RI"],
  [codeKey("LN", "33868-1"), "RATIO_ICA_CCA"],
  [codeKey("LN", "33869-9"), "RAR"],
  [codeKey("LN", "33878-0"), "FLOW_ML_MIN"],
  [codeKey("SCT", "397413000"), "DIAMETER_MM"],
  [codeKey("SRT", "G-0364"), "DIAMETER_MM"],
  [codeKey("SCT", "397414006"), "DIAMETER_MM"],
  [codeKey("SCT", "413975003"), "DEPTH_MM"],
  [codeKey("SRT", "R-1025E"), "DEPTH_MM"],
];

function byBothSchemes<T>(entries: [Pair, T][]): Map<string, T> {
  const map = new Map<string, T>();
  for (const [[sct, srt], target] of entries) {
    map.set(codeKey("SCT", sct), target);
    if (srt) map.set(codeKey("SRT", srt), target);
  }
  return map;
}

const vesselByCode = byBothSchemes(vessels);
const sideByCode = byBothSchemes(sides);
const segmentByCode = new Map(segmentCodes);
const parameterByCode = new Map(measurements);

export type Coded = { scheme: string; code: string };
const key = (c: Coded) => codeKey(c.scheme, c.code);
const isPair = (c: Coded, pair: Pair) =>
  key(c) === codeKey("SCT", pair[0]) || (pair[1] !== null && key(c) === codeKey("SRT", pair[1]));

export const vesselOf = (c: Coded): VesselTarget | null => vesselByCode.get(key(c)) ?? null;
export const sideOf = (c: Coded): Side | null => sideByCode.get(key(c)) ?? null;
export const segmentOf = (c: Coded): Segment | null => segmentByCode.get(key(c)) ?? null;
/**
 * The parameter a measurement's code names: the standard codes above first, then the clinic's configured
 * vendor codes (DICOM_SR_PARAMETER_CODES, see parseParameterCodes).
 */
export const parameterOf = (c: Coded, configured?: ParameterCodes): Parameter | null =>
  parameterByCode.get(key(c)) ?? configured?.get(key(c)) ?? null;

/** Vendor (private) measurement codes mapped to the vocabulary's parameters by configuration, by `codeKey`. */
export type ParameterCodes = ReadonlyMap<string, Parameter>;

/**
 * Reads DICOM_SR_PARAMETER_CODES: "SCHEME:CODE=PARAMETER" pairs separated by commas or new lines, for the
 * measurements TID 5100 has no standard code for and a clinic's machine writes with its vendor's private code
 * (e.g. "99GEMS:RFX01=REFLUX_MS, 99PHMS:ABI-L=ABI"). No vendor code is built in: a clinic names only the codes
 * its own machine's DICOM conformance statement documents. Throws with the faulty entry in words.
 */
export function parseParameterCodes(text: string | undefined): ParameterCodes {
  const map = new Map<string, Parameter>();
  for (const entry of (text ?? "")
    .split(/[,\n]/)
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([^:=\s]+):([^=]+)=\s*(\S+)$/.exec(entry);
    if (!match) throw new Error(`"${entry}" is not SCHEME:CODE=PARAMETER`);
    const [, scheme, code, parameter] = match as unknown as [string, string, string, string];
    if (!isParameter(parameter)) throw new Error(`"${entry}": ${parameter} is not a parameter of the vocabulary`);
    const k = codeKey(scheme, code);
    if (parameterByCode.has(k)) throw new Error(`"${entry}": ${k} is a standard code, already read`);
    map.set(k, parameter);
  }
  return map;
}
export const isFindingSite = (c: Coded) => isPair(c, FINDING_SITE);
export const isLaterality = (c: Coded) => isPair(c, LATERALITY);
export const isTopographicalModifier = (c: Coded) => isPair(c, TOPOGRAPHICAL_MODIFIER);
export const isSelectionStatus = (c: Coded) => key(c) === codeKey(SELECTION_STATUS.scheme, SELECTION_STATUS.code);

/** UCUM units as SRs write them, in the spelling `report-engine/units.ts` converts from; dimensionless is "". */
export function unitFromUcum(ucum: string): string {
  const unit = ucum.trim();
  return unit === "1" || /^\{.*\}$/.test(unit) ? "" : unit;
}
