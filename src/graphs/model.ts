/**
 * The shape every demo model has: an input stage, L identical layers, and a head. Training
 * variants (variants.ts) only talk to this interface, so recomputation, accumulation, 16-bit
 * and stage slicing work the same for the MLP and the tiny GPT.
 */
import type { Dim, GraphBuilder } from './builder.ts';
import type { DType, FloatDType } from './dtype.ts';
import type { ParamSpec } from './params.ts';

/** Model families. */
export type Arch = 'mlp' | 'tiny-gpt';

/** The name of the symbolic batch dimension in every graph. */
export const BATCH_DIM = 'batch';

/** A graph input or output as seen by the runtime. */
export interface TensorSpec {
  /** Tensor name in the graph. */
  readonly name: string;
  /** Element type. */
  readonly dtype: DType;
  /** Shape; `"batch"` marks the dynamic batch dimension. */
  readonly shape: readonly Dim[];
}

/** Part of a model that owns parameters: the input stage, layer `l`, or the head. */
export type Stage = 'input' | 'head' | number;

/** What a model's emit functions get: the builder, the compute dtype and parameter views. */
export interface ModelContext {
  /** The graph being built. */
  readonly b: GraphBuilder;
  /** Element type of activations (fp16 in the AMP variant). */
  readonly dtype: FloatDType;
  /** The compute-dtype view of a parameter (a Cast of the fp32 input under AMP). */
  param(name: string): string;
}

/** A model made of an input stage, `layers` identical layers and a head producing logits. */
export interface LayeredModel {
  /** Model family. */
  readonly arch: Arch;
  /** Number of repeated layers (hidden blocks or transformer blocks). */
  readonly layers: number;
  /** Named sizes, for the manifest (hidden, classes or vocab, seq, heads…). */
  readonly dims: Readonly<Record<string, number>>;
  /** The data input (features or token ids), as fed by the runtime. */
  readonly data: TensorSpec;
  /** Labels: float32 class indices, one per example (MLP), or int64 next-token ids, one per token (GPT). */
  readonly labels: TensorSpec;
  /** Shape of the activation between layers (the checkpoint shape). */
  readonly activationShape: readonly Dim[];
  /** Parameters owned by one stage, in a fixed order. */
  stageParameters(stage: Stage): readonly ParamSpec[];
  /** Emits the input stage; returns the first activation (compute dtype). */
  emitInput(ctx: ModelContext, data: string): string;
  /** Emits layer `l` on `x`; the output must be named `out`. */
  emitLayer(ctx: ModelContext, l: number, x: string, out: string): string;
  /** Emits the head on the last activation; returns logits (compute dtype). */
  emitHead(ctx: ModelContext, x: string): string;
}

/** Every parameter of a model: input stage, layers 0…L−1, head. */
export function allParameters(model: LayeredModel): ParamSpec[] {
  return stagesOf(0, model.layers, true).flatMap((s) => [...model.stageParameters(s)]);
}

/**
 * The stages that a layer range [start, end) covers: the input stage comes with layer 0, and
 * the head only when asked (the loss graph owns it in segmented form).
 */
export function stagesOf(start: number, end: number, withHead: boolean): Stage[] {
  const stages: Stage[] = start === 0 ? ['input'] : [];
  for (let l = start; l < end; l++) stages.push(l);
  if (withHead) stages.push('head');
  return stages;
}
