// The measurement tables: which vessels a carotid or venous worksheet lists, and plausible values for them.

export const CAROTID_ROWS = ["CCA Prox", "CCA Mid", "CCA Dist", "Bulb", "ICA Prox", "ICA Mid", "ICA Dist", "ECA", "VA"];
export const VENOUS_ROWS = [
  "CFV",
  "SFJ",
  "GSV Prox Thigh",
  "GSV Mid Thigh",
  "GSV Knee",
  "GSV Calf",
  "FV",
  "Pop V",
  "SPJ",
  "SSV",
];
export function carotidValues(rng) {
  const out = [];
  const stenosedSide = rng.chance(0.5) ? rng.pick(["R", "L"]) : null;
  for (const vessel of CAROTID_ROWS) {
    for (const side of ["R", "L"]) {
      if (rng.chance(0.08)) continue; // not measured -> blank cell
      let psv = rng.i(45, 125),
        edv = rng.i(9, 32);
      if (vessel === "VA") {
        psv = rng.i(30, 70);
        edv = rng.i(8, 22);
      }
      if (vessel === "ECA") {
        psv = rng.i(60, 160);
        edv = rng.i(5, 20);
      }
      if (stenosedSide === side && vessel === "ICA Prox") {
        psv = rng.i(130, 460);
        edv = rng.i(40, 160);
      }
      out.push({ vessel, side, param: "PSV", value: psv, unit: "cm/s", written: String(psv) });
      out.push({ vessel, side, param: "EDV", value: edv, unit: "cm/s", written: String(edv) });
    }
  }
  return out;
}
export function venousValues(rng) {
  const out = [];
  for (const vessel of VENOUS_ROWS) {
    for (const side of ["R", "L"]) {
      if (rng.chance(0.1)) continue;
      const refl = rng.chance(0.35) ? rng.i(6, 45) / 10 : rng.i(0, 5) / 10; // seconds, 1 decimal
      const diam = rng.i(25, 120) / 10; // mm
      out.push({ vessel, side, param: "Reflux", value: refl, unit: "s", written: refl.toFixed(1) });
      out.push({ vessel, side, param: "Diam", value: diam, unit: "mm", written: diam.toFixed(1) });
    }
  }
  return out;
}

// The table's value columns, left to right, as [side, param] of the values above.
export const TABLE_COLUMNS = {
  carotid: [
    ["R", "PSV"],
    ["R", "EDV"],
    ["L", "PSV"],
    ["L", "EDV"],
  ],
  venous: [
    ["R", "Reflux"],
    ["R", "Diam"],
    ["L", "Reflux"],
    ["L", "Diam"],
  ],
};
