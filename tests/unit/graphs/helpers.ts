/** Test helpers: run built graphs with onnxruntime-web's WASM backend in Node. */
import * as ort from 'onnxruntime-web';
import type { GraphBuilder } from '../../../src/graphs/builder.ts';
import type { DType } from '../../../src/graphs/dtype.ts';
import { fromHalfBits, toHalfBits } from '../../../src/graphs/dtype.ts';
import { resolveShape } from '../../../src/graphs/shape.ts';
import { serializeModel } from '../../../src/graphs/serialize.ts';

ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';

/** Plain numbers or bigints for any input. */
export type Values = Float64Array | Float32Array | BigInt64Array | number[];

/** Sizes of symbolic dims. */
export type Dims = Readonly<Record<string, number>>;

function toTensor(dtype: DType, values: Values, dims: number[]): ort.Tensor {
  switch (dtype) {
    case 'float32':
      return new ort.Tensor('float32', Float32Array.from(values as ArrayLike<number>), dims);
    case 'float64':
      return new ort.Tensor('float64', Float64Array.from(values as ArrayLike<number>), dims);
    case 'float16':
      return new ort.Tensor('float16', Uint16Array.from(values as ArrayLike<number>, toHalfBits), dims);
    case 'int64':
      return new ort.Tensor(
        'int64',
        values instanceof BigInt64Array ? values : BigInt64Array.from(values as ArrayLike<number>, (v) => BigInt(v)),
        dims,
      );
    case 'int8':
      return new ort.Tensor('int8', Int8Array.from(values as ArrayLike<number>), dims);
    case 'bool':
      return new ort.Tensor('bool', Uint8Array.from(values as ArrayLike<number>), dims);
  }
}

/** Outputs as float64 arrays plus their ORT element type. */
export interface RunResult {
  readonly values: Record<string, Float64Array>;
  readonly types: Record<string, string>;
}

/** Runs one model; feeds are plain arrays keyed by input name (extra feeds are ignored). */
export type Runner = (feeds: Readonly<Record<string, Values>>) => Promise<RunResult>;

/** A graph input as the runner needs it. */
export interface InputSpec {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: readonly (number | string)[];
}

/** A session over serialised model bytes. */
export async function createBytesRunner(
  bytes: Uint8Array,
  inputs: readonly InputSpec[],
  dims: Dims,
  options: ort.InferenceSession.SessionOptions = {},
): Promise<Runner> {
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], ...options });
  return async (feeds) => {
    const tensors: Record<string, ort.Tensor> = {};
    for (const { name, dtype, shape } of inputs) {
      const value = feeds[name];
      if (value === undefined) throw new Error(`missing feed ${name}`);
      tensors[name] = toTensor(dtype, value, resolveShape(shape, dims));
    }
    const out = await session.run(tensors);
    const values: Record<string, Float64Array> = {};
    const types: Record<string, string> = {};
    for (const [name, t] of Object.entries(out)) {
      types[name] = t.type;
      const data = t.data;
      // ORT returns fp16 data as Float16Array where the JS engine has it, else as raw bits.
      values[name] =
        data instanceof Uint16Array
          ? Float64Array.from(data, fromHalfBits)
          : data instanceof BigInt64Array
            ? Float64Array.from(data, Number)
            : Float64Array.from(data as ArrayLike<number>);
    }
    return { values, types };
  };
}

/** A session over a built graph. */
export async function createRunner(
  b: GraphBuilder,
  dims: Dims,
  options: ort.InferenceSession.SessionOptions = {},
): Promise<Runner> {
  const inputs = b.inputs.map((name) => ({ name, ...b.info(name) }));
  return createBytesRunner(serializeModel(b), inputs, dims, options);
}

/** Largest |a − b| / max(|b|, floor) over elements. */
export function maxRelativeError(a: ArrayLike<number>, b: ArrayLike<number>, floor = 1e-6): number {
  let worst = 0;
  for (let i = 0; i < b.length; i++) {
    const x = a[i] ?? NaN;
    const y = b[i] ?? NaN;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(y), floor));
  }
  return worst;
}

/**
 * ‖a − b‖ / max(‖b‖, floor): robust for tensors with many near-zero entries. The floor keeps
 * gradients that are zero in exact arithmetic (e.g. the attention key bias, which a softmax
 * ignores) from turning fp32 round-off into a huge relative error.
 */
export function normRelativeError(a: ArrayLike<number>, b: ArrayLike<number>, floor = 1e-4): number {
  let diff = 0;
  let norm = 0;
  for (let i = 0; i < b.length; i++) {
    const d = (a[i] ?? NaN) - (b[i] ?? NaN);
    diff += d * d;
    norm += (b[i] ?? 0) ** 2;
  }
  return Math.sqrt(diff) / Math.max(Math.sqrt(norm), floor);
}
