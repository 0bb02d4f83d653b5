/** Declares parameter inputs and builds the ModelContext for one precision. */
import type { GraphBuilder, TapeEntry } from './builder.ts';
import type { FloatDType } from './dtype.ts';
import type { ModelContext } from './model.ts';
import * as op from './ops.ts';
import type { ParamSpec } from './params.ts';

/**
 * Numeric precision of a graph.
 * - `fp32`: everything float32.
 * - `fp16`: AMP-style — fp32 master weights come in, are cast to fp16 for compute, activations
 *   stay fp16, logits are cast to fp32 for the loss, gradients are cast back to fp32.
 * - `fp64`: float64 throughout; only for finite-difference tests in Node.
 */
export type Precision = 'fp32' | 'fp16' | 'fp64';

/** Element type of activations. */
export function computeDtype(precision: Precision): FloatDType {
  return precision === 'fp16' ? 'float16' : precision === 'fp64' ? 'float64' : 'float32';
}

/** Element type of weights, gradients, float data inputs and the loss. */
export function masterDtype(precision: Precision): FloatDType {
  return precision === 'fp64' ? 'float64' : 'float32';
}

/** A context plus the tape of parameter casts (differentiated last). */
export interface DeclaredParameters {
  /** What model emit functions receive. */
  readonly ctx: ModelContext;
  /** Cast nodes fp32 → fp16 (empty unless fp16); their gradient casts back to fp32. */
  readonly castTape: readonly TapeEntry[];
  /** Compute-dtype names of the parameters (what the forward reads). */
  readonly computeNames: readonly string[];
}

/** Declares `params` as graph inputs in master precision and casts them for compute if needed. */
export function declareParameters(b: GraphBuilder, params: readonly ParamSpec[], precision: Precision): DeclaredParameters {
  const dtype = computeDtype(precision);
  const master = masterDtype(precision);
  for (const p of params) b.input(p.name, master, p.shape);
  const views = new Map<string, string>();
  const { tape } = b.record(() => {
    for (const p of params) views.set(p.name, dtype === master ? p.name : op.cast(b, p.name, dtype, `${p.name}.${dtype}`));
  });
  const ctx: ModelContext = {
    b,
    dtype,
    param(name) {
      const view = views.get(name);
      if (view === undefined) throw new Error(`parameter ${name} is not an input of graph ${b.name}`);
      return view;
    },
  };
  return { ctx, castTape: tape, computeNames: [...views.values()] };
}
