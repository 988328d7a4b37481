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
