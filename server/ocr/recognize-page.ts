import { markChoiceRings } from "./choice-rings";
import { dateShareOfStrip } from "./date-reading";
import { readDatesByStrokes, readDigitsByStrokes } from "./digit-reading";
import { matchLabel } from "./field-extraction";
import { loadPaddleModels } from "./paddle-models";
import { markPlaqueLabels } from "./plaque-observations";
import { decodeRaster, type Raster } from "./raster";
import { type ReadRegion, toReadRegion } from "./read-region";
import { readRecordNumbersByStrokes } from "./record-number-reading";
import { detectText } from "./text-detector";
import { type CharMatrix, type FoldTable, foldTable, recognizeRegions } from "./text-recognizer";
import { estimateFrame, type PageFrame, type TextRegion, toRegions } from "./text-regions";

let fold: FoldTable | undefined;
/** Reads crops of one page's regions, optionally stretched wider than their own aspect ratio. */
type ReadCrops = (crops: TextRegion[], stretch?: number) => Promise<CharMatrix[]>;
/** How much taller (in text heights) the second crop of a short region is. */
const VARIANT_GROW = 0.12;
/**
 * Width factor of the stretched reading of a doubtful value. Handwriting is often narrower than print, and at the
 * recogniser's two or three steps per character two thin strokes ("11") collapse into one.
 */
const STRETCH = 1.6;
/**
 * A reading of a doubtful value stretched further: one more vote that separates thin strokes (cells, measured on
 * five corpora: measurement recall up 0.4 to 0.9 points, precision -0.3 to +0.6, for 0.3 s more CPU a page; dates:
 * 5 to 10 points more dates on four of five corpora, none lost).
 */
const WIDE_STRETCH = 2.2;
/** Regions wider than this (in text heights) are lines of text, not values: not worth a stretched reading. */
const MAX_STRETCHED_WIDTH = 12;
const SURE = 0.98;
/** How far (in text heights) before the label's end the own crop of a value merged with its label starts. */
const VALUE_MARGIN = 0.2;

/** Text that may be a date alone: at least four digits, and digits and separators most of it (no label). */
const dateLike = (text: string) => {
  const t = text.replace(/\s+/g, "");
  const digits = t.replace(/\D/g, "").length;
  return digits >= 4 && t.replace(/[^0-9./-]/g, "").length >= 0.75 * t.length;
};

/**
 * A short region the recogniser read as a plain number and was sure of: its strokes are read too, because a sure
 * misreading ("29" read "19") is the one the checking screen would not show as doubtful.
 */
const plainNumber = (r: ReadRegion) => /^\d+(\.\d+)?$/.test(r.read.text) && r.u1 - r.u0 < 3.5 * (r.v1 - r.v0);

/** Detects and reads every text region of one page image (PNG/JPEG), in the page's deskewed frame. */
export async function recognizePage(image: Buffer, page: number): Promise<ReadRegion[]> {
  const { raster, frame, read } = await readPageText(image, page);
  await readByStrokes(raster, frame, read);
  markPlaqueLabels(raster, frame, read);
  markChoiceRings(raster, frame, read);
  return read;
}

/** The PP-OCR part of a page's reading: every region and its crops' readings, without the digit classifier's. */
export async function readPageText(
  image: Buffer,
  page: number,
): Promise<{ raster: Raster; frame: PageFrame; read: ReadRegion[] }> {
  const models = await loadPaddleModels();
  fold ??= foldTable(models.charset);
  const asciiFold = fold;
  const raster = await decodeRaster(image);
  const components = await models.withDetector((det) => detectText(det, raster));
  const frame = estimateFrame(components);
  // One detector pixel in page pixels, to give each region back the extent its outermost pixels cover.
  const pixel = Math.max(1, Math.max(raster.width, raster.height) / 1536);
  const regions = toRegions(components, frame, page, pixel);
  const readCrops: ReadCrops = (crops, stretch) =>
    recognizeRegions(models.rec, asciiFold, raster, frame, crops, stretch);
  const matrices = await readCrops(regions);
  const read = regions.map((r, i) => toReadRegion(r, matrices[i]!));
  // Regions the recogniser is not sure of are read again: short ones (table cells) from a taller crop and two
  // stretched ones, so their readings can vote; other values with digits (dates) from the two stretched crops.
  // Confident regions (nearly all of a printed page) skip this: it costs about a third more time.
  const unsure = (r: ReadRegion) => r.read.confidence < SURE && r.u1 - r.u0 < MAX_STRETCHED_WIDTH * (r.v1 - r.v0);
  const short = (r: ReadRegion) => r.u1 - r.u0 < 3.5 * (r.v1 - r.v0);
  const cells = read.filter((r) => unsure(r) && short(r));
  const stretchable = read.filter((r) => unsure(r) && (short(r) || /\d.*\d.*\d/.test(r.read.text)));
  const taller = await readCrops(
    cells.map((r) => {
      const h = r.v1 - r.v0;
      return { ...r, v0: r.v0 - VARIANT_GROW * h, v1: r.v1 + VARIANT_GROW * h };
    }),
  );
  const stretched = await readCrops(stretchable, STRETCH);
  const wider = await readCrops(stretchable, WIDE_STRETCH);
  stretchable.forEach((r, k) => {
    r.stretched = stretched[k]!;
    r.wide = wider[k]!;
  });
  cells.forEach((r, k) => {
    r.alternates = [taller[k]!, r.wide!];
  });
  await readMergedDates(readCrops, read);
  return { raster, frame, read };
}

/**
 * Handwritten digits PP-OCR was never trained on: the digit classifier reads the doubtful cells (those read again
 * from other crops) from their strokes, and the doubtful dates (day, month and year by the classifier, their
 * separators by shape), also those cut from their label's region. Apart from readPageText so that a bench can
 * re-read the strokes of cached pages.
 */
export async function readByStrokes(raster: Raster, frame: PageFrame, read: ReadRegion[]) {
  const cells = read.filter((r) => r.alternates || plainNumber(r));
  const byStrokes = await readDigitsByStrokes(raster, frame, cells);
  cells.forEach((r, k) => {
    r.strokes = byStrokes[k]!.strokes;
    r.splitStrokes = byStrokes[k]!.split;
  });
  const dates = read.filter((r) => r.wide && !r.alternates && dateLike(r.read.text));
  const merged = read.flatMap((r) => (r.value ? [r.value] : []));
  // A date run into the next field's label ("21/07./41sex:F"): the strokes of the date's part of the strip.
  const runOn = read.flatMap((r) => {
    const share = r.alternates || dateLike(r.read.text) ? null : dateShareOfStrip(r.matrix);
    return share === null ? [] : [{ r, crop: { ...r, u1: r.u0 + share * (r.u1 - r.u0) } }];
  });
  const datesByStrokes = await readDatesByStrokes(raster, frame, [...dates, ...merged, ...runOn.map((x) => x.crop)]);
  [...dates, ...merged, ...runOn.map((x) => x.r)].forEach((r, k) => {
    r.dateStrokes = datesByStrokes[k];
  });
  await readRecordNumbersByStrokes(raster, frame, read);
}

/**
 * A date the detector merged with its printed label ("DOB:12/11/1996") is read again from its own crop, plainly and
 * stretched twice: print and handwriting in one strip read worse than the handwriting alone (measured: dates of birth
 * 75 -> 85 % on the committed corpus). Names are not: their own crop lost the space between the words.
 */
async function readMergedDates(readCrops: ReadCrops, read: ReadRegion[]) {
  const merged = read.flatMap((r) => {
    const hit = matchLabel(r);
    if (hit?.field !== "patientDob" && hit?.field !== "examDate") return [];
    return hit.endStep < r.matrix.steps - 1 ? [{ r, endStep: hit.endStep }] : [];
  });
  const crops = merged.map(({ r, endStep }) => {
    const cut = r.u0 + (endStep / r.matrix.steps) * (r.u1 - r.u0);
    const { u1, v0, v1, score, box } = r;
    return { u0: Math.max(r.u0, cut - VALUE_MARGIN * (v1 - v0)), u1, v0, v1, score, box };
  });
  const plain = await readCrops(crops);
  const stretched = await readCrops(crops, STRETCH);
  const wide = await readCrops(crops, WIDE_STRETCH);
  merged.forEach(({ r }, k) => {
    const own = toReadRegion(crops[k]!, plain[k]!);
    r.value = { ...own, stretched: stretched[k]!, wide: wide[k]! };
  });
}
