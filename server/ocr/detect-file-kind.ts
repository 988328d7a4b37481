/** The kinds of file a worksheet may arrive as, told apart by their first bytes, never by name. */
export type WorksheetFileKind = "pdf" | "png" | "jpeg" | "gif" | "webp";

const startsWith = (file: Buffer, bytes: number[], offset = 0) =>
  file.length >= offset + bytes.length && bytes.every((byte, i) => file[offset + i] === byte);

export function detectFileKind(file: Buffer): WorksheetFileKind | null {
  // PDF readers accept a header anywhere in the first 1 KB, so scan that rather than only offset 0.
  if (file.subarray(0, 1024).includes("%PDF-")) return "pdf";
  if (startsWith(file, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(file, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(file, [0x47, 0x49, 0x46, 0x38])) return "gif";
  if (startsWith(file, [0x52, 0x49, 0x46, 0x46]) && startsWith(file, [0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}
