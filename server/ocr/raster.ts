import sharp from "sharp";

/** An RGB image in memory, 3 bytes per pixel, row by row. */
export type Raster = { width: number; height: number; data: Uint8Array };

export async function decodeRaster(image: Buffer): Promise<Raster> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Bilinear sample of one channel at a fractional position; outside the image reads as white paper. */
export function sample(r: Raster, x: number, y: number, channel: number): number {
  if (x < 0 || y < 0 || x > r.width - 1 || y > r.height - 1) return 255;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, r.width - 1);
  const y1 = Math.min(y0 + 1, r.height - 1);
  const fx = x - x0;
  const fy = y - y0;
  const at = (px: number, py: number) => r.data[(py * r.width + px) * 3 + channel]!;
  const top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx;
  const bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx;
  return top * (1 - fy) + bottom * fy;
}
