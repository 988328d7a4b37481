// Scan types, sides and observations exactly as ../../../shared/clinical-criteria.md spells them.

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
  // Added by the engine (repo criteria: docs/clinical-criteria.md): what the sheet says about a vein's history
  // and a plaque's appearance.
  "chronic",
  "treated",
  "echolucent",
  "echogenic",
  "heterogeneous",
  "calcified",
  "smooth_surface",
  "irregular_surface",
  "ulcerated",
] as const;
export type ObservationFinding = (typeof observationFindings)[number];

/** What a plaque looks like (echogenicity) and its surface: described with the plaque, never a grade of their own. */
export const plaqueCharacters = [
  "echolucent",
  "echogenic",
  "heterogeneous",
  "calcified",
  "smooth_surface",
  "irregular_surface",
  "ulcerated",
] as const satisfies readonly ObservationFinding[];
export type PlaqueCharacter = (typeof plaqueCharacters)[number];
export const isPlaqueCharacter = (f: ObservationFinding): f is PlaqueCharacter =>
  (plaqueCharacters as readonly string[]).includes(f);

/**
 * How worksheets word each plaque character beside its check box, squashed (lower case, letters only), the finding's
 * own name first: the one list the OCR maps a ticked label through.
 */
export const plaqueCharacterLabels: Record<PlaqueCharacter, readonly string[]> = {
  echolucent: ["echolucent", "hypoechoic", "anechoic", "lucent"],
  echogenic: ["echogenic", "hyperechoic", "echodense"],
  heterogeneous: ["heterogeneous", "heterogenous", "mixed"],
  calcified: ["calcified", "calcific", "calcification"],
  smooth_surface: ["smooth"],
  irregular_surface: ["irregular"],
  ulcerated: ["ulcerated", "ulceration", "ulcer"],
};
