import { parameterLabels } from "../vocabulary/parameters";
import type { ObservationFinding, Parameter, PlaqueCharacter } from "./vocabulary";
import { parameterUnits } from "./vocabulary";

export { parameterLabels };

/** Input numbers are printed as JavaScript prints them, so the text shows exactly what was measured. */
export function formatNumber(value: number): string {
  return String(value);
}

/**
 * How a computed ratio is shown: two decimals, or as many more as it takes for the shown value to fall on the same
 * side of every threshold as the exact one. Grading always uses the exact value (1.996 is below 2.0 and is shown
 * as 1.996, not as 2).
 */
export function roundRatio(value: number, thresholds: readonly number[] = []): number {
  for (let decimals = 2; decimals < 10; decimals++) {
    const factor = 10 ** decimals;
    const shown = Math.round(value * factor) / factor;
    const sameSide = thresholds.every((t) => Math.sign(shown - t) === Math.sign(value - t));
    if (sameSide) return shown;
  }
  return value;
}

export const COMPUTED_LABEL = "(computed)";

function withUnit(parameter: Parameter, number: string): string {
  const unit = parameterUnits[parameter];
  if (!unit) return number;
  return unit === "%" ? `${number}%` : `${number} ${unit}`;
}

/** "PSV 250 cm/s"; two differing values of one site are both shown: "PSV 250 and 180 cm/s". */
export function formatMeasurement(parameter: Parameter, values: readonly number[]): string {
  const numbers = values.map(formatNumber);
  const joined = numbers.length > 1 ? `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}` : (numbers[0] ?? "");
  return `${parameterLabels[parameter]} ${withUnit(parameter, joined)}`;
}

export function formatComputed(parameter: Parameter, value: number): string {
  return `${parameterLabels[parameter]} ${withUnit(parameter, formatNumber(value))} ${COMPUTED_LABEL}`;
}

export function formatValue(parameter: Parameter, value: number): string {
  return withUnit(parameter, formatNumber(value));
}

export const observationPhrases: Record<ObservationFinding, string> = {
  plaque: "plaque present",
  no_plaque: "no plaque",
  compressible: "fully compressible",
  non_compressible: "non-compressible",
  thrombus: "thrombus seen",
  occluded: "occluded",
  near_occlusion: "near occlusion with a markedly narrowed lumen",
  no_flow: "no flow detected",
  antegrade: "antegrade flow",
  retrograde: "retrograde flow",
  to_and_fro: "to-and-fro flow",
  triphasic: "triphasic waveform",
  biphasic: "biphasic waveform",
  monophasic: "monophasic waveform",
  dampened: "dampened waveform",
  spontaneous_flow: "spontaneous flow",
  phasic_flow: "phasic flow",
  continuous_flow: "continuous (non-phasic) flow",
  chronic: "chronic post-thrombotic change",
  treated: "treated (ablated) vein",
  echolucent: "echolucent plaque",
  echogenic: "echogenic plaque",
  heterogeneous: "heterogeneous plaque",
  calcified: "calcified plaque",
  smooth_surface: "smooth plaque surface",
  irregular_surface: "irregular plaque surface",
  ulcerated: "ulcerated plaque",
};

/** How Findings describe a plaque's character after "plaque present": "(echolucent, ulcerated surface)". */
export const plaqueCharacterWords: Record<PlaqueCharacter, string> = {
  echolucent: "echolucent",
  echogenic: "echogenic",
  heterogeneous: "heterogeneous",
  calcified: "calcified",
  smooth_surface: "smooth surface",
  irregular_surface: "irregular surface",
  ulcerated: "ulcerated surface",
};

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a", "a and b", "a, b and c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
