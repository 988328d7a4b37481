import onnxProto from "onnx-proto";

const { onnx } = onnxProto;
type Node = onnxProto.onnx.NodeProto;
type Tensor = onnxProto.onnx.ITensorProto;

/** How many of each pattern were folded: a model whose export changes shape folds none, and says so. */
/** This module's source: folded graphs cached on disk are made again when it changes (paddle-models.ts). */
export const FOLD_MODULE = import.meta.url;

export type FoldCounts = { affineIntoConv: number; hardswish: number; affineIntoNextConv: number };

/**
 * Folds the elementwise tails of PP-OCRv4's convolution blocks into the graph's convolutions before onnxruntime
 * sees it. paddle2onnx exports every PPLCNetV3 block as Conv, Mul(a), Add(b), hardswish as Add, Clip, Mul, Div,
 * then Mul(c), Add(d): eight passes over memory per convolution that onnxruntime does not fuse, and half of the
 * recogniser's time. Here the scale and shift before the activation go into the convolution's weights and bias,
 * hardswish becomes x * HardSigmoid(x) (an operator since opset 6), and the scale and shift after it go into the
 * next convolution. The arithmetic is the same up to float rounding.
 */
export function foldModelGraph(model: Uint8Array): { model: Uint8Array; counts: FoldCounts } {
  const decoded = onnx.ModelProto.decode(model);
  if (!decoded.graph) throw new Error("ONNX model without a graph");
  const editor = new GraphEditor(decoded.graph);
  const counts = {
    affineIntoConv: editor.foldAffineIntoConv(),
    hardswish: editor.fuseHardswish(),
    affineIntoNextConv: editor.foldAffineIntoNextConv(),
  };
  decoded.graph.node = editor.withoutUnusedConstants();
  return { model: onnx.ModelProto.encode(decoded).finish(), counts };
}

type ConvParameters = { weights: Float32Array; bias: Float32Array; outChannels: number };

class GraphEditor {
  private readonly constants = new Map<string, Tensor>();
  private readonly graphOutputs: Set<string>;
  private consumers = new Map<string, Node[]>();
  private nodes: Node[];
  private created = 0;

  constructor(graph: onnxProto.onnx.IGraphProto) {
    // Decoded messages are class instances with every repeated field present.
    this.nodes = (graph.node ?? []) as Node[];
    for (const node of this.nodes) {
      const value = node.attribute[0]?.t;
      if (node.opType === "Constant" && value) this.constants.set(node.output[0]!, value);
    }
    this.graphOutputs = new Set((graph.output ?? []).map((o) => o.name ?? ""));
    this.indexConsumers();
  }

  /** Conv -> Mul(a) [-> Add(b)]: weights times a, bias times a plus b. */
  foldAffineIntoConv(): number {
    let folded = 0;
    for (const conv of this.nodesOf("Conv")) {
      const mul = this.soleConsumer(conv.output[0]!);
      const scale = mul?.opType === "Mul" ? this.scalarOperand(mul) : undefined;
      const params = this.ownParameters(conv);
      if (!mul || !scale || !params) continue;
      const add = this.soleConsumer(mul.output[0]!);
      const shift = add?.opType === "Add" ? this.scalarOperand(add) : undefined;
      const a = scale.value;
      const b = shift?.value ?? 0;
      params.weights.forEach((w, i) => {
        params.weights[i] = w * a;
      });
      params.bias.forEach((v, i) => {
        params.bias[i] = v * a + b;
      });
      this.writeParameters(conv, params);
      const last = shift && add ? add : mul;
      conv.output[0] = last.output[0]!;
      this.remove(shift && add ? [mul, add] : [mul]);
      folded++;
    }
    return folded;
  }

  /** Add(x, 3) -> Clip(0, 6) -> Mul(x, .) -> Div(6) becomes Mul(x, HardSigmoid(x; 1/6, 1/2)). */
  fuseHardswish(): number {
    let fused = 0;
    for (const add of this.nodesOf("Add")) {
      const three = this.scalarOperand(add);
      if (three?.value !== 3) continue;
      const x = three.other;
      const clip = this.soleConsumer(add.output[0]!);
      if (clip?.opType !== "Clip" || !this.clipsTo(clip, 0, 6)) continue;
      const mul = this.soleConsumer(clip.output[0]!);
      if (mul?.opType !== "Mul" || !mul.input.includes(x)) continue;
      const div = this.soleConsumer(mul.output[0]!);
      if (div?.opType !== "Div" || this.scalar(div.input[1]!) !== 6) continue;
      add.opType = "HardSigmoid";
      add.input = [x];
      add.attribute = [
        onnx.AttributeProto.create({ name: "alpha", type: onnx.AttributeProto.AttributeType.FLOAT, f: 1 / 6 }),
        onnx.AttributeProto.create({ name: "beta", type: onnx.AttributeProto.AttributeType.FLOAT, f: 0.5 }),
      ];
      mul.input = [x, add.output[0]!];
      mul.output = [div.output[0]!];
      this.remove([clip, div]);
      fused++;
    }
    return fused;
  }

  /**
   * Mul(c) -> Add(d) -> Conv: weights times c. The shift d goes into the bias only for an unpadded convolution
   * (a padded one would add it to the zero border too); otherwise Add(d / c) stays before the convolution.
   */
  foldAffineIntoNextConv(): number {
    let folded = 0;
    for (const mul of this.nodesOf("Mul")) {
      const scale = this.scalarOperand(mul);
      const add = this.soleConsumer(mul.output[0]!);
      const shift = add?.opType === "Add" ? this.scalarOperand(add) : undefined;
      const conv = add && this.soleConsumer(add.output[0]!);
      if (!scale || scale.value === 0 || !add || !shift || conv?.opType !== "Conv") continue;
      const params = conv.input[0] === add.output[0] ? this.ownParameters(conv) : undefined;
      if (!params) continue;
      const c = scale.value;
      const d = shift.value;
      const padded = this.isPadded(conv);
      if (!padded) {
        const perChannel = params.weights.length / params.outChannels;
        for (let o = 0; o < params.outChannels; o++) {
          let sum = 0;
          for (let k = 0; k < perChannel; k++) sum += params.weights[o * perChannel + k]!;
          params.bias[o] = params.bias[o]! + d * sum;
        }
      }
      params.weights.forEach((w, i) => {
        params.weights[i] = w * c;
      });
      this.writeParameters(conv, params);
      if (padded && d !== 0) {
        add.input = [scale.other, this.createConstant(Float32Array.of(d / c), [1])];
        this.remove([mul]);
      } else {
        conv.input[0] = scale.other;
        this.remove([mul, add]);
      }
      folded++;
    }
    return folded;
  }

  withoutUnusedConstants(): Node[] {
    return this.nodes.filter(
      (n) => n.opType !== "Constant" || this.consumers.has(n.output[0]!) || this.graphOutputs.has(n.output[0]!),
    );
  }

  private nodesOf(opType: string): Node[] {
    return this.nodes.filter((n) => n.opType === opType);
  }

  private indexConsumers() {
    this.consumers = new Map();
    for (const node of this.nodes) {
      for (const input of node.input) this.consumers.set(input, [...(this.consumers.get(input) ?? []), node]);
    }
  }

  private remove(nodes: Node[]) {
    const gone = new Set(nodes);
    this.nodes = this.nodes.filter((n) => !gone.has(n));
    this.indexConsumers();
  }

  /** The one node reading `name`, if nothing else (another node or the graph's output) reads it. */
  private soleConsumer(name: string): Node | undefined {
    const readers = this.consumers.get(name) ?? [];
    return readers.length === 1 && !this.graphOutputs.has(name) ? readers[0] : undefined;
  }

  private floats(name: string): Float32Array | undefined {
    const tensor = this.constants.get(name);
    if (tensor?.dataType !== onnx.TensorProto.DataType.FLOAT) return undefined;
    // Copied: a decoded rawData is a view into the model buffer, possibly unaligned.
    if (tensor.rawData?.length) return new Float32Array(Uint8Array.from(tensor.rawData).buffer);
    return Float32Array.from(tensor.floatData ?? []);
  }

  private scalar(name: string): number | undefined {
    const values = this.floats(name);
    return values?.length === 1 ? values[0] : undefined;
  }

  /** For a binary node with one scalar constant operand: that constant and the other operand. */
  private scalarOperand(node: Node): { value: number; other: string } | undefined {
    const [first, second] = node.input as [string, string];
    const a = this.scalar(first);
    const b = this.scalar(second);
    if (a !== undefined && b === undefined) return { value: a, other: second };
    if (b !== undefined && a === undefined) return { value: b, other: first };
    return undefined;
  }

  private clipsTo(clip: Node, min: number, max: number): boolean {
    // Before opset 11 the bounds are attributes, from 11 on they are inputs.
    const attribute = (name: string) => clip.attribute.find((a) => a.name === name)?.f;
    const lower = clip.input[1] ? this.scalar(clip.input[1]) : attribute("min");
    const upper = clip.input[2] ? this.scalar(clip.input[2]) : attribute("max");
    return lower === min && upper === max;
  }

  private isPadded(conv: Node): boolean {
    const autoPad = conv.attribute.find((a) => a.name === "auto_pad")?.s;
    if (autoPad?.length && new TextDecoder().decode(autoPad) !== "NOTSET") return true;
    return (conv.attribute.find((a) => a.name === "pads")?.ints ?? []).some((p) => Number(p) !== 0);
  }

  /** The convolution's weights and bias, if they are constants no other node reads (so they can be rewritten). */
  private ownParameters(conv: Node): ConvParameters | undefined {
    const [, weightName, biasName] = conv.input;
    const weights = weightName ? this.floats(weightName) : undefined;
    const dims = weightName ? this.constants.get(weightName)?.dims : undefined;
    const owned = (name: string) => this.consumers.get(name)?.length === 1;
    if (!weights || !dims?.length || !owned(weightName!)) return undefined;
    const outChannels = Number(dims[0]);
    if (!biasName) return { weights, bias: new Float32Array(outChannels), outChannels };
    const bias = this.floats(biasName);
    return bias && owned(biasName) ? { weights, bias, outChannels } : undefined;
  }

  private writeParameters(conv: Node, { weights, bias, outChannels }: ConvParameters) {
    this.writeFloats(conv.input[1]!, weights);
    if (conv.input[2]) this.writeFloats(conv.input[2], bias);
    else {
      conv.input.push(this.createConstant(bias, [outChannels]));
      this.indexConsumers();
    }
  }

  private writeFloats(name: string, values: Float32Array) {
    const tensor = this.constants.get(name)!;
    tensor.rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    tensor.floatData = [];
  }

  private createConstant(values: Float32Array, dims: number[]): string {
    const name = `folded_constant_${this.created++}`;
    const value = onnx.TensorProto.create({
      dataType: onnx.TensorProto.DataType.FLOAT,
      dims,
      rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    });
    const attribute = onnx.AttributeProto.create({
      name: "value",
      type: onnx.AttributeProto.AttributeType.TENSOR,
      t: value,
    });
    // Constants go first, so they come before any reader in the graph's topological order.
    this.nodes.unshift(onnx.NodeProto.create({ opType: "Constant", output: [name], attribute: [attribute] }));
    this.constants.set(name, value);
    return name;
  }
}
