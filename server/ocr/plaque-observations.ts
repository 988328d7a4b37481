// Plaque character from a worksheet's check boxes (issue 31 item 10): the printed labels that name a plaque
// character, whether the box beside each is marked (check-boxes.ts, from the pixels), and the side and vessel of the
// section heading above or left of it ("Right ICA plaque:", "Lt Bulb:"). Words map through the one vocabulary
// (domain/vocabulary). A box that is not clearly marked, or a label with no heading, gives nothing.
import type { OcrObservation } from "../../domain/contracts/ocr";
import { parseSiteCode } from "../../domain/vocabulary/site-codes";
import type { PlaqueCharacter } from "../../domain/vocabulary/study-terms";
import { plaqueCharacterFromLabel, siteFromLabel, squash } from "../../domain/vocabulary/worksheet-labels";
import { type CheckMark, checkMark } from "./check-boxes";
import type { Raster } from "./raster";
import { centerV, type ReadRegion } from "./read-region";
import type { PageFrame } from "./text-regions";

/** A plaque character's label: which word of which region, and its extent along the line. */
export type PlaqueLabel = { finding: PlaqueCharacter; text: string; u0: number; u1: number; v0: number; v1: number };
/** What recognizePage found at each plaque label of a region (kept on the region for assembleResult). */
export type LabelMark = PlaqueLabel & { mark: CheckMark };

/** Vessels a carotid plaque section names. */
const PLAQUE_SITES = new Set(["ICA", "BULB", "CCA", "ECA"]);
/** How far below its heading (in text heights) a section's last row of boxes may be. */
const SECTION_DEPTH = 4;

/** The words of a region that name a plaque character, each with the part of the region it covers. */
export function plaqueLabels(region: ReadRegion): PlaqueLabel[] {
  const { chars } = region.read;
  const steps = region.matrix.steps;
  const at = (step: number) => region.u0 + (step / steps) * (region.u1 - region.u0);
  const words: { text: string; from: number; to: number }[] = [];
  let current: { text: string; from: number; to: number } | null = null;
  for (const c of chars) {
    if (/\s/.test(c.char)) {
      current = null;
      continue;
    }
    if (!current) {
      current = { text: "", from: c.step, to: c.step };
      words.push(current);
    }
    current.text += c.char;
    current.to = c.step;
  }
  return words.flatMap((word) => {
    const finding = plaqueCharacterFromLabel(word.text);
    if (!finding) return [];
    // A box the recogniser merged into the word ("[]Smooth", "MHeterogeneous" for a ticked one) is not the label:
    // the label starts where the word's letters name the finding exactly.
    const w = { ...word };
    while (w.text.length > 1) {
      const rest = w.text.slice(1);
      if (/[a-z]/i.test(w.text[0]!) && plaqueCharacterFromLabel(rest, { exact: true }) !== finding) break;
      w.text = rest;
      w.from = chars.find((c, k) => k > 0 && c.step > w.from && !/\s/.test(c.char))?.step ?? w.from;
    }
    // A character's step is about its middle: a quarter of a text height either side reaches its edges. The region
    // itself may start at the check box, which the recogniser reads as a blank.
    const pad = 0.25 * (region.v1 - region.v0);
    return [
      {
        finding,
        text: w.text,
        u0: Math.max(region.u0, at(w.from) - pad),
        u1: Math.min(region.u1, at(w.to + 1) + pad),
        v0: region.v0,
        v1: region.v1,
      },
    ];
  });
}

/** Marks every plaque label of a page by looking at its pixels; called once per page while the raster is at hand. */
export function markPlaqueLabels(raster: Raster, frame: PageFrame, regions: ReadRegion[]): void {
  for (const region of regions) {
    const labels = plaqueLabels(region);
    if (labels.length > 0) region.checkMarks = labels.map((l) => ({ ...l, mark: checkMark(raster, frame, l) }));
  }
}

/** "Right ICA plaque:", "Lt Bulb", "L ICA:" (the recogniser may drop the space): the side and site code. */
export function plaqueHeading(text: string): { side: "left" | "right"; site: string } | null {
  const s = squash(text.split(":")[0]!).replace(/plaque$/, "");
  const m = /^(right|rt|r|left|lt|l)(.+)$/.exec(s);
  if (!m) return null;
  const site = siteFromLabel(m[2]!);
  const base = site ? parseSiteCode(site)?.base : null;
  if (!site || !base || !PLAQUE_SITES.has(base)) return null;
  return { side: m[1]!.startsWith("r") ? "right" : "left", site };
}

/** The observations of one page's marked plaque boxes, each under the nearest heading above or left of it. */
export function plaqueObservations(regions: ReadRegion[]): OcrObservation[] {
  const headings = regions.flatMap((r) => {
    const h = plaqueHeading(r.read.text);
    return h ? [{ ...h, u0: r.u0, v: centerV(r) }] : [];
  });
  const found = new Map<string, OcrObservation>();
  for (const region of regions) {
    for (const label of region.checkMarks ?? []) {
      if (label.mark.state !== "marked") continue;
      const v = (label.v0 + label.v1) / 2;
      const height = label.v1 - label.v0;
      const heading = headings
        .filter((h) => h.u0 < label.u0 && h.v <= v + 0.5 * height && v - h.v <= SECTION_DEPTH * height)
        .sort((a, b) => b.v - a.v)[0];
      if (!heading) continue;
      const observation: OcrObservation = {
        site: heading.site,
        side: heading.side,
        finding: label.finding,
        confidence: Math.round(label.mark.confidence * region.read.confidence * 1000) / 1000,
        text: label.text,
        box: region.box,
      };
      const key = `${heading.site}|${heading.side}|${label.finding}`;
      if ((found.get(key)?.confidence ?? -1) < observation.confidence) found.set(key, observation);
    }
  }
  return [...found.values()];
}
