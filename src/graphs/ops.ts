/**
 * Typed op helpers over GraphBuilder: each emits one ONNX node (opset 17) and works out the
 * output's static shape, which the autodiff needs (un-broadcasting, reshape inverses).
 */
import type { Dim, GraphBuilder } from './builder.ts';
import { ONNX_DTYPE_CODE, type DType } from './dtype.ts';
import { broadcastShapes, normalizeAxis } from './shape.ts';

/** The ONNX opset the graphs target, one onnxruntime-web 1.30 runs (tests/unit/lab/measure runs the graphs on it). */
export const OPSET = 17;

type Binary = 'Add' | 'Sub' | 'Mul' | 'Div';
type Unary = 'Relu' | 'Tanh' | 'Exp' | 'Log' | 'Sqrt' | 'Neg' | 'Reciprocal' | 'Identity';

function binary(op: Binary, b: GraphBuilder, x: string, y: string, name?: string): string {
  const a = b.info(x);
  const shape = broadcastShapes(a.shape, b.info(y).shape);
  return one(b.node(op, [x, y], [{ dtype: a.dtype, shape, name }]));
}

function unary(op: Unary, b: GraphBuilder, x: string, name?: string): string {
  return one(b.node(op, [x], [{ ...b.info(x), name }]));
}

function one(names: readonly string[]): string {
  const first = names[0];
  if (first === undefined) throw new Error('node has no output');
  return first;
}

/** x + y (broadcasting). */
export const add = (b: GraphBuilder, x: string, y: string, name?: string): string => binary('Add', b, x, y, name);
/** x − y (broadcasting). */
export const sub = (b: GraphBuilder, x: string, y: string, name?: string): string => binary('Sub', b, x, y, name);
/** x · y elementwise (broadcasting). */
export const mul = (b: GraphBuilder, x: string, y: string, name?: string): string => binary('Mul', b, x, y, name);
/** x / y elementwise (broadcasting). */
export const div = (b: GraphBuilder, x: string, y: string, name?: string): string => binary('Div', b, x, y, name);
/** max(x, 0). */
export const relu = (b: GraphBuilder, x: string, name?: string): string => unary('Relu', b, x, name);
/** tanh(x). */
export const tanh = (b: GraphBuilder, x: string, name?: string): string => unary('Tanh', b, x, name);
/** eˣ. */
export const exp = (b: GraphBuilder, x: string, name?: string): string => unary('Exp', b, x, name);
/** ln x. */
export const log = (b: GraphBuilder, x: string, name?: string): string => unary('Log', b, x, name);
/** √x. */
export const sqrt = (b: GraphBuilder, x: string, name?: string): string => unary('Sqrt', b, x, name);
/** −x. */
export const neg = (b: GraphBuilder, x: string, name?: string): string => unary('Neg', b, x, name);
/** 1/x. */
export const reciprocal = (b: GraphBuilder, x: string, name?: string): string => unary('Reciprocal', b, x, name);
/** A renamed alias of x (used to give graph outputs stable names). */
export const identity = (b: GraphBuilder, x: string, name?: string): string => unary('Identity', b, x, name);

/** Matrix product with numpy batching rules (ONNX MatMul). */
export function matmul(b: GraphBuilder, x: string, y: string, name?: string): string {
  const a = b.info(x).shape;
  const c = b.info(y).shape;
  if (a.length < 2 || c.length < 2) throw new Error('matmul: rank-1 operands are not used here');
  const batch = broadcastShapes(a.slice(0, -2), c.slice(0, -2));
  const shape: Dim[] = [...batch, a[a.length - 2] ?? 1, c[c.length - 1] ?? 1];
  return one(b.node('MatMul', [x, y], [{ dtype: b.info(x).dtype, shape, name }]));
}

/** α·op(A)·op(B) for 2-D operands (ONNX Gemm without C): used by the MatMul gradient. */
export function gemm(
  b: GraphBuilder,
  x: string,
  y: string,
  { transA = false, transB = false }: { transA?: boolean; transB?: boolean } = {},
  name?: string,
): string {
  const a = b.info(x).shape;
  const c = b.info(y).shape;
  const rows = (transA ? a[1] : a[0]) ?? 1;
  const cols = (transB ? c[0] : c[1]) ?? 1;
  return one(
    b.node('Gemm', [x, y], [{ dtype: b.info(x).dtype, shape: [rows, cols], name }], {
      transA: { int: transA ? 1 : 0 },
      transB: { int: transB ? 1 : 0 },
    }),
  );
}

/** Permutes axes. */
export function transpose(b: GraphBuilder, x: string, perm: readonly number[], name?: string): string {
  const s = b.info(x).shape;
  const shape = perm.map((p) => s[p] ?? 1);
  return one(b.node('Transpose', [x], [{ dtype: b.info(x).dtype, shape, name }], { perm: { ints: perm } }));
}

/**
 * Reshape to `target`, where 0 copies the input dim (so a symbolic batch passes through)
 * and at most one −1 is inferred.
 */
export function reshape(
  b: GraphBuilder,
  x: string,
  target: readonly number[],
  name?: string,
  knownShape?: readonly Dim[],
): string {
  const s = b.info(x).shape;
  const shape: Dim[] = knownShape ? [...knownShape] : target.map((t, i) => (t === 0 ? (s[i] ?? 1) : t));
  // An inferred (−1) dim gets a fresh symbol unless the caller knows the result shape.
  const inferred = shape.indexOf(-1);
  if (inferred >= 0) shape[inferred] = b.freshName('dim');
  return one(b.node('Reshape', [x, b.int64s(target)], [{ dtype: b.info(x).dtype, shape, name }]));
}

/** Inserts size-1 axes. */
export function unsqueeze(b: GraphBuilder, x: string, axes: readonly number[], name?: string): string {
  const s = [...b.info(x).shape];
  const rank = s.length + axes.length;
  const sorted = axes.map((a) => normalizeAxis(a, rank)).sort((p, q) => p - q);
  for (const a of sorted) s.splice(a, 0, 1);
  return one(b.node('Unsqueeze', [x, b.int64s(axes)], [{ dtype: b.info(x).dtype, shape: s, name }]));
}

/** Sum over `axes` (all axes when omitted). */
export function reduceSum(
  b: GraphBuilder,
  x: string,
  axes: readonly number[] | undefined,
  keepdims: boolean,
  name?: string,
): string {
  const s = b.info(x).shape;
  const reduced = axes === undefined ? s.map((_, i) => i) : axes.map((a) => normalizeAxis(a, s.length));
  const shape = keepdims ? s.map((d, i) => (reduced.includes(i) ? 1 : d)) : s.filter((_, i) => !reduced.includes(i));
  const inputs = axes === undefined ? [x] : [x, b.int64s(axes)];
  return one(b.node('ReduceSum', inputs, [{ dtype: b.info(x).dtype, shape, name }], { keepdims: { int: keepdims ? 1 : 0 } }));
}

/** Largest element over all axes, as a scalar (used only for the recompute gate). */
export function reduceMaxAll(b: GraphBuilder, x: string, name?: string): string {
  return one(b.node('ReduceMax', [x], [{ dtype: b.info(x).dtype, shape: [], name }], { keepdims: { int: 0 } }));
}

/**
 * Largest element of each row (the last axis), keeping that axis as 1. Opset 17's ReduceMax takes
 * its axes as an attribute (an input only from opset 18).
 */
export function reduceMaxLastAxis(b: GraphBuilder, x: string, name?: string): string {
  const shape = b.info(x).shape.map((d, i, all) => (i === all.length - 1 ? 1 : d));
  return one(b.node('ReduceMax', [x], [{ dtype: b.info(x).dtype, shape, name }], { axes: { ints: [-1] }, keepdims: { int: 1 } }));
}

/** Softmax over the last axis. */
export function softmax(b: GraphBuilder, x: string, name?: string): string {
  return one(b.node('Softmax', [x], [{ ...b.info(x), name }], { axis: { int: -1 } }));
}

/** Log-softmax over the last axis. */
export function logSoftmax(b: GraphBuilder, x: string, name?: string): string {
  return one(b.node('LogSoftmax', [x], [{ ...b.info(x), name }], { axis: { int: -1 } }));
}

/** Element type conversion. */
export function cast(b: GraphBuilder, x: string, to: DType, name?: string): string {
  const code = ONNX_DTYPE_CODE[to];
  return one(b.node('Cast', [x], [{ dtype: to, shape: b.info(x).shape, name }], { to: { int: code } }));
}

/** Rows of a 2-D `table` picked by integer `indices` (embedding lookup). */
export function gather(b: GraphBuilder, table: string, indices: string, name?: string): string {
  const t = b.info(table);
  const shape = [...b.info(indices).shape, ...t.shape.slice(1)];
  return one(b.node('Gather', [table, indices], [{ dtype: t.dtype, shape, name }], { axis: { int: 0 } }));
}

/** Elementwise x == y (broadcasting), as bool. */
export function equal(b: GraphBuilder, x: string, y: string, name?: string): string {
  const shape = broadcastShapes(b.info(x).shape, b.info(y).shape);
  return one(b.node('Equal', [x, y], [{ dtype: 'bool', shape, name }]));
}

/** Elementwise x > y (broadcasting), as bool. */
export function greater(b: GraphBuilder, x: string, y: string, name?: string): string {
  const shape = broadcastShapes(b.info(x).shape, b.info(y).shape);
  return one(b.node('Greater', [x, y], [{ dtype: 'bool', shape, name }]));
}

/** cond ? x : y elementwise (broadcasting). */
export function where(b: GraphBuilder, cond: string, x: string, y: string, name?: string): string {
  const shape = broadcastShapes(broadcastShapes(b.info(cond).shape, b.info(x).shape), b.info(y).shape);
  return one(b.node('Where', [cond, x, y], [{ dtype: b.info(x).dtype, shape, name }]));
}

/** Broadcast x to `shape` (ONNX Expand: the result is broadcast(x.shape, shape)). */
export function expand(b: GraphBuilder, x: string, shape: string, resultShape: readonly Dim[], name?: string): string {
  return one(b.node('Expand', [x, shape], [{ dtype: b.info(x).dtype, shape: resultShape, name }]));
}

/** The runtime shape of x as an int64 vector. */
export function shapeOf(b: GraphBuilder, x: string, name?: string): string {
  return one(b.node('Shape', [x], [{ dtype: 'int64', shape: [b.info(x).shape.length], name }]));
}

/**
 * Per-axis dequantization y = (q − 0) · scale along `axis` (ONNX DequantizeLinear, opset 13+:
 * https://onnx.ai/onnx/operators/onnx__DequantizeLinear.html). No zero point: symmetric int8.
 */
export function dequantizeLinear(b: GraphBuilder, quantized: string, scale: string, axis: number, name?: string): string {
  const { shape } = b.info(quantized);
  return one(
    b.node('DequantizeLinear', [quantized, scale], [{ dtype: b.info(scale).dtype, shape, name }], { axis: { int: axis } }),
  );
}
