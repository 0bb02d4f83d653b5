/**
 * Gradient rules, one per ONNX op the demo models use. Each rule receives the forward node,
 * the gradients of its outputs, and which inputs need a gradient; it emits backward nodes and
 * returns one gradient name (or undefined) per input.
 *
 * Rules only reference forward tensors they really need (e.g. Relu uses its *output*, MatMul
 * its inputs), because every forward tensor a rule touches stays alive until the backward —
 * that is the activation memory the lessons talk about.
 */
import { intAttribute, type Dim, type GraphBuilder, type NodeRecord } from './builder.ts';
import { isFloat } from './dtype.ts';
import * as op from './ops.ts';
import { unbroadcastAxes } from './shape.ts';

/** Emits the gradients of a node's inputs. */
export type GradRule = (b: GraphBuilder, node: NodeRecord, dy: string, needs: readonly boolean[]) => (string | undefined)[];

/** Sums a broadcast gradient back to the shape of the operand it came from. */
export function unbroadcast(b: GraphBuilder, grad: string, target: readonly Dim[]): string {
  const { dropped, kept } = unbroadcastAxes(b.info(grad).shape, target);
  let g = grad;
  if (kept.length > 0) g = op.reduceSum(b, g, kept, true);
  if (dropped.length > 0) g = op.reduceSum(b, g, dropped, false);
  return g;
}

/**
 * Reshape target that turns a tensor of shape `from` into shape `to` without reading any
 * forward tensor at run time: 0 where a symbolic dim passes through, −1 for one unknown dim.
 */
export function reshapeTarget(from: readonly Dim[], to: readonly Dim[]): number[] {
  let inferred = false;
  return to.map((d, i) => {
    if (typeof d === 'number') return d;
    if (from[i] === d) return 0;
    if (inferred) throw new Error(`cannot reshape [${from.join(',')}] to [${to.join(',')}] statically`);
    inferred = true;
    return -1;
  });
}

/** Reshapes `grad` to `shape` (static target, see reshapeTarget). */
function reshapeTo(b: GraphBuilder, grad: string, shape: readonly Dim[]): string {
  return op.reshape(b, grad, reshapeTarget(b.info(grad).shape, shape), undefined, shape);
}

function input(node: NodeRecord, i: number): string {
  const name = node.inputs[i];
  if (name === undefined) throw new Error(`${node.opType} has no input ${i}`);
  return name;
}

function output(node: NodeRecord): string {
  const name = node.outputs[0];
  if (name === undefined) throw new Error(`${node.opType} has no output`);
  return name;
}

/** Broadcasts a reduced gradient back over the reduced axes of `x` (inverse of ReduceSum). */
function expandLike(b: GraphBuilder, grad: string, x: string): string {
  const xs = b.info(x).shape;
  const gs = b.info(grad).shape;
  // Expand broadcasts, so 1 is enough where the gradient already has the full size;
  // reading Shape(x) would keep x alive until the backward, so only do it when a
  // reduced dim is symbolic.
  const target = xs.map((d, i) => (gs[i] === d ? 1 : d));
  const shape = target.every((d): d is number => typeof d === 'number') ? b.int64s(target) : op.shapeOf(b, x);
  return op.expand(b, grad, shape, xs);
}

/** ONNX MatMul: 2-D via Gemm (no transposed copies), weights shared over a batch, or batched. */
const matmulRule: GradRule = (b, node, dy, needs) => {
  const a = input(node, 0);
  const w = input(node, 1);
  const as = b.info(a).shape;
  const ws = b.info(w).shape;
  if (as.length === 2 && ws.length === 2) {
    return [
      needs[0] ? op.gemm(b, dy, w, { transB: true }) : undefined,
      needs[1] ? op.gemm(b, a, dy, { transA: true }) : undefined,
    ];
  }
  if (ws.length === 2) {
    const k = ws[0];
    const n = ws[1];
    if (typeof k !== 'number' || typeof n !== 'number') throw new Error('MatMul weight dims must be fixed');
    const dy2 = op.reshape(b, dy, [-1, n]);
    return [
      needs[0] ? reshapeTo(b, op.gemm(b, dy2, w, { transB: true }), as) : undefined,
      needs[1] ? op.gemm(b, op.reshape(b, a, [-1, k]), dy2, { transA: true }) : undefined,
    ];
  }
  if (as.length !== ws.length) throw new Error('MatMul gradient: mixed ranks are not supported');
  const swap = [...as.keys()].map((i) => (i === as.length - 2 ? i + 1 : i === as.length - 1 ? i - 1 : i));
  return [
    needs[0] ? op.matmul(b, dy, op.transpose(b, w, swap)) : undefined,
    needs[1] ? op.matmul(b, op.transpose(b, a, swap), dy) : undefined,
  ];
};

/** Gradient rules by op type. */
export const GRAD_RULES: Readonly<Record<string, GradRule>> = {
  Identity: (_b, _node, dy) => [dy],
  Add: (b, node, dy, needs) => [
    needs[0] ? unbroadcast(b, dy, b.info(input(node, 0)).shape) : undefined,
    needs[1] ? unbroadcast(b, dy, b.info(input(node, 1)).shape) : undefined,
  ],
  Sub: (b, node, dy, needs) => [
    needs[0] ? unbroadcast(b, dy, b.info(input(node, 0)).shape) : undefined,
    needs[1] ? unbroadcast(b, op.neg(b, dy), b.info(input(node, 1)).shape) : undefined,
  ],
  Mul: (b, node, dy, needs) => {
    const [x, y] = [input(node, 0), input(node, 1)];
    return [
      needs[0] ? unbroadcast(b, op.mul(b, dy, y), b.info(x).shape) : undefined,
      needs[1] ? unbroadcast(b, op.mul(b, dy, x), b.info(y).shape) : undefined,
    ];
  },
  Div: (b, node, dy, needs) => {
    const [x, y] = [input(node, 0), input(node, 1)];
    return [
      needs[0] ? unbroadcast(b, op.div(b, dy, y), b.info(x).shape) : undefined,
      // d(x/y)/dy = −(x/y)/y: reuse the forward output instead of squaring y.
      needs[1] ? unbroadcast(b, op.neg(b, op.div(b, op.mul(b, dy, output(node)), y)), b.info(y).shape) : undefined,
    ];
  },
  MatMul: matmulRule,
  Relu: (b, node, dy) => {
    // Uses the output (y > 0 ⇔ x > 0), which the next layer keeps anyway.
    const y = output(node);
    return [op.where(b, op.greater(b, y, b.scalarLike(0, y)), dy, b.scalarLike(0, dy))];
  },
  Tanh: (b, node, dy) => {
    const y = output(node);
    return [op.mul(b, dy, op.sub(b, b.scalarLike(1, y), op.mul(b, y, y)))];
  },
  Exp: (b, node, dy) => [op.mul(b, dy, output(node))],
  Log: (b, node, dy) => [op.div(b, dy, input(node, 0))],
  Sqrt: (b, node, dy) => [op.div(b, op.mul(b, dy, b.scalarLike(0.5, dy)), output(node))],
  Reciprocal: (b, node, dy) => {
    const y = output(node);
    return [op.neg(b, op.mul(b, op.mul(b, dy, y), y))];
  },
  Neg: (b, _node, dy) => [op.neg(b, dy)],
  Transpose: (b, node, dy) => {
    const a = node.attributes['perm'];
    const perm = a !== undefined && 'ints' in a ? a.ints : [];
    const inverse = perm.map((_, i) => perm.indexOf(i));
    return [op.transpose(b, dy, inverse)];
  },
  Reshape: (b, node, dy) => [reshapeTo(b, dy, b.info(input(node, 0)).shape), undefined],
  Unsqueeze: (b, node, dy) => [reshapeTo(b, dy, b.info(input(node, 0)).shape), undefined],
  ReduceSum: (b, node, dy) => {
    const x = input(node, 0);
    const rank = b.info(x).shape.length;
    let g = dy;
    if (intAttribute(node, 'keepdims', 1) === 0) {
      const axesName = node.inputs[1];
      const axes = axesName === undefined ? [...Array(rank).keys()] : Array.from(b.constants.get(axesName)?.values ?? []);
      g = op.unsqueeze(
        b,
        g,
        axes.map((a) => (a < 0 ? a + rank : a)),
      );
    }
    return [expandLike(b, g, x), undefined];
  },
  Softmax: (b, node, dy) => {
    const y = output(node);
    const dot = op.reduceSum(b, op.mul(b, dy, y), [-1], true);
    return [op.mul(b, y, op.sub(b, dy, dot))];
  },
  LogSoftmax: (b, node, dy) => {
    const y = output(node);
    return [op.sub(b, dy, op.mul(b, op.exp(b, y), op.reduceSum(b, dy, [-1], true)))];
  },
  Cast: (b, node, dy) => {
    const from = b.info(input(node, 0)).dtype;
    return [isFloat(from) ? op.cast(b, dy, from) : undefined];
  },
  Gather: (b, node, dy, needs) => {
    // Embedding backward as a one-hot MatMul (onehotᵀ · dY): only MatMul/Equal/Cast, which
    // every execution provider has, unlike ScatterND with reduction.
    if (!needs[0]) return [undefined, undefined];
    const table = input(node, 0);
    const [rows, width] = b.info(table).shape;
    if (typeof rows !== 'number' || typeof width !== 'number') throw new Error('Gather table dims must be fixed');
    const ids = op.reshape(b, input(node, 1), [1, -1]);
    const range = b.constant([...Array(rows).keys()], 'int64', [rows, 1]);
    const onehotT = op.cast(b, op.equal(b, range, ids), b.info(dy).dtype);
    return [op.matmul(b, onehotT, op.reshape(b, dy, [-1, width])), undefined];
  },
};
