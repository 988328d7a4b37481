// Measurement parameters, the unit each is graded in, and how the report and the screens name them.

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

export const isParameter = (code: string): code is Parameter => (parameters as readonly string[]).includes(code);

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

/** How the report's sentences name a parameter: "PSV 250 cm/s", "reflux time 1800 ms". */
export const parameterLabels: Record<Parameter, string> = {
  PSV: "PSV",
  EDV: "EDV",
  MFV: "mean flow velocity",
  RATIO_ICA_CCA: "ICA/CCA PSV ratio",
  PSVR: "PSV ratio",
  RAR: "renal-aortic ratio",
  LINDEGAARD: "Lindegaard ratio",
  REFLUX_MS: "reflux time",
  DIAMETER_MM: "diameter",
  DEPTH_MM: "depth",
  FLOW_ML_MIN: "volume flow",
  ABI: "ABI",
  RI: "RI",
  EXTENSION_PCT: "thrombus extension into the deep vein",
};

/** How tables and forms name a parameter in full. */
export const parameterNames: Record<Parameter, string> = {
  PSV: "Peak systolic velocity",
  EDV: "End diastolic velocity",
  MFV: "Mean flow velocity",
  RATIO_ICA_CCA: "ICA/CCA ratio",
  PSVR: "PSV ratio",
  RAR: "Renal-aortic ratio",
  LINDEGAARD: "Lindegaard ratio",
  REFLUX_MS: "Reflux time",
  DIAMETER_MM: "Diameter",
  DEPTH_MM: "Depth",
  FLOW_ML_MIN: "Volume flow",
  ABI: "Ankle-brachial index",
  RI: "Resistive index",
  EXTENSION_PCT: "Thrombus extension",
};

/** What worksheets print in their column headers: short enough for a table on a phone. */
export const parameterShortNames: Record<Parameter, string> = {
  PSV: "PSV",
  EDV: "EDV",
  MFV: "MFV",
  RATIO_ICA_CCA: "ICA/CCA",
  PSVR: "PSVR",
  RAR: "RAR",
  LINDEGAARD: "LR",
  REFLUX_MS: "Reflux",
  DIAMETER_MM: "Diameter",
  DEPTH_MM: "Depth",
  FLOW_ML_MIN: "Flow",
  ABI: "ABI",
  RI: "RI",
  EXTENSION_PCT: "Extension",
};
