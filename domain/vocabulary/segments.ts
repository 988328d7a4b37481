// Where along a vessel a value was taken. The criteria allow `_PROX`, `_MID` and `_DIST` on every vessel;
// worksheets also place saphenous veins and perforators at the thigh, knee, calf and ankle.

/** The criteria's segments, valid on every vessel. */
export const segments = ["PROX", "MID", "DIST"] as const;
/** Positions along the leg, valid on vessels marked `limbPositions` (saphenous veins, perforators). */
export const limbPositions = ["THIGH", "KNEE", "CALF_PROX", "CALF", "CALF_MID", "CALF_DIST", "ANKLE"] as const;
/** Every segment, proximal to distal: the order in which findings read them. */
export const allSegments = [...segments, ...limbPositions] as const;
export type Segment = (typeof allSegments)[number];

/** The word the report puts before a segment's values ("proximal PSV 250 cm/s", "knee reflux time 900 ms"). */
export const segmentNames: Record<Segment, string> = {
  PROX: "proximal",
  MID: "mid",
  DIST: "distal",
  THIGH: "thigh",
  KNEE: "knee",
  CALF_PROX: "upper calf",
  CALF: "calf",
  CALF_MID: "mid-calf",
  CALF_DIST: "lower calf",
  ANKLE: "ankle",
};

/** How a position follows the vessel's name: "great saphenous vein at the knee". */
export const positionPhrases: Record<(typeof limbPositions)[number], string> = {
  THIGH: "in the thigh",
  KNEE: "at the knee",
  CALF_PROX: "in the upper calf",
  CALF: "in the calf",
  CALF_MID: "in the mid-calf",
  CALF_DIST: "in the lower calf",
  ANKLE: "at the ankle",
};

export const isLimbPosition = (segment: Segment): segment is (typeof limbPositions)[number] =>
  (limbPositions as readonly string[]).includes(segment);

/**
 * Segment words as printed after a vessel on worksheets, lower case without spaces ("GSV Prox Thigh",
 * "SSV Mid Calf"). On the great saphenous vein the thigh is where proximal, mid and distal are measured.
 */
export const segmentLabels: Record<Segment, readonly string[]> = {
  PROX: ["prox", "proximal", "proxthigh", "proximalthigh", "upperthigh"],
  MID: ["mid", "middle", "midthigh", "middlethigh"],
  DIST: ["dist", "distal", "distthigh", "distalthigh", "lowerthigh"],
  THIGH: ["thigh"],
  KNEE: ["knee", "atknee"],
  CALF_PROX: ["proxcalf", "proximalcalf", "uppercalf"],
  CALF: ["calf"],
  CALF_MID: ["midcalf", "middlecalf"],
  CALF_DIST: ["distcalf", "distalcalf", "lowercalf"],
  ANKLE: ["ankle"],
};
