/**
 * A small in-memory graph builder: named tensors with dtype and (partly symbolic) shape,
 * nodes in emission order, graph inputs/outputs and small constants. Serialisation to ONNX
 * lives in serialize.ts so this file stays free of protobuf details.
 *
 * Every node is also appended to a *tape* (unless emitted inside a composite), which the
 * hand-rolled reverse-mode autodiff in autodiff.ts walks backwards.
 */
import type { DType } from './dtype.ts';

/** One dimension: a fixed size, or a symbolic name such as `"batch"` (dynamic at run time). */
export type Dim = number | string;

/** Static description of a tensor. */
export interface TensorInfo {
  /** Element type. */
  readonly dtype: DType;
  /** Dimensions; strings are symbolic (dynamic) sizes. */
  readonly shape: readonly Dim[];
}

/** An ONNX attribute value. */
export type AttributeValue =
  { readonly int: number } | { readonly float: number } | { readonly ints: readonly number[] } | { readonly string: string };

/** One ONNX node. */
export interface NodeRecord {
  readonly opType: string;
  readonly name: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

/** The node's integer attribute `key`, or `fallback` where it is absent (ONNX attribute defaults). */
export function intAttribute(node: NodeRecord, key: string, fallback: number): number {
  const value = node.attributes[key];
  return value !== undefined && 'int' in value ? value.int : fallback;
}

/** Emits the gradient of a composite's inputs given its outputs' gradients. */
export type CompositeBackward = (
  b: GraphBuilder,
  outputGrads: readonly (string | undefined)[],
  needsGrad: readonly boolean[],
) => (string | undefined)[];

/** One differentiable step: a single node, or a composite with a hand-written gradient. */
export type TapeEntry =
  | { readonly kind: 'node'; readonly node: NodeRecord }
  | {
      readonly kind: 'composite';
      readonly inputs: readonly string[];
      readonly outputs: readonly string[];
      readonly backward: CompositeBackward;
    };

/** A constant tensor stored in the model: shapes, axes, scalars, masks, or frozen weights. */
export interface ConstantRecord {
  readonly name: string;
  readonly info: TensorInfo;
  readonly values: ArrayLike<number>;
}

/** Builds one graph. Names are deterministic: same calls, same names. */
export class GraphBuilder {
  /** Every tensor the graph knows, by name. */
  readonly tensors = new Map<string, TensorInfo>();
  /** Nodes in emission (topological) order. */
  nodes: NodeRecord[] = [];
  /** Differentiable steps in emission order. */
  tape: TapeEntry[] = [];
  /** Graph inputs, in declaration order. */
  readonly inputs: string[] = [];
  /** Graph outputs, in declaration order. */
  readonly outputs: string[] = [];
  /** Constants by name. */
  readonly constants = new Map<string, ConstantRecord>();

  private readonly scopes: string[] = [];
  private readonly counters = new Map<string, number>();
  private compositeDepth = 0;

  constructor(readonly name: string) {}

  /** Runs `body` with names prefixed by `scope/` (nested scopes join with `/`). */
  scoped<T>(scope: string, body: () => T): T {
    this.scopes.push(scope);
    try {
      return body();
    } finally {
      this.scopes.pop();
    }
  }

  /** A fresh tensor name in the current scope: `scope/base_n`. */
  freshName(base: string): string {
    const prefix = this.scopes.length > 0 ? `${this.scopes.join('/')}/` : '';
    const key = prefix + base;
    const n = this.counters.get(key) ?? 0;
    this.counters.set(key, n + 1);
    const candidate = n === 0 ? key : `${key}_${n}`;
    return this.tensors.has(candidate) ? this.freshName(`${base}_`) : candidate;
  }

  /** Static info of a tensor; throws on an unknown name (a bug in a model definition). */
  info(name: string): TensorInfo {
    const found = this.tensors.get(name);
    if (found === undefined) throw new Error(`unknown tensor: ${name}`);
    return found;
  }

  /** Declares a graph input. */
  input(name: string, dtype: DType, shape: readonly Dim[]): string {
    this.define(name, { dtype, shape });
    this.inputs.push(name);
    return name;
  }

  /** Marks an existing tensor as a graph output. */
  output(name: string): string {
    this.info(name);
    if (!this.outputs.includes(name)) this.outputs.push(name);
    return name;
  }

  /** A constant tensor, deduplicated by value so repeated scalars share one initializer. */
  constant(values: readonly number[], dtype: DType, shape: readonly number[] = []): string {
    const key = `const/${dtype}/${shape.join('x')}/${values.length <= 8 ? values.join('_') : hashValues(values)}`;
    if (!this.constants.has(key)) {
      const info = { dtype, shape };
      this.define(key, info);
      this.constants.set(key, { name: key, info, values: [...values] });
    }
    return key;
  }

  /**
   * A named constant holding a frozen model's weights (an ONNX initializer): unlike
   * `constant`, no deduplication, and the values are kept as given (a typed array).
   */
  initializer(name: string, dtype: DType, shape: readonly number[], values: ArrayLike<number>): string {
    const size = shape.reduce((n, d) => n * d, 1);
    if (values.length !== size) throw new Error(`initializer ${name}: ${values.length} values for shape [${shape.join(',')}]`);
    const info = { dtype, shape };
    this.define(name, info);
    this.constants.set(name, { name, info, values });
    return name;
  }

  /** A scalar constant with the dtype of `like` (fp16 graphs need fp16 constants). */
  scalarLike(value: number, like: string): string {
    return this.constant([value], this.info(like).dtype);
  }

  /** A 1-D int64 constant (shapes, axes). */
  int64s(values: readonly number[]): string {
    return this.constant(values, 'int64', [values.length]);
  }

  /**
   * Emits one node. `outputs` gives each output's info and an optional explicit name.
   * Returns the output names.
   */
  node(
    opType: string,
    inputs: readonly string[],
    outputs: readonly (TensorInfo & { readonly name?: string | undefined })[],
    attributes: Readonly<Record<string, AttributeValue>> = {},
  ): string[] {
    for (const input of inputs) if (input !== '') this.info(input);
    const outputNames = outputs.map((o) => {
      const name = o.name ?? this.freshName(opType.toLowerCase());
      this.define(name, { dtype: o.dtype, shape: o.shape });
      return name;
    });
    const node: NodeRecord = {
      opType,
      name: `${outputNames[0] ?? opType}/${opType}`,
      inputs: [...inputs],
      outputs: outputNames,
      attributes,
    };
    this.nodes.push(node);
    if (this.compositeDepth === 0) this.tape.push({ kind: 'node', node });
    return outputNames;
  }

  /**
   * Emits `body`'s nodes as one differentiable step whose gradient is `backward`
   * (used where the generic rules would keep more tensors alive than a framework does).
   */
  composite<T extends readonly string[]>(inputs: readonly string[], body: () => T, backward: CompositeBackward): T {
    this.compositeDepth += 1;
    let outputs: T;
    try {
      outputs = body();
    } finally {
      this.compositeDepth -= 1;
    }
    if (this.compositeDepth === 0) this.tape.push({ kind: 'composite', inputs, outputs, backward });
    return outputs;
  }

  /** The tape entries emitted while running `body` (for differentiating a slice of the graph). */
  record<T>(body: () => T): { result: T; tape: TapeEntry[] } {
    const start = this.tape.length;
    const result = body();
    return { result, tape: this.tape.slice(start) };
  }

  private define(name: string, info: TensorInfo): void {
    if (this.tensors.has(name)) throw new Error(`tensor defined twice: ${name}`);
    this.tensors.set(name, info);
  }
}

/** A short deterministic hash (FNV-1a over the decimal text) for naming large constants. */
function hashValues(values: readonly number[]): string {
  let h = 0x811c9dc5;
  for (const ch of values.join(',')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return `${values.length}_${(h >>> 0).toString(16)}`;
}
