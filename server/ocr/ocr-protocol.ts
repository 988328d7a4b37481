import type { OcrResult } from "../../domain/contracts/ocr";
import type { LabelAlias } from "./field-labels";
import type { OcrInputReason } from "./ocr-input-error";
import type { ReadingTemplate } from "./templates/match-form";
import type { FormLayout } from "./templates/propose-zones";

/** Messages between the server process and an OCR child process. */
export type OcrJob =
  /** A worksheet (or worksheet template) file to page images; `maxPages` renders only the first pages of a PDF. */
  | { kind: "load"; file: Uint8Array; maxPages?: number }
  /** A logo or signature to a PNG fitting the box. */
  | { kind: "fit-image"; file: Uint8Array; box: { width: number; height: number } }
  /** A report document (PDF, DOCX) to its text. */
  | { kind: "document-text"; file: Uint8Array; mimeType: string }
  /** `aliases`: the clinic's own label wordings, learnt from its corrections. */
  | { kind: "recognize"; pages: Uint8Array[]; now: number; templates?: ReadingTemplate[]; aliases?: LabelAlias[] }
  | { kind: "analyze-form"; page: Uint8Array };
export type OcrRequest = OcrJob & { id: number };

/**
 * Sent by the loading child after each PDF page it rendered ("page": the time limit is per page), and by the
 * reading child after each page it read ("read": progress only, the job's time limit stays whole).
 */
export type OcrProgress = { id: number; progress: "page" | "read" };

/** Every reply says how much memory the child holds (`rss`, bytes), so the parent can recycle a grown child. */
export type OcrReply = { id: number; rss: number } & (
  | {
      ok: true;
      pages?: Uint8Array[];
      image?: Uint8Array;
      text?: string | null;
      result?: OcrResult;
      layout?: FormLayout;
    }
  | { ok: false; error: { message: string; inputReason?: OcrInputReason } }
);
