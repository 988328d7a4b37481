import { type Parameter, parameterNames, parameterUnits } from "../vocabulary/parameters";
import { parseSiteCode, siteLabel } from "../vocabulary/site-codes";
import type { Side } from "../vocabulary/study-terms";

/**
 * How a measurement is coded when it leaves the product (FHIR Observation, HL7 OBX). LOINC only where LOINC has
 * the vascular measurement itself: the LOINC codes DICOM lists for vascular ultrasound (PS3.16 CID 12120
 * "Ultrasound Blood Velocity Measurement", CID 12121 "Vascular Index/Ratio", CID 12122 "Other Vascular
 * Property"). Everything else, and always the site and side, is coded in our own local code systems: they are
 * identifiers, not resolvable web pages, and a receiver maps them (docs/decisions/019-report-delivery.md).
 */

export const LOINC_SYSTEM = "http://loinc.org";
export const UCUM_SYSTEM = "http://unitsofmeasure.org";
/** Local code system of measurement parameters: codes are the vocabulary's parameter codes (`PSV`, `REFLUX_MS`). */
export const LOCAL_PARAMETER_SYSTEM = "urn:sonoscribe:codesystem:vascular-parameter";
/** Local code system of measured sites: `<site code>` or `<site code>:<side>` (`ICA_PROX:left`, `AORTA_PROX`). */
export const LOCAL_SITE_SYSTEM = "urn:sonoscribe:codesystem:vascular-site";
/** The same local codes in HL7 v2 (a local coding system of table 0396 is "99" and letters). */
export const HL7_LOCAL_CODING_SYSTEM = "99SSV";

type Loinc = { code: string; display: string };

/**
 * Parameters LOINC codes as such. Mean flow velocity (TCD) is left local: LOINC's "time averaged mean velocity"
 * is not the peak-envelope mean that transcranial criteria use. Ratios are LOINC's generic "Velocity ratio";
 * the local code says which ratio.
 */
export const loincByParameter: Partial<Record<Parameter, Loinc>> = {
  PSV: { code: "11726-7", display: "Peak Systolic Velocity" },
  EDV: { code: "11653-3", display: "End Diastolic Velocity" },
  RI: { code: "12023-8", display: "Resistivity Index" },
  FLOW_ML_MIN: { code: "33878-0", display: "Volume flow" },
  RATIO_ICA_CCA: { code: "33867-3", display: "Velocity ratio" },
  PSVR: { code: "33867-3", display: "Velocity ratio" },
  RAR: { code: "33867-3", display: "Velocity ratio" },
  LINDEGAARD: { code: "33867-3", display: "Velocity ratio" },
};

/** UCUM for the vocabulary's units; dimensionless ratios and indices are UCUM's unity "1". */
const ucumByUnit: Record<string, { code: string; unit: string }> = {
  "cm/s": { code: "cm/s", unit: "cm/s" },
  mm: { code: "mm", unit: "mm" },
  ms: { code: "ms", unit: "ms" },
  "mL/min": { code: "mL/min", unit: "mL/min" },
  "%": { code: "%", unit: "%" },
};

export type CodedMeasurement = {
  parameter: Parameter;
  parameterName: string;
  loinc: Loinc | null;
  /** `ICA_PROX:left` in LOCAL_SITE_SYSTEM. */
  siteCode: string;
  /** "left proximal internal carotid artery" */
  siteText: string;
  value: number;
  ucum: { code: string; unit: string };
};

/** One measurement with its codes; units are the vocabulary's (what the engine graded), never the sheet's spelling. */
export function codeMeasurement(m: {
  site: string;
  side?: Side | null;
  parameter: Parameter;
  value: number;
}): CodedMeasurement {
  const parsed = parseSiteCode(m.site);
  const site = parsed?.code ?? m.site.toUpperCase();
  const unit = parameterUnits[m.parameter];
  return {
    parameter: m.parameter,
    parameterName: parameterNames[m.parameter],
    loinc: loincByParameter[m.parameter] ?? null,
    siteCode: m.side ? `${site}:${m.side}` : site,
    siteText: parsed ? siteLabel(parsed, m.side ?? null) : site,
    value: m.value,
    ucum: unit ? (ucumByUnit[unit] ?? { code: unit, unit }) : { code: "1", unit: "1" },
  };
}
