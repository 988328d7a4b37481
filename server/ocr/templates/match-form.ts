import type { Box } from "../../../domain/contracts/ocr";
import { editDistance } from "../name-lexicon";
import { squash } from "../worksheet-vocabulary";
import { fitHomography, type Homography, type PointPair } from "./homography-fit";
import type { FormAnchor, FormLayout } from "./propose-zones";

/** A clinic's form as the reader gets it: its id and what was found on its blank image. */
export type ReadingTemplate = FormLayout & { id: number };
export type FormMatch = {
  template: ReadingTemplate;
  /** Maps the blank form's pixels to the filled page's pixels. */
  h: Homography;
  /** Share of the form's anchors found in place on the page. */
  coverage: number;
  /** Indexes of the page texts that are the form's own print (matched anchors). */
  printed: Set<number>;
};

/** A filled page must show at least this share of the form's printed texts in place to be read by that form. */
export const MIN_COVERAGE = 0.4;
const MIN_INLIERS = 6;
/** How far (share of the page's larger side) a printed text may sit from where the form puts it. */
const TOLERANCE_SHARE = 0.015;
/** Anchors this long may match a reading one letter off (photos blur print too). */
const FUZZY_LENGTH = 6;

/** A form with too few printed texts cannot be found on a photo: it is kept as a picture only. */
export const usableForReading = (layout: FormLayout) => layout.anchors.length >= MIN_INLIERS && layout.zones.length > 0;

const sameText = (a: string, b: string) =>
  a === b || (a.length >= FUZZY_LENGTH && Math.abs(a.length - b.length) <= 1 && editDistance(a, b, 1) <= 1);

/**
 * Finds which of the clinic's forms a page is, and where the form lies on it: each printed text of a form
 * (its anchors) is paired with the page's texts that read the same, a homography is fitted through the pairs with
 * RANSAC (so a photo at an angle or in perspective works, and repeated or misread words drop out), and the form
 * whose anchors are found in place in the largest share wins. Null when no form reaches MIN_COVERAGE.
 */
export function matchForm(
  texts: { text: string; box: Box }[],
  page: { width: number; height: number },
  templates: ReadingTemplate[],
): FormMatch | null {
  const read = texts.map((t) => ({
    text: squash(t.text),
    x: t.box.x + t.box.width / 2,
    y: t.box.y + t.box.height / 2,
  }));
  let best: FormMatch | null = null;
  for (const template of templates) {
    if (template.anchors.length < MIN_INLIERS) continue;
    const pairs: (PointPair & { anchor: FormAnchor; index: number })[] = [];
    for (const anchor of template.anchors) {
      read.forEach((r, index) => {
        if (sameText(anchor.text, r.text)) pairs.push({ from: anchor, to: r, anchor, index });
      });
    }
    const fit = fitHomography(pairs, {
      tolerance: TOLERANCE_SHARE * Math.max(page.width, page.height),
      minInliers: Math.max(MIN_INLIERS, Math.ceil(MIN_COVERAGE * template.anchors.length)),
    });
    if (!fit) continue;
    const found = new Set(fit.inliers.map((i) => pairs[i]!.anchor));
    const coverage = found.size / template.anchors.length;
    if (coverage >= MIN_COVERAGE && (!best || coverage > best.coverage)) {
      best = { template, h: fit.h, coverage, printed: new Set(fit.inliers.map((i) => pairs[i]!.index)) };
    }
  }
  return best;
}
