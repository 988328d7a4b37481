import fc from "fast-check";
import { type Study, studySchema } from "../../contracts/study";
import { scanProfiles } from "../scan-profiles";
import { baseSiteCodes, observationFindings, parameters, scanTypes, segments } from "../vocabulary";

// Random studies, mostly made of the vessels and parameters of their scan type but with foreign sites, missing
// sides and conflicting observations mixed in. Shared by the property tests and bench/report-engine.ts.

/** Values a sheet may carry in another unit, and values no body can have (the examples). */
export const otherUnits = [
  { parameter: "PSV", unit: "m/s", value: 4.58 },
  { parameter: "PSV", unit: "m/s", value: 1.2 },
  { parameter: "EDV", unit: "m/sec", value: 0.45 },
  { parameter: "MFV", unit: "m/s", value: 1.65 },
  { parameter: "REFLUX_MS", unit: "s", value: 0.8 },
  { parameter: "REFLUX_MS", unit: "sec", value: 2.5 },
  { parameter: "DIAMETER_MM", unit: "cm", value: 4.5 },
  { parameter: "DIAMETER_MM", unit: "cm", value: 0.6 },
  { parameter: "FLOW_ML_MIN", unit: "L/min", value: 0.65 },
] as const;

export const impossibleValues = [
  { parameter: "PSV", value: 9000 },
  { parameter: "ABI", value: 50 },
  { parameter: "DIAMETER_MM", value: 900 },
  { parameter: "MFV", value: 5000 },
  { parameter: "REFLUX_MS", value: 1e7 },
] as const;

export function studyArbitrary(options: { units?: boolean; impossible?: boolean } = {}): fc.Arbitrary<Study> {
  return fc.constantFrom(...scanTypes).chain((scanType) => {
    const ownSites = scanProfiles[scanType].sites;
    const site = fc
      .tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...ownSites) },
          { weight: 1, arbitrary: fc.constantFrom(...baseSiteCodes) },
        ),
        fc.option(fc.constantFrom(...segments), { nil: undefined }),
      )
      .map(([base, segment]) => (segment ? `${base}_${segment}` : base));
    const side = fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom("right" as const, "left" as const) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    const value = fc.oneof(
      fc.integer({ min: 0, max: 700 }),
      fc.integer({ min: 0, max: 900 }).map((n) => n / 100),
    );
    const plain = fc.record({ site, side, parameter: fc.constantFrom(...parameters), value }).map((x) => ({
      ...x,
      value: x.parameter === "EXTENSION_PCT" ? Math.min(x.value, 100) : x.value,
    }));
    const converted = fc
      .record({ site, side, which: fc.constantFrom(...otherUnits) })
      .map(({ site, side, which }) => ({ site, side, ...which }));
    const impossible = fc
      .record({ site, side, which: fc.constantFrom(...impossibleValues) })
      .map(({ site, side, which }) => ({ site, side, ...which }));
    const measurement = fc.oneof(
      { weight: 8, arbitrary: plain },
      { weight: options.units ? 1 : 0, arbitrary: converted },
      { weight: options.impossible ? 1 : 0, arbitrary: impossible },
    );
    const observation = fc.record({ site, side, finding: fc.constantFrom(...observationFindings) });
    return fc
      .record({
        measurements: fc.array(measurement, { maxLength: 25 }),
        observations: fc.array(observation, { maxLength: 10 }),
        sex: fc.constantFrom("female" as const, "male" as const, undefined),
      })
      .map((parts) => studySchema.parse({ scanType, ...parts }));
  });
}
