import { expect } from "vitest";
import { type OcrHeaderFieldName, type OcrResult, ocrHeaderFieldNames } from "../../../domain/contracts/ocr";
import { squash } from "../worksheet-vocabulary";

/** A name's words, lower case and sorted: "LEWIS, Ashley R." and "Ashley R. Lewis" are the same name. */
export const nameTokens = (name: string | null) =>
  (name ?? "")
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .sort()
    .join(" ");

/**
 * Every header field of a reading against a generator's `header` truth: absent from the sheet, never emitted;
 * present, the same letters and digits as written. `excused` may let a field be left empty (not wrong).
 */
export function expectHeaderAsTruth(
  result: OcrResult,
  header: Record<OcrHeaderFieldName, string | null>,
  excused: (key: OcrHeaderFieldName) => boolean = () => false,
) {
  for (const key of ocrHeaderFieldNames) {
    const read = result.fields[key].value;
    if (read === null && excused(key)) continue;
    const expected = header[key];
    expect({ key, read: read === null ? null : squash(read) }).toEqual({
      key,
      read: expected === null ? null : squash(expected),
    });
  }
}
