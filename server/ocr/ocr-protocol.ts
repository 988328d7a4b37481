import type { OcrResult } from "../../domain/contracts/ocr";
import type { OcrInputReason } from "./ocr-input-error";

/** Messages between the server process and an OCR child process. */
export type OcrJob = { kind: "load"; file: Uint8Array } | { kind: "recognize"; pages: Uint8Array[]; now: number };
export type OcrRequest = OcrJob & { id: number };

export type OcrReply =
  | { id: number; ok: true; pages?: Uint8Array[]; result?: OcrResult }
  | { id: number; ok: false; error: { message: string; inputReason?: OcrInputReason } };
