/** Serialises a GraphBuilder to ONNX protobuf bytes (deterministic: no timestamps, stable order). */
import onnxProto from 'onnx-proto';
import type { AttributeValue, GraphBuilder, TensorInfo } from './builder.ts';
import { ONNX_DTYPE_CODE, toHalfBits } from './dtype.ts';
import { lowerMatrixProduct } from './einsum-lowering.ts';
import { OPSET } from './ops.ts';

const { onnx } = onnxProto;

/** ONNX IR version written into every model (ONNX 1.10; ORT 1.30 accepts ≤ 13). */
export const IR_VERSION = 8;

function valueInfo(name: string, info: TensorInfo): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: ONNX_DTYPE_CODE[info.dtype],
        shape: { dim: info.shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function attribute(name: string, value: AttributeValue): onnxProto.onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  if ('int' in value) return { name, type: T.INT, i: value.int };
  if ('float' in value) return { name, type: T.FLOAT, f: value.float };
  if ('string' in value) return { name, type: T.STRING, s: new TextEncoder().encode(value.string) };
  return { name, type: T.INTS, ints: [...value.ints] };
}

function rawBytes(info: TensorInfo, values: ArrayLike<number>): Uint8Array {
  switch (info.dtype) {
    case 'float32':
      return new Uint8Array(Float32Array.from(values).buffer);
    case 'float64':
      return new Uint8Array(Float64Array.from(values).buffer);
    case 'float16':
      return new Uint8Array(Uint16Array.from(values, toHalfBits).buffer);
    case 'int64':
      return new Uint8Array(BigInt64Array.from(values, (v) => BigInt(v)).buffer);
    case 'int8':
      return new Uint8Array(Int8Array.from(values).buffer);
    case 'bool':
      return Uint8Array.from(values, (v) => (v ? 1 : 0));
  }
}

/** Encodes the graph as an ONNX model (opset 17), matrix products as Einsum (see einsum-lowering.ts). */
export function serializeModel(b: GraphBuilder, docString = ''): Uint8Array {
  const graph: onnxProto.onnx.IGraphProto = {
    name: b.name,
    docString,
    node: b.nodes
      .map((node) => lowerMatrixProduct(b, node))
      .map((n) => ({
        name: n.name,
        opType: n.opType,
        input: [...n.inputs],
        output: [...n.outputs],
        attribute: Object.entries(n.attributes).map(([k, v]) => attribute(k, v)),
      })),
    initializer: [...b.constants.values()].map((c) => ({
      name: c.name,
      dataType: ONNX_DTYPE_CODE[c.info.dtype],
      dims: c.info.shape.map((d) => (typeof d === 'number' ? d : 0)),
      rawData: rawBytes(c.info, c.values),
    })),
    input: b.inputs.map((name) => valueInfo(name, b.info(name))),
    output: b.outputs.map((name) => valueInfo(name, b.info(name))),
  };
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    producerName: 'gpu-memory-lab',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: OPSET }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}
