import { decodeRaster } from "../raster";
import { recognizePage } from "../recognize-page";
import { findRules } from "./form-rules";
import { type FormLayout, proposeZones } from "./propose-zones";

/** Reads a clinic's blank form and proposes its reading zones; runs inside the OCR worker. */
export async function analyzeForm(image: Buffer): Promise<FormLayout> {
  const regions = await recognizePage(image, 0);
  const raster = await decodeRaster(image);
  return proposeZones(
    regions.map((r) => ({ text: r.read.text, box: r.box })),
    findRules(raster),
    { width: raster.width, height: raster.height },
  );
}
