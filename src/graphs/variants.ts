/**
 * Graph variants built from a LayeredModel: inference, single-graph training step (keep all
 * activations or recompute segments, optional gradient accumulation or SGD update), and the
 * segmented form — stage-slice forward/backward graphs plus a loss graph — that the WebGPU
 * experiments run one session at a time.
 */
import { GraphBuilder } from './builder.ts';
import { declareParameters, masterDtype, type Precision } from './context.ts';
import { backprop, dependentsOf, type GradMap } from './autodiff.ts';
import { declareDistillationInputs, distillationLoss, type DistillationInputs } from './distillation-loss.ts';
import { softmaxCrossEntropy } from './loss.ts';
import { allParameters, type LayeredModel, type ModelContext } from './model.ts';
import * as op from './ops.ts';
import type { ParamSpec } from './params.ts';
import { prune } from './passes.ts';
import { segmentRanges, type LayerRange } from './segments.ts';
import { accInName, accOutName, activationName, gradName, LEARNING_RATE, LOSS_SCALE, nextName } from './tensor-names.ts';

/** Options of a single-graph training step. */
export interface TrainStepOptions {
  /** Numeric precision; defaults to `fp32`. */
  readonly precision?: Precision;
  /** Recompute segments of this many layers in the backward; undefined keeps all activations. */
  readonly recompute?: number | undefined;
  /**
   * Gradient accumulation: adds inputs `loss_scale` (fp32 scalar, 1/k for k micro-batches) and
   * `acc_in.<p>`, and outputs `acc_out.<p>` = acc_in + grad instead of `grad.<p>`.
   */
  readonly accumulate?: boolean;
  /** Adds input `lr` (fp32 scalar) and outputs `next.<p>` = p − lr·grad instead of `grad.<p>`. */
  readonly sgd?: boolean;
  /**
   * Knowledge distillation: adds inputs `teacher_logits`, `temperature` and `alpha`, and the
   * loss becomes Hinton et al.'s soft-target loss (distillation-loss.ts). Not with `accumulate`.
   */
  readonly distillation?: boolean;
}

function declareData(b: GraphBuilder, model: LayeredModel, precision: Precision): string {
  const { name, dtype, shape } = model.data;
  return b.input(name, dtype === 'float32' ? masterDtype(precision) : dtype, shape);
}

function declareLabels(b: GraphBuilder, model: LayeredModel): string {
  return b.input(model.labels.name, model.labels.dtype, model.labels.shape);
}

function emitLayers(ctx: ModelContext, model: LayeredModel, [start, end]: LayerRange, input: string, prefix = ''): string {
  let x = input;
  for (let l = start; l < end; l++) x = model.emitLayer(ctx, l, x, prefix + activationName(l + 1));
  return x;
}

/**
 * Head, then the loss on logits in master dtype (AMP computes softmax and loss in fp32):
 * cross-entropy, or the distillation loss when its inputs are given.
 */
export function emitLoss(
  ctx: ModelContext,
  model: LayeredModel,
  x: string,
  labels: string,
  precision: Precision,
  scale?: string,
  distillation?: DistillationInputs,
): string {
  const logits = model.emitHead(ctx, x);
  const master = masterDtype(precision);
  const wide = ctx.dtype === master ? logits : op.cast(ctx.b, logits, master, `logits.${master}`);
  return distillation === undefined
    ? softmaxCrossEntropy(ctx.b, wide, labels, scale)
    : distillationLoss(ctx.b, wide, labels, distillation);
}

function addGrad(b: GraphBuilder, grads: GradMap, name: string, g: string): void {
  const previous = grads.get(name);
  grads.set(name, previous === undefined ? g : op.add(b, previous, g));
}

/** Emits the outputs for parameter gradients: plain, accumulated or an SGD step. */
function emitParameterOutputs(
  b: GraphBuilder,
  params: readonly ParamSpec[],
  grads: GradMap,
  options: TrainStepOptions,
  precision: Precision,
): void {
  const master = masterDtype(precision);
  const lr = options.sgd ? b.input(LEARNING_RATE, master, []) : undefined;
  for (const p of params) {
    const g = grads.get(p.name);
    if (g === undefined) throw new Error(`parameter ${p.name} received no gradient`);
    if (options.accumulate) {
      b.output(op.add(b, b.input(accInName(p.name), master, p.shape), g, accOutName(p.name)));
    } else if (lr !== undefined) {
      b.output(op.sub(b, p.name, op.mul(b, g, lr), nextName(p.name)));
    } else {
      b.output(op.identity(b, g, gradName(p.name)));
    }
  }
}

/** Forward-only graph: data + parameters → `logits` (fp32, [batch, …, classes]). */
export function buildInferenceGraph(model: LayeredModel, { precision = 'fp32' }: { precision?: Precision } = {}): GraphBuilder {
  const b = new GraphBuilder(`${model.arch}-inference`);
  const data = declareData(b, model, precision);
  const { ctx } = declareParameters(b, allParameters(model), precision);
  const last = emitLayers(ctx, model, [0, model.layers], model.emitInput(ctx, data));
  const logits = model.emitHead(ctx, last);
  const master = masterDtype(precision);
  b.output(ctx.dtype === master ? logits : op.cast(b, logits, master, `logits.${master}`));
  prune(b);
  return b;
}

/**
 * A whole training step in one graph: forward, loss, explicit backward, parameter gradients.
 * With `recompute`, each segment's forward is re-emitted inside the backward, gated on the
 * gradient arriving from above so ORT cannot schedule it early (see backpropRecomputed).
 */
export function buildTrainStepGraph(model: LayeredModel, options: TrainStepOptions = {}): GraphBuilder {
  const { precision = 'fp32', recompute } = options;
  const b = new GraphBuilder(`${model.arch}-train-step`);
  const data = declareData(b, model, precision);
  const labels = declareLabels(b, model);
  const params = allParameters(model);
  const { ctx, castTape, computeNames } = declareParameters(b, params, precision);
  const scale = options.accumulate ? b.input(LOSS_SCALE, masterDtype(precision), []) : undefined;
  if (options.distillation && options.accumulate) throw new Error('distillation with gradient accumulation is not built');
  const classes = model.dims['classes'] ?? model.dims['vocab'];
  const distillation = options.distillation
    ? declareDistillationInputs(b, [...model.labels.shape, classes ?? 1], masterDtype(precision))
    : undefined;

  const input = b.record(() => model.emitInput(ctx, data));
  const ranges = recompute === undefined ? [[0, model.layers] as const] : segmentRanges(model.layers, recompute);
  const segmentInput = ([start]: LayerRange): string => (start === 0 ? input.result : activationName(start));
  const segments = ranges.map((range) => b.record(() => emitLayers(ctx, model, range, segmentInput(range))));
  const last = segments.at(-1)?.result ?? input.result;
  const head = b.record(() => emitLoss(ctx, model, last, labels, precision, scale, distillation));
  b.output(head.result);

  const grads: GradMap = new Map([[head.result, b.scalarLike(1, head.result)]]);
  // Gradients flow to parameters and to activations; act0 only when the input stage has parameters.
  const wrt = new Set<string>(computeNames);
  const firstNeedsGrad = dependentsOf(b, input.tape, computeNames).has(input.result);
  backprop(b, head.tape, grads, [...wrt, last]);
  for (let s = ranges.length - 1; s >= 0; s--) {
    const range = ranges[s];
    const segment = segments[s];
    if (range === undefined || segment === undefined) continue;
    const checkpoint = segmentInput(range);
    const inputWrt = range[0] > 0 || firstNeedsGrad ? [checkpoint] : [];
    if (recompute === undefined) backprop(b, segment.tape, grads, [...wrt, ...inputWrt]);
    else backpropRecomputed(b, ctx, model, range, checkpoint, segment.result, grads, wrt, inputWrt.length > 0);
  }
  backprop(b, input.tape, grads, wrt);
  backprop(
    b,
    castTape,
    grads,
    params.map((p) => p.name),
  );
  emitParameterOutputs(b, params, grads, options, precision);
  prune(b);
  return b;
}

/**
 * Re-emits one segment's forward from its checkpoint and differentiates the copy.
 * The copy's input is checkpoint + 0·max(incoming gradient): a real data dependency, so the
 * scheduler can only run it once the gradient from the segment above exists. ReduceMax rather
 * than ReduceSum so an fp16 sum cannot overflow into 0·Inf = NaN.
 */
function backpropRecomputed(
  b: GraphBuilder,
  ctx: ModelContext,
  model: LayeredModel,
  range: LayerRange,
  checkpoint: string,
  segmentOutput: string,
  grads: GradMap,
  wrt: ReadonlySet<string>,
  needsInputGrad: boolean,
): void {
  const incoming = grads.get(segmentOutput);
  if (incoming === undefined) throw new Error(`no gradient reached ${segmentOutput}`);
  const prefix = `rc${range[0]}/`;
  const gated = b.scoped(`rc${range[0]}`, () =>
    op.add(b, checkpoint, op.mul(b, op.reduceMaxAll(b, incoming), b.scalarLike(0, incoming)), `${prefix}${checkpoint}`),
  );
  const copy = b.record(() => b.scoped(`rc${range[0]}`, () => emitLayers(ctx, model, range, gated, prefix)));
  grads.set(copy.result, incoming);
  backprop(b, copy.tape, grads, [...wrt, ...(needsInputGrad ? [gated] : [])]);
  const inputGrad = grads.get(gated);
  if (needsInputGrad && inputGrad !== undefined) addGrad(b, grads, checkpoint, inputGrad);
}
