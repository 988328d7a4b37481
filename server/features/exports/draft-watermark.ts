import sharp from "sharp";

/**
 * The DRAFT mark for Word documents: a pale, diagonal word rendered once to a transparent PNG and
 * placed behind the text (docx has no text watermark of its own that LibreOffice also shows).
 */

const cache = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function render(mark: string) {
  const width = 820;
  const height = 820;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" transform="rotate(-35 ${width / 2} ${height / 2})"
    font-family="Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="160" letter-spacing="10"
    fill="#b91c1c" fill-opacity="0.1">${escapeXml(mark)}</text>
</svg>`;
  return sharp(Buffer.from(svg))
    .png()
    .toBuffer()
    .then((data) => ({ data, width, height }));
}

export function draftWatermarkPng(mark: string) {
  let png = cache.get(mark);
  if (!png) {
    png = render(mark);
    cache.set(mark, png);
  }
  return png;
}
