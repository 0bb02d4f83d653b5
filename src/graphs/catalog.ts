/**
 * The demo models the site ships: which shapes and which variants. Sizes are chosen so a
 * training step runs in seconds on SwiftShader WebGPU; readers pick among the grid, and batch
 * is free (dynamic) everywhere.
 */
import { createMlp, type MlpSpec } from './mlp.ts';
import type { LayeredModel } from './model.ts';
import type { ManifestShapes } from './manifest.ts';
import { defaultSegmentLength, segmentRanges, stageRanges, type LayerRange } from './segments.ts';
import { createTinyGpt, type TinyGptSpec } from './tiny-gpt.ts';

/** One variant to generate for a model. */
export interface VariantSpec {
  /** Id suffix, e.g. `train.rc3.fp32`. */
  readonly key: string;
  /** Numeric precision. */
  readonly precision: 'fp32' | 'fp16';
  /** Inference graph, one training-step graph, or stage graphs. */
  readonly form: 'inference' | 'single' | 'segmented';
  /** What the backward keeps; `recompute` uses `segmentLayers`. */
  readonly activations: 'keep' | 'recompute';
  /** Layers per segment (recompute single form) or per stage graph (segmented form). */
  readonly segmentLayers?: number;
  /** Explicit stage ranges (segmented form); default: segments of `segmentLayers`. */
  readonly ranges?: readonly LayerRange[];
  /** Gradient accumulation inputs/outputs. */
  readonly accumulate?: boolean;
  /** SGD update outputs. */
  readonly sgd?: boolean;
}

/** A model family (one set of shapes) and its variants. */
export interface DemoModel {
  /** Family id, e.g. `mlp-h256-l8`. */
  readonly family: string;
  /** The model definition. */
  readonly model: LayeredModel;
  /** Sizes for the manifest. */
  readonly shapes: ManifestShapes;
  /** Variants to generate. */
  readonly variants: readonly VariantSpec[];
}

/** MLP widths × depths offered to readers. */
export const MLP_WIDTHS = [128, 256, 512] as const;
/** MLP depths offered to readers. */
export const MLP_LAYERS = [4, 8, 16] as const;
/** MLP class count and suggested batch. */
export const MLP_DEFAULTS = { classes: 10, batch: 512, hidden: 256, layers: 8 } as const;
/** Tiny GPT grid and suggested batch. */
export const GPT_HIDDEN = [64, 128] as const;
/** Tiny GPT depths offered to readers. */
export const GPT_LAYERS = [2, 4] as const;
/** Tiny GPT fixed sizes. */
export const GPT_DEFAULTS = { heads: 4, seq: 64, vocab: 256, batch: 8, hidden: 64, layers: 2 } as const;

/** The variants every model gets: the techniques the lessons compare. */
function standardVariants(layers: number): VariantSpec[] {
  const k = defaultSegmentLength(layers);
  const out: VariantSpec[] = [];
  for (const precision of ['fp32', 'fp16'] as const) {
    out.push(
      { key: `infer.${precision}`, precision, form: 'inference', activations: 'keep' },
      { key: `train.keep.${precision}`, precision, form: 'single', activations: 'keep' },
      { key: `train.rc${k}.${precision}`, precision, form: 'single', activations: 'recompute', segmentLayers: k },
      { key: `train.acc.keep.${precision}`, precision, form: 'single', activations: 'keep', accumulate: true },
      { key: `seg${k}.keep.${precision}`, precision, form: 'segmented', activations: 'keep', segmentLayers: k },
      { key: `seg${k}.rc.${precision}`, precision, form: 'segmented', activations: 'recompute', segmentLayers: k },
    );
  }
  return out;
}

/** Pipeline stage counts generated for every MLP: 1 is the one-device reference. */
export const PIPELINE_STAGES = [1, 2, 4] as const;

/**
 * Slices that stream and pipeline experiments run: one graph per layer (weights streamed layer by
 * layer), and the layers split into equal pipeline stages.
 */
function sliceVariants(layers: number, stageCounts: readonly number[]): VariantSpec[] {
  return [
    { key: 'layerwise.keep.fp32', precision: 'fp32', form: 'segmented', activations: 'keep', ranges: segmentRanges(layers, 1) },
    ...stageCounts.map((p): VariantSpec => ({
      key: `stages${p}.keep.fp32`,
      precision: 'fp32',
      form: 'segmented',
      activations: 'keep',
      ranges: stageRanges(layers, p),
    })),
  ];
}

/** Extra variants of the default-size models: an SGD step, and two pipeline stages that recompute. */
function defaultExtras(layers: number): VariantSpec[] {
  return [
    { key: 'train.sgd.fp32', precision: 'fp32', form: 'single', activations: 'keep', sgd: true },
    { key: 'stages2.rc.fp32', precision: 'fp32', form: 'segmented', activations: 'recompute', ranges: stageRanges(layers, 2) },
  ];
}

function mlpDemo(spec: MlpSpec, isDefault: boolean): DemoModel {
  return {
    family: `mlp-h${spec.hidden}-l${spec.layers}`,
    model: createMlp(spec),
    shapes: { hidden: spec.hidden, layers: spec.layers, classes: spec.classes, batch: MLP_DEFAULTS.batch },
    variants: [
      ...standardVariants(spec.layers),
      ...sliceVariants(spec.layers, PIPELINE_STAGES),
      ...(isDefault ? defaultExtras(spec.layers) : []),
    ],
  };
}

function gptDemo(spec: TinyGptSpec, isDefault: boolean): DemoModel {
  return {
    family: `gpt-h${spec.hidden}-l${spec.layers}`,
    model: createTinyGpt(spec),
    shapes: {
      hidden: spec.hidden,
      layers: spec.layers,
      heads: spec.heads,
      seq: spec.seq,
      vocab: spec.vocab,
      batch: GPT_DEFAULTS.batch,
    },
    variants: [
      ...standardVariants(spec.layers),
      ...(isDefault ? [...sliceVariants(spec.layers, [2]), ...defaultExtras(spec.layers)] : []),
    ],
  };
}

/** Every demo model family the site ships. */
export function demoCatalog(): DemoModel[] {
  const demos: DemoModel[] = [];
  for (const hidden of MLP_WIDTHS)
    for (const layers of MLP_LAYERS)
      demos.push(
        mlpDemo(
          { hidden, layers, classes: MLP_DEFAULTS.classes },
          hidden === MLP_DEFAULTS.hidden && layers === MLP_DEFAULTS.layers,
        ),
      );
  const { heads, seq, vocab } = GPT_DEFAULTS;
  for (const hidden of GPT_HIDDEN)
    for (const layers of GPT_LAYERS)
      demos.push(
        gptDemo({ hidden, layers, heads, seq, vocab }, hidden === GPT_DEFAULTS.hidden && layers === GPT_DEFAULTS.layers),
      );
  return demos;
}
