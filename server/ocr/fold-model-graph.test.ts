import { readFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { foldModelGraph } from "./fold-model-graph";
import { paddleAssetDir } from "./paddle-models";

const options: ort.InferenceSession.SessionOptions = { executionProviders: ["cpu"], logSeverityLevel: 3 };

/** A fixed pseudo-random input in the models' normalised range [-1, 1]. */
function input(dims: number[]): ort.Tensor {
  const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    data[i] = (seed / 2 ** 31) * 2 - 1;
  }
  return new ort.Tensor("float32", data, dims);
}

async function largestDifference(file: string, dims: number[]) {
  const original = readFileSync(path.join(paddleAssetDir(), file));
  const { model, counts } = foldModelGraph(original);
  const [before, after] = await Promise.all([
    ort.InferenceSession.create(original, options),
    ort.InferenceSession.create(model, options),
  ]);
  const feed = input(dims);
  const a = (await before.run({ [before.inputNames[0]!]: feed }))[before.outputNames[0]!]!;
  const b = (await after.run({ [after.inputNames[0]!]: feed }))[after.outputNames[0]!]!;
  expect(b.dims).toEqual(a.dims);
  const x = a.data as Float32Array;
  const y = b.data as Float32Array;
  let largest = 0;
  for (let i = 0; i < x.length; i++) largest = Math.max(largest, Math.abs(x[i]! - y[i]!));
  return { counts, largest };
}

describe("folding PP-OCRv4's elementwise block tails into convolutions", () => {
  it("leaves the recogniser's character probabilities as they were", async () => {
    const { counts, largest } = await largestDifference("ch_PP-OCRv4_rec_infer.onnx", [2, 3, 48, 160]);
    // Every one of the 28 blocks is folded; 13 padded depthwise convolutions keep their shift as an Add.
    expect(counts).toEqual({ affineIntoConv: 28, hardswish: 28, affineIntoNextConv: 25 });
    expect(largest).toBeLessThan(1e-4);
  });

  it("leaves the detector's text probability map as it was", async () => {
    const { counts, largest } = await largestDifference("ch_PP-OCRv4_det_infer.onnx", [1, 3, 128, 96]);
    expect(counts).toEqual({ affineIntoConv: 28, hardswish: 24, affineIntoNextConv: 20 });
    expect(largest).toBeLessThan(1e-4);
  });
});
