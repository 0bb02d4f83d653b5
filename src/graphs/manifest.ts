/**
 * The manifest the browser reads (public/models/manifest.json): one entry per demo model
 * variant, listing its graph files in execution order, their inputs/outputs, parameters and
 * sizes. Pure data, no onnx-proto: the lab imports these types.
 */
import type { Dim } from './builder.ts';
import type { DType } from './dtype.ts';
import type { Arch } from './model.ts';
import type { ParamSpec } from './params.ts';

/** A graph input or output. */
export interface ManifestTensor {
  /** Name in the graph (feed and fetch by this). */
  readonly name: string;
  /** Element type (`float16` tensors are fed as Uint16Array bit patterns). */
  readonly dtype: DType;
  /** Shape; `"batch"` is the dynamic batch dimension, numbers are fixed. */
  readonly shape: readonly Dim[];
}

/** What a graph file does. */
export type GraphRole = 'inference' | 'train-step' | 'stage-forward' | 'loss' | 'stage-backward' | 'utility';

/** One .onnx file. */
export interface ManifestGraph {
  /** Path relative to `public/models/` (URL relative to `/models/`). */
  readonly file: string;
  /** What the graph does. */
  readonly role: GraphRole;
  /** Layer range [start, end) for stage graphs. */
  readonly layers?: readonly [number, number];
  /** Inputs in graph order. */
  readonly inputs: readonly ManifestTensor[];
  /** Outputs in graph order. */
  readonly outputs: readonly ManifestTensor[];
  /** File size in bytes. */
  readonly bytes: number;
}

/** What the backward keeps. */
export type ActivationPolicy =
  | { readonly kind: 'keep' }
  | { readonly kind: 'recompute'; /** Layers per recompute segment (k). */ readonly segmentLayers: number };

/** How a model entry differs from the plain fp32 training step. */
export interface ManifestVariant {
  /** `fp16`: AMP-style, fp32 master weights in and gradients out, fp16 activations. */
  readonly precision: 'fp32' | 'fp16';
  /** false for forward-only (inference) entries. */
  readonly training: boolean;
  /** Activation policy of the backward. */
  readonly activations: ActivationPolicy;
  /** `single`: one graph per step. `segmented`: stage graphs run one after another. */
  readonly form: 'single' | 'segmented';
  /** Layer ranges of the stage graphs (segmented form only). */
  readonly ranges?: readonly (readonly [number, number])[];
  /** Gradient accumulation: `loss_scale` and `acc_in.*` inputs, `acc_out.*` outputs. */
  readonly accumulate: boolean;
  /** SGD step: `lr` input, `next.*` outputs. */
  readonly sgd: boolean;
}

/** Model sizes. */
export interface ManifestShapes {
  /** Width h. */
  readonly hidden: number;
  /** Number of layers L. */
  readonly layers: number;
  /** Suggested demo batch (the graphs accept any batch). */
  readonly batch: number;
  /** MLP classes. */
  readonly classes?: number;
  /** GPT vocabulary. */
  readonly vocab?: number;
  /** GPT sequence length (fixed per file). */
  readonly seq?: number;
  /** GPT attention heads. */
  readonly heads?: number;
}

/** One model variant. */
export interface ManifestModel {
  /** Unique id, e.g. `mlp-h256-l8.train.rc3.fp32`. */
  readonly id: string;
  /** Id shared by every variant of the same shapes, e.g. `mlp-h256-l8`. */
  readonly family: string;
  /** Model family. */
  readonly arch: Arch;
  /** Sizes. */
  readonly shapes: ManifestShapes;
  /** Trainable scalars. */
  readonly parameterCount: number;
  /** Parameters, in feed order; initialise with `initWeights(parameters, seed)`. */
  readonly parameters: readonly ParamSpec[];
  /** Element type of activations. */
  readonly dtype: 'float32' | 'float16';
  /** Variant description. */
  readonly variant: ManifestVariant;
  /** Graph files in execution order (segmented: forwards, loss, backwards in reverse). */
  readonly graphs: readonly ManifestGraph[];
  /** Total bytes of the graph files. */
  readonly bytes: number;
}

/** The whole manifest file. */
export interface Manifest {
  /** Schema version; bump on incompatible change. */
  readonly version: 1;
  /** ONNX opset of every graph. */
  readonly opset: number;
  /** Name of the dynamic batch dimension. */
  readonly batchDim: 'batch';
  /** Model entries. */
  readonly models: readonly ManifestModel[];
  /** Graphs over flat fp32 vectors that any model's runs share (optimizer.ts). */
  readonly utilities: ManifestUtilities;
}

/** The shared flat-vector graphs: Adam's update and gradient accumulation. */
export interface ManifestUtilities {
  readonly adam: ManifestGraph;
  readonly accumulate: ManifestGraph;
}

/** Assembles the manifest from described models; pure. Model ids must be unique. */
export function buildManifest(models: readonly ManifestModel[], utilities: ManifestUtilities, opset = 17): Manifest {
  const ids = new Set<string>();
  for (const m of models) {
    if (ids.has(m.id)) throw new Error(`duplicate model id: ${m.id}`);
    ids.add(m.id);
  }
  return { version: 1, opset, batchDim: 'batch', utilities, models };
}
