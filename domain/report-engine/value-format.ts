import { parameterLabels } from "../vocabulary/parameters";
import type { ObservationFinding, Parameter } from "./vocabulary";
import { parameterUnits } from "./vocabulary";

export { parameterLabels };

/** Input numbers are printed as JavaScript prints them, so the text shows exactly what was measured. */
export function formatNumber(value: number): string {
  return String(value);
}

/** Ratios the engine computes are rounded to two decimals, and grading uses the rounded value so that the
 * printed ratio and its grade never disagree at a threshold. */
export function roundRatio(value: number): number {
  return Math.round(value * 100) / 100;
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
};

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a", "a and b", "a, b and c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}
