/**
 * The segmented form of a training step: separate small graphs per layer range, run one
 * session at a time. onnxruntime-web reuses GPU buffers across runs but poorly within one run,
 * so this is the form in which recomputation's saving is measurable (the checkpointing experiment
 * in src/lab/experiments/single/experiments.ts runs it on WebGPU for that reason).
 *
 * A step over ranges r₀…rₙ is: forward(r₀) … forward(rₙ) → loss → backward(rₙ) … backward(r₀),
 * passing `act<j>` forward and `grad.act<j>` backward. The same graphs are the stage slices of
 * pipeline and layer-streaming experiments.
 */
import { GraphBuilder } from './builder.ts';
import { backprop, type GradMap } from './autodiff.ts';
import { computeDtype, declareParameters, masterDtype, type Precision } from './context.ts';
import { stagesOf, type LayeredModel, type ModelContext } from './model.ts';
import * as op from './ops.ts';
import type { ParamSpec } from './params.ts';
import { externalize, prune } from './passes.ts';
import type { LayerRange } from './segments.ts';
import { activationName, gradName, LOSS_SCALE } from './tensor-names.ts';
import { emitLoss } from './variants.ts';

/** Options of a stage slice. */
export interface StageOptions {
  /** Numeric precision; defaults to `fp32`. */
  readonly precision?: Precision;
  /**
   * `recompute` (default): the forward outputs only `act<end>`; the backward recomputes the
   * slice from its input. `keep`: the forward also outputs every activation the backward reads,
   * and the backward takes them as inputs.
   */
  readonly activations?: 'recompute' | 'keep';
}

/** Parameters of the layer range (plus the input stage when it starts at layer 0). */
export function rangeParameters(model: LayeredModel, [start, end]: LayerRange): ParamSpec[] {
  return stagesOf(start, end, false).flatMap((s) => [...model.stageParameters(s)]);
}

function declareRangeInput(b: GraphBuilder, model: LayeredModel, start: number, precision: Precision): string {
  if (start > 0) return b.input(activationName(start), computeDtype(precision), model.activationShape);
  const { name, dtype, shape } = model.data;
  return b.input(name, dtype === 'float32' ? masterDtype(precision) : dtype, shape);
}

function emitRange(ctx: ModelContext, model: LayeredModel, [start, end]: LayerRange, input: string): string {
  let x = start === 0 ? model.emitInput(ctx, input) : input;
  for (let l = start; l < end; l++) x = model.emitLayer(ctx, l, x, activationName(l + 1));
  return x;
}

interface RangeBackward {
  readonly graph: GraphBuilder;
  /** Forward tensors the backward reads (what "keep" mode must store). */
  readonly saved: readonly string[];
}

function buildRangeBackward(model: LayeredModel, range: LayerRange, precision: Precision): RangeBackward {
  const [start, end] = range;
  const b = new GraphBuilder(`${model.arch}-backward-${start}-${end}`);
  const input = declareRangeInput(b, model, start, precision);
  const params = rangeParameters(model, range);
  const { ctx, castTape, computeNames } = declareParameters(b, params, precision);
  const forwardStart = b.nodes.length;
  const forward = b.record(() => emitRange(ctx, model, range, input));
  const forwardNodes = new Set(b.nodes.slice(forwardStart));
  const incoming = b.input(gradName(activationName(end)), computeDtype(precision), model.activationShape);
  const grads: GradMap = new Map([[forward.result, incoming]]);
  backprop(b, forward.tape, grads, [...computeNames, ...(start > 0 ? [input] : [])]);
  backprop(
    b,
    castTape,
    grads,
    params.map((p) => p.name),
  );
  if (start > 0) {
    const dx = grads.get(input);
    if (dx === undefined) throw new Error(`no gradient reached ${input}`);
    b.output(op.identity(b, dx, gradName(input)));
  }
  for (const p of params) {
    const g = grads.get(p.name);
    if (g === undefined) throw new Error(`parameter ${p.name} received no gradient`);
    b.output(op.identity(b, g, gradName(p.name)));
  }
  prune(b);
  const produced = new Set([...forwardNodes].flatMap((n) => n.outputs));
  const saved: string[] = [];
  for (const node of b.nodes) {
    if (forwardNodes.has(node)) continue;
    for (const name of node.inputs) if (produced.has(name) && !saved.includes(name)) saved.push(name);
  }
  return { graph: b, saved };
}

/** Backward of layers [start, end): inputs act<start> (or data), parameters, [saved], grad.act<end>. */
export function buildStageBackwardGraph(
  model: LayeredModel,
  range: LayerRange,
  { precision = 'fp32', activations = 'recompute' }: StageOptions = {},
): GraphBuilder {
  const { graph, saved } = buildRangeBackward(model, range, precision);
  if (activations === 'keep') externalize(graph, saved);
  return graph;
}

/** The activations a keep-mode backward of [start, end) reads, in a stable order. */
export function savedActivations(model: LayeredModel, range: LayerRange, precision: Precision = 'fp32'): readonly string[] {
  return buildRangeBackward(model, range, precision).saved;
}

/** Forward of layers [start, end): outputs act<end> (and, in keep mode, the saved activations). */
export function buildStageForwardGraph(
  model: LayeredModel,
  range: LayerRange,
  { precision = 'fp32', activations = 'recompute' }: StageOptions = {},
): GraphBuilder {
  const [start, end] = range;
  const b = new GraphBuilder(`${model.arch}-forward-${start}-${end}`);
  const input = declareRangeInput(b, model, start, precision);
  const { ctx } = declareParameters(b, rangeParameters(model, range), precision);
  const out = emitRange(ctx, model, range, input);
  if (activations === 'keep') for (const name of savedActivations(model, range, precision)) if (name !== out) b.output(name);
  b.output(out);
  prune(b);
  return b;
}

/**
 * Head, loss and the head's backward: inputs act<L>, head parameters, labels (and
 * `loss_scale` when `accumulate`); outputs loss, grad.act<L> and the head's gradients.
 */
export function buildLossGraph(
  model: LayeredModel,
  { precision = 'fp32', accumulate = false }: { precision?: Precision; accumulate?: boolean } = {},
): GraphBuilder {
  const b = new GraphBuilder(`${model.arch}-loss`);
  const x = b.input(activationName(model.layers), computeDtype(precision), model.activationShape);
  const params = model.stageParameters('head');
  const { ctx, castTape, computeNames } = declareParameters(b, params, precision);
  const labels = b.input(model.labels.name, model.labels.dtype, model.labels.shape);
  const scale = accumulate ? b.input(LOSS_SCALE, masterDtype(precision), []) : undefined;
  const head = b.record(() => emitLoss(ctx, model, x, labels, precision, scale));
  b.output(head.result);
  const grads: GradMap = new Map([[head.result, b.scalarLike(1, head.result)]]);
  backprop(b, head.tape, grads, [...computeNames, x]);
  backprop(
    b,
    castTape,
    grads,
    params.map((p) => p.name),
  );
  const dx = grads.get(x);
  if (dx === undefined) throw new Error('no gradient reached the loss input');
  b.output(op.identity(b, dx, gradName(x)));
  for (const p of params) {
    const g = grads.get(p.name);
    if (g === undefined) throw new Error(`parameter ${p.name} received no gradient`);
    b.output(op.identity(b, g, gradName(p.name)));
  }
  prune(b);
  return b;
}
