/** Building blocks shared by the models, written as primitive ONNX ops so autodiff covers them. */
import type { ModelContext } from './model.ts';
import * as op from './ops.ts';

/** x·W (+ b): W is stored [in, out] so no transpose is needed in the forward. */
export function linear(ctx: ModelContext, x: string, weight: string, bias?: string, name?: string): string {
  const { b } = ctx;
  const y = op.matmul(b, x, ctx.param(weight), bias === undefined ? name : undefined);
  return bias === undefined ? y : op.add(b, y, ctx.param(bias), name);
}

/** Variance epsilon of LayerNorm (PyTorch's default). */
export const LAYER_NORM_EPS = 1e-5;

/**
 * LayerNorm over the last axis, decomposed (mean, centre, variance, 1/√, scale, shift) so the
 * autodiff differentiates it with generic rules; means are ReduceSum × 1/n to need one reduce op.
 */
export function layerNorm(ctx: ModelContext, x: string, gain: string, shift: string): string {
  const { b } = ctx;
  const n = b.info(x).shape.at(-1);
  if (typeof n !== 'number') throw new Error('layerNorm: last dim must be fixed');
  const invN = b.scalarLike(1 / n, x);
  const mean = op.mul(b, op.reduceSum(b, x, [-1], true), invN);
  const centred = op.sub(b, x, mean);
  const variance = op.mul(b, op.reduceSum(b, op.mul(b, centred, centred), [-1], true), invN);
  const rstd = op.reciprocal(b, op.sqrt(b, op.add(b, variance, b.scalarLike(LAYER_NORM_EPS, x))));
  return op.add(b, op.mul(b, op.mul(b, centred, rstd), ctx.param(gain)), ctx.param(shift));
}

/** √(2/π), the constant of the tanh approximation of GELU. */
const GELU_TANH_SCALE = Math.sqrt(2 / Math.PI);

/**
 * GELU, tanh approximation (GPT-2's `gelu_new`, PyTorch `approximate='tanh'`):
 * 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). Chosen over the Erf form because onnxruntime's
 * CPU kernels have Tanh in float64, which the finite-difference tests use.
 */
export function gelu(ctx: ModelContext, x: string): string {
  const { b } = ctx;
  const cube = op.mul(b, op.mul(b, x, x), x);
  const inner = op.mul(b, op.add(b, x, op.mul(b, cube, b.scalarLike(0.044715, x))), b.scalarLike(GELU_TANH_SCALE, x));
  const t = op.tanh(b, inner);
  return op.mul(b, op.mul(b, x, op.add(b, t, b.scalarLike(1, x))), b.scalarLike(0.5, x));
}
