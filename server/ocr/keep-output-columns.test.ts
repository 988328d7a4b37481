import { readFileSync } from "node:fs";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { keepOutputColumns } from "./keep-output-columns";
import { paddleAssetDir } from "./paddle-models";

const options: ort.InferenceSession.SessionOptions = { executionProviders: ["cpu"], logSeverityLevel: 3 };

describe("the recogniser handing over only the kept dictionary columns", () => {
  it("gives the very same probabilities in those columns, and only them", async () => {
    const original = readFileSync(path.join(paddleAssetDir(), "ch_PP-OCRv4_rec_infer.onnx"));
    const columns = Int32Array.from([0, 1, 7, 100, 6624, 6623, 42]);
    const [full, kept] = await Promise.all([
      ort.InferenceSession.create(original, options),
      ort.InferenceSession.create(keepOutputColumns(original, columns, 2), options),
    ]);
    const data = new Float32Array(2 * 3 * 48 * 96);
    for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.37);
    const feed = new ort.Tensor("float32", data, [2, 3, 48, 96]);
    const a = (await full.run({ [full.inputNames[0]!]: feed }))[full.outputNames[0]!]!;
    const b = (await kept.run({ [kept.inputNames[0]!]: feed }))[kept.outputNames[0]!]!;
    const [batch, steps, classes] = a.dims as number[];
    expect(b.dims).toEqual([batch, steps, columns.length]);
    const x = a.data as Float32Array;
    const y = b.data as Float32Array;
    const expected: number[] = [];
    for (let row = 0; row < batch! * steps!; row++) for (const c of columns) expected.push(x[row * classes! + c]!);
    expect(Array.from(y)).toEqual(expected);
  });
});
