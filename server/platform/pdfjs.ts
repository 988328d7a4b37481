export type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js, imported on first use: it is large and most requests never need it. The minified builds, of the library
 * and of the worker it runs in-process: under tsx (how the server runs) the full ones took 3.0-3.2 s to open a first
 * PDF, these 1.9-2.2 s, and the process held 470 MB instead of 330 MB (measured on this machine; plain Node needs
 * 0.9 s for either). A loading child that rendered a PDF is replaced, so every PDF upload pays this.
 */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (import("pdfjs-dist/legacy/build/pdf.min.mjs") as Promise<PdfJs>).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = "pdfjs-dist/legacy/build/pdf.worker.min.mjs";
    return lib;
  });
  return pdfjs;
}
