import onnxProto from "onnx-proto";

const { onnx } = onnxProto;

/** This module's source: cached graphs made with it are made again when it changes (paddle-models.ts). */
export const KEEP_COLUMNS_MODULE = import.meta.url;

/**
 * Ends a model's graph with a Gather of some columns of its one output's last axis (axis `axis`), so onnxruntime
 * hands over only those. The recogniser's softmax is still over its whole dictionary (6,625 classes, CJK included);
 * the worksheets use about 100 of them, and copying out all of them was 110 MB a photo page, every byte read once
 * and thrown away. A Gather copies values, so the kept probabilities are the very same floats.
 */
export function keepOutputColumns(model: Uint8Array, columns: Int32Array, axis: number): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const outputs = decoded.graph?.output ?? [];
  const output = outputs[0];
  if (!decoded.graph || outputs.length !== 1 || !output?.name)
    throw new Error("expected an ONNX model with one output");
  // Decoded messages are class instances with every repeated field present.
  const nodes = decoded.graph.node as onnxProto.onnx.INodeProto[];
  const full = output.name;
  const indices = `${full}.kept_columns`;
  const kept = `${full}.kept`;
  nodes.push(
    onnx.NodeProto.create({
      opType: "Constant",
      output: [indices],
      attribute: [
        onnx.AttributeProto.create({
          name: "value",
          type: onnx.AttributeProto.AttributeType.TENSOR,
          t: onnx.TensorProto.create({
            dims: [columns.length],
            dataType: onnx.TensorProto.DataType.INT64,
            int64Data: Array.from(columns),
          }),
        }),
      ],
    }),
    onnx.NodeProto.create({
      opType: "Gather",
      input: [full, indices],
      output: [kept],
      attribute: [onnx.AttributeProto.create({ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: axis })],
    }),
  );
  const dims = output.type?.tensorType?.shape?.dim;
  if (dims?.[axis]) dims[axis] = onnx.TensorShapeProto.Dimension.create({ dimValue: columns.length });
  output.name = kept;
  return onnx.ModelProto.encode(decoded).finish();
}
