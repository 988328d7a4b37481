import type { DocumentImage } from "../../../domain/exports/report-document";
import { loadSharp } from "../../platform/sharp";

/**
 * Logos and signatures as every renderer can draw them: PDF and DOCX take PNG or JPEG, so other types
 * (WebP, GIF, SVG) are re-encoded, and very large uploads are scaled down so a letterhead does not
 * carry a camera-sized image into every export. Results are cached by content hash: the same logo is
 * on every report of a clinic, and a re-upload changes the hash.
 */

const MAX_SIDE = 1200;
const CACHE_LIMIT = 64;
const cache = new Map<string, DocumentImage | null>();

async function prepare(data: Buffer): Promise<DocumentImage | null> {
  try {
    const image = (await loadSharp())(data, { limitInputPixels: 40_000_000 });
    const meta = await image.metadata();
    const keepJpeg = meta.format === "jpeg";
    const out = await image
      .rotate()
      .resize(MAX_SIDE, MAX_SIDE, { fit: "inside", withoutEnlargement: true })
      [keepJpeg ? "jpeg" : "png"](keepJpeg ? { quality: 88 } : { compressionLevel: 6 })
      .toBuffer({ resolveWithObject: true });
    return {
      mimeType: keepJpeg ? "image/jpeg" : "image/png",
      data: new Uint8Array(out.data),
      width: out.info.width,
      height: out.info.height,
    };
  } catch {
    // An image that cannot be decoded is left out of the document rather than failing the export.
    return null;
  }
}

/** The prepared image of a content hash when this process has it (null: it could not be decoded), else undefined. */
export function cachedDocumentImage(sha256: string): DocumentImage | null | undefined {
  return cache.get(sha256);
}

export async function prepareDocumentImage(data: Buffer, sha256: string): Promise<DocumentImage | null> {
  const hit = cache.get(sha256);
  if (hit !== undefined) return hit;
  const prepared = await prepare(data);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(sha256, prepared);
  return prepared;
}
