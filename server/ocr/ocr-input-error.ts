/** Why a file cannot be read as a worksheet; the upload route maps every reason to a 4xx. */
export type OcrInputReason =
  | "empty"
  | "unsupported_type"
  | "corrupt_image"
  | "corrupt_pdf"
  | "encrypted_pdf"
  | "no_pages"
  /** Over the pixel or memory budget of server/ocr/decode-budget.ts: answered 413. */
  | "too_large"
  /** Took longer than the loading time limit. */
  | "too_slow";

/** A file that is not a readable worksheet (as opposed to a failure of the OCR machinery itself). */
export class OcrInputError extends Error {
  constructor(
    readonly reason: OcrInputReason,
    message: string,
    /** The decoder's own words, for logs; the message is meant for the person who uploaded the file. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "OcrInputError";
  }
}
