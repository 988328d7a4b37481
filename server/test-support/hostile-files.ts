import zlib from "node:zlib";

/**
 * Decompression bombs for tests and bench/hostile-files.ts: small files that declare gigapixels. Built without
 * ever holding the decoded bytes: one sync-flushed deflate segment of zeros is repeated (a segment ends on a byte
 * boundary and only refers back to zeros, so copies decode one after another), then closed with a final block.
 */
const SEGMENT_BYTES = 1024 * 1024;

/** A zlib stream (RFC 1950) that inflates to `size` zero bytes, about 1 KB per MB. */
export function zerosZlib(size: number): Buffer {
  const segment = zlib.deflateRawSync(Buffer.alloc(SEGMENT_BYTES), {
    level: 9,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let i = 0; i < Math.floor(size / SEGMENT_BYTES); i++) parts.push(segment);
  parts.push(zlib.deflateRawSync(Buffer.alloc(size % SEGMENT_BYTES), { level: 9 }));
  // Adler-32 of n zeros: a stays 1 and b gains 1 per byte.
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0);
  parts.push(trailer);
  return Buffer.concat(parts);
}

/**
 * A one-page PDF drawing a single grey Flate image of the given size (30000x30000 is 0.85 MB). With `softMask`
 * the page draws a 10x10 image whose soft mask is the huge one (pdf.js's own `maxImageSize` does not see masks);
 * with `indirectSize` the huge image's width and height are indirect objects.
 */
export function hugeImagePdf(
  width: number,
  height: number,
  options: { softMask?: boolean; indirectSize?: boolean } = {},
): Buffer {
  const data = zerosZlib(width * height);
  const content = Buffer.from("q 612 0 0 792 0 0 cm /Im1 Do Q\n");
  const size = options.indirectSize ? "/Width 7 0 R /Height 8 0 R" : `/Width ${width} /Height ${height}`;
  const grey = "/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode";
  const huge = stream(`/Type /XObject /Subtype /Image ${size} ${grey}`, data);
  const objects: Buffer[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
    ),
    options.softMask
      ? stream(`/Type /XObject /Subtype /Image /Width 10 /Height 10 ${grey} /SMask 6 0 R`, zerosZlib(100))
      : huge,
    stream("", content),
    options.softMask ? huge : Buffer.from("null"),
    Buffer.from(String(width)),
    Buffer.from(String(height)),
  ];
  return assemblePdf(objects);
}

function stream(dict: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from("\nendstream"),
  ]);
}

function assemblePdf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(obj);
    offset += obj.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(offset),
    "%%EOF",
    "",
  ].join("\n");
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/** A greyscale PNG of the given size, every pixel black: 30000x30000 is under 1 MB and 900 MB decoded. */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, adaptive filtering, no interlace
  // Every row is a filter byte (0, none) and `width` zero samples: all zeros.
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zerosZlib((width + 1) * height)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(type)) >>> 0);
  return Buffer.concat([head, data, crc]);
}
