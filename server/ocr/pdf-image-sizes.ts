/**
 * The declared size of every image stream in a PDF, read from the raw bytes without decoding anything. A stream
 * can never sit inside an object stream, so every image dictionary (soft masks and masks included, which pdf.js's
 * own `maxImageSize` does not check) is in the clear, even in an encrypted file. A size given as an indirect
 * object that cannot be found this way is skipped: the loader's memory and time limits still stand behind it.
 */
export function pdfImageSizes(file: Buffer): Array<{ width: number; height: number }> {
  const text = file.toString("latin1");
  const sizes: Array<{ width: number; height: number }> = [];
  for (const match of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    const start = text.lastIndexOf(" obj", match.index);
    const end = text.indexOf("stream", match.index);
    if (start < 0 || end < 0) continue;
    const dict = text.slice(start, end);
    const width = dimension(text, dict, "Width");
    const height = dimension(text, dict, "Height");
    if (width !== null && height !== null) sizes.push({ width, height });
  }
  return sizes;
}

function dimension(text: string, dict: string, key: string): number | null {
  const direct = dict.match(new RegExp(`/${key}\\s+(\\d+)(\\s+(\\d+)\\s+R\\b)?`));
  if (!direct) return null;
  if (!direct[2]) return Number(direct[1]);
  const target = text.match(new RegExp(`(?:^|\\s)${direct[1]}\\s+${direct[3]}\\s+obj\\s*(\\d+)\\s*endobj`));
  return target ? Number(target[1]) : null;
}
