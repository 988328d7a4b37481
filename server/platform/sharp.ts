import type Sharp from "sharp";

let sharp: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips, 26 MB resident once loaded), imported on first use: most requests never touch an image, so an
 * idle server does not hold it (issue 30, server/lazy-imports.test.ts). The OCR children load it with their first
 * page.
 */
export function loadSharp(): Promise<typeof Sharp> {
  sharp ??= import("sharp").then((module) => module.default);
  return sharp;
}
