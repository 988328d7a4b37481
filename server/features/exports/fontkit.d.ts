// fontkit (pdfkit's own font parser, installed with it) ships no types: the one call this project makes.
declare module "fontkit" {
  /** A parsed font; pdfkit's registerFont accepts it as it is (anything with a `layout` method). */
  export type Font = { layout(text: string): unknown };
  export function create(buffer: Uint8Array): Font;
}
