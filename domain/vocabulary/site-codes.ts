import { allSegments, isLimbPosition, positionPhrases, type Segment, segmentNames } from "./segments";
import { type BaseSiteCode, baseSiteCodes, isBaseSiteCode, siteEntry, siteNames } from "./sites";
import type { Side } from "./study-terms";

// Site codes as written in studies: a vessel, optionally with a segment suffix (`SFA_MID`, `GSV_KNEE`).

export interface ParsedSite {
  /** The code as written in the study, normalised to upper case. */
  code: string;
  base: BaseSiteCode;
  segment: Segment | null;
}

/** Whether the vessel can carry the segment: the criteria's three everywhere, leg positions where they apply. */
export function segmentFits(base: BaseSiteCode, segment: Segment): boolean {
  return !isLimbPosition(segment) || siteEntry(base).limbPositions === true;
}

/** The segments a vessel can carry, proximal to distal. */
export const segmentsOf = (base: BaseSiteCode): readonly Segment[] => allSegments.filter((s) => segmentFits(base, s));

// Longest first so that `GSV_CALF_PROX` is read as the calf position, not as a vessel "GSV_CALF".
const suffixes = [...allSegments].sort((a, b) => b.length - a.length);

/** Splits `SFA_MID` into its vessel and segment; null when the code is not in the vocabulary. */
export function parseSiteCode(raw: string): ParsedSite | null {
  const code = raw.trim().toUpperCase();
  if (isBaseSiteCode(code)) return { code, base: code, segment: null };
  for (const segment of suffixes) {
    if (!code.endsWith(`_${segment}`)) continue;
    const base = code.slice(0, -(segment.length + 1));
    if (isBaseSiteCode(base) && segmentFits(base, segment)) return { code, base, segment };
  }
  return null;
}

export function isSiteCode(raw: string): boolean {
  return parseSiteCode(raw) !== null;
}

/** `GSV` and `KNEE` give `GSV_KNEE`; null when the vessel cannot carry the segment. */
export function siteCode(base: BaseSiteCode, segment: Segment | null): string | null {
  if (!segment) return base;
  return segmentFits(base, segment) ? `${base}_${segment}` : null;
}

/** "right internal carotid artery", "right proximal superficial femoral artery", "left great saphenous vein at the knee". */
export function siteLabel(site: ParsedSite, side: Side | null): string {
  const position = site.segment && isLimbPosition(site.segment) ? positionPhrases[site.segment] : "";
  const adjective = site.segment && !position ? segmentNames[site.segment] : "";
  return [side ?? "", adjective, siteNames[site.base], position].filter(Boolean).join(" ");
}

export function vesselLabel(base: BaseSiteCode, side: Side | null): string {
  return side ? `${side} ${siteNames[base]}` : siteNames[base];
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** For tables: "GSV_KNEE" -> "Great saphenous vein, knee"; a code outside the vocabulary is shown as written. */
export function siteWords(code: string): string {
  const parsed = parseSiteCode(code);
  if (!parsed) return code;
  const name = siteNames[parsed.base];
  return capitalise(parsed.segment ? `${name}, ${segmentNames[parsed.segment]}` : name);
}

export const siteOrder = (base: BaseSiteCode): number => baseSiteCodes.indexOf(base);
/** Whole-vessel entries come first, then proximal to distal. */
export const segmentOrder = (segment: Segment | null): number => (segment ? allSegments.indexOf(segment) + 1 : 0);
