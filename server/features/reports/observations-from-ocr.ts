import type { OcrResult } from "../../../domain/contracts/ocr";
import { type Observation, observationSchema } from "../../../domain/contracts/study";

/**
 * The OCR's observations (a plaque's character read from the sheet's check boxes) that are in the engine's
 * vocabulary; a code outside it is left out, never guessed. Shared by report generation and the CLI.
 */
export function observationsFromOcr(ocr: Pick<OcrResult, "observations"> | null): Observation[] {
  return (ocr?.observations ?? []).flatMap((o) => {
    const parsed = observationSchema.safeParse({ site: o.site, side: o.side, finding: o.finding });
    return parsed.success ? [parsed.data] : [];
  });
}
