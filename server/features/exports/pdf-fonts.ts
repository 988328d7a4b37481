import fs from "node:fs";
import { type Font, create as parseFont } from "fontkit";
import type { ExportFontFamily } from "../../../domain/exports/template-settings";

/**
 * Faces for the PDF. The template's families are Microsoft and Apple fonts a server does not have, so
 * the metric-compatible Liberation faces are embedded (Liberation Sans for Arial and Helvetica,
 * Liberation Serif for Times New Roman): same line breaks as the print page, and names outside
 * Latin-1 print correctly. Calibri has no metric twin installed here and falls back to Liberation
 * Sans. Without Liberation on the machine, PDF's built-in Helvetica and Times are used.
 */

/**
 * A standard PDF font's name, or a font parsed once per process: pdfkit otherwise parses the TrueType file again
 * for every document (about half of a report's rendering time). Documents share the parsed font (its tables and
 * glyph cache, read-only); each keeps its own subset.
 */
export type PdfFace = string | Font;
export type PdfFaces = { regular: PdfFace; bold: PdfFace; italic: PdfFace };

const FONT_DIRS = ["/usr/share/fonts/truetype/liberation", "/usr/share/fonts/truetype/liberation2"];

const STANDARD: Record<"sans" | "serif", PdfFaces> = {
  sans: { regular: "Helvetica", bold: "Helvetica-Bold", italic: "Helvetica-Oblique" },
  serif: { regular: "Times-Roman", bold: "Times-Bold", italic: "Times-Italic" },
};

const loaded = new Map<"sans" | "serif", PdfFaces>();

function readFace(file: string): Buffer | null {
  for (const dir of FONT_DIRS) {
    const full = `${dir}/${file}`;
    if (fs.existsSync(full)) return fs.readFileSync(full);
  }
  return null;
}

function loadFaces(kind: "sans" | "serif"): PdfFaces {
  const base = kind === "sans" ? "LiberationSans" : "LiberationSerif";
  const regular = readFace(`${base}-Regular.ttf`);
  const bold = readFace(`${base}-Bold.ttf`);
  const italic = readFace(`${base}-Italic.ttf`);
  return regular && bold && italic
    ? { regular: parseFont(regular), bold: parseFont(bold), italic: parseFont(italic) }
    : STANDARD[kind];
}

/** The faces for a template family, read from disk once per process. */
export function pdfFaces(family: ExportFontFamily): PdfFaces {
  const kind = family === "Times New Roman" ? "serif" : "sans";
  let faces = loaded.get(kind);
  if (!faces) {
    faces = loadFaces(kind);
    loaded.set(kind, faces);
  }
  return faces;
}
