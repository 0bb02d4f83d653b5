import type { Manifest, ManifestModel, ManifestVariant } from '../../../graphs/browser-safe';
import type { GradientLocation, SingleRunSpec, WeightLocation } from '../../measure/single-run';
import type { Backend } from '../../measure/executor';
import { DEFAULT_LAB_SETTINGS, LAB_SEED, type LabSettings } from '../settings';
import { measuredSteps } from '../warm-up';
import { predictLabBytes, predictLeakyLoopBytes, predictStreamedBytes } from '../predict-lab-model';
import { SINGLE_EXPERIMENT_WORDS as WORDS } from './words';

/** Ids of the experiments this module defines; each is a `data-experiment` value. */
export type SingleExperimentId = 'mixed-precision' | 'gradient-accumulation' | 'gradient-checkpointing' | 'leak' | 'offload';

/** One side of a single experiment: which model variant (manifest entry) runs, and how the batch is split. */
export interface SingleSideSpec {
  readonly label: string;
  /** Whether a manifest variant is this side's model on this backend. */
  readonly matches: (variant: ManifestVariant, backend: Backend) => boolean;
  readonly microBatches: (settings: LabSettings) => number;
  /** Run as a training loop (see `SingleRunSpec.loop`) instead of measured steps. */
  readonly loop?: { readonly retain: boolean };
  /** Where the weights live between uses (see `SingleRunSpec.weights`); resident by default. */
  readonly weights?: WeightLocation;
  /** Where parameter gradients go as they are made (see `SingleRunSpec.gradients`). */
  readonly gradients?: GradientLocation;
  /**
   * Whether "this runtime" (runtime-model/) predicts this side on WebGPU: set where its step
   * loop is checked against a recorded trace (tests/fixtures/lab/traces/), at two sizes, or,
   * with `runtimeUnchecked`, where no trace can be recorded. Elsewhere the page says "not
   * modelled yet" rather than show a number.
   */
  readonly runtimeModelled?: boolean;
  /**
   * Set beside `runtimeModelled` where no recorded trace checks the side: mixed precision, whose
   * page needs 16-bit shaders (`shader-f16`) that the software adapter the traces are recorded on
   * lacks. "This runtime" then predicts it from its graphs' schedules alone (float16 tensors at 2
   * bytes an element, tests/unit/lab/runtime-model/sixteen-bit-bytes.test.ts), and the page shows
   * the figure as predicted, not yet checked against a trace, and never says it agrees.
   */
  readonly runtimeUnchecked?: boolean;
}

/** How the two sides' gradients are compared (what the reader is told of it: words.ts). */
export interface GradientCheck {
  /** Largest relative difference still called a pass. */
  readonly tolerance: number;
}

/** An experiment: the same model measured without (before) and with (after) a technique. */
export interface SingleExperimentDefinition {
  readonly id: SingleExperimentId;
  readonly before: SingleSideSpec;
  readonly after: SingleSideSpec;
  /** The "after" side needs 16-bit shaders (`shader-f16`) to run on WebGPU. */
  readonly needsF16: boolean;
  /** Whether the micro-batch field applies. */
  readonly accumulate: boolean;
  readonly gradients: GradientCheck;
  /**
   * Why this backend cannot show the technique's saving, or null when it can. The experiment
   * still runs there (gradients, step time), and the page says why the bytes match.
   */
  readonly unmeasurable: (backend: Backend) => string | null;
  /** Steps per side; defaults to 2 (the first compiles shaders, the second is timed). */
  readonly steps?: number;
  /** Sizes this experiment starts with, where they differ from the lab's defaults. */
  readonly defaults?: Partial<LabSettings>;
  /** Sizes on a software WebGPU adapter, over `defaults`, where not `SOFTWARE_ADAPTER_SETTINGS`. */
  readonly softwareDefaults?: Partial<LabSettings>;
  /** Why the experiment cannot run without WebGPU, or undefined when it falls back to WASM. */
  readonly needsWebGpu?: string | undefined;
}

const once = (): number => 1;
const plain = (v: ManifestVariant): boolean => !v.accumulate && !v.sgd && v.training;
const formFor = (backend: Backend): ManifestVariant['form'] => (backend === 'webgpu' ? 'segmented' : 'single');
/** One graph per hidden layer (catalog `layerwise.keep.fp32`): the unit weights stream in. */
const layerwise = (v: ManifestVariant): boolean =>
  plain(v) &&
  v.form === 'segmented' &&
  v.activations.kind === 'keep' &&
  v.precision === 'fp32' &&
  (v.ranges ?? []).every(([start, end]) => end - start === 1);

/** Iterations of the leaky and fixed training loops. */
export const LEAK_STEPS = 10;

/** Every single experiment, by id: the lessons' islands and the unit tests read the same table. */
export const SINGLE_EXPERIMENTS: Readonly<Record<SingleExperimentId, SingleExperimentDefinition>> = {
  'mixed-precision': {
    id: 'mixed-precision',
    before: {
      label: WORDS['mixed-precision'].before,
      matches: (v) => plain(v) && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: once,
      runtimeModelled: true,
      runtimeUnchecked: true,
    },
    after: {
      label: WORDS['mixed-precision'].after,
      matches: (v) => plain(v) && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp16',
      microBatches: once,
      runtimeModelled: true,
      runtimeUnchecked: true,
    },
    needsF16: true,
    accumulate: false,
    // fp16 keeps ~3 significant digits; gradients through 16-bit activations drift by about 1e-3.
    gradients: { tolerance: 0.05 },
    unmeasurable: (backend) => (backend === 'wasm' ? WORDS['mixed-precision'].wasmUnmeasurable : null),
  },
  'gradient-accumulation': {
    id: 'gradient-accumulation',
    before: {
      label: WORDS['gradient-accumulation'].before,
      matches: (v) => plain(v) && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: once,
      runtimeModelled: true,
    },
    after: {
      label: WORDS['gradient-accumulation'].after,
      matches: (v) =>
        v.accumulate && v.training && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: (s) => s.microBatches,
      runtimeModelled: true,
    },
    needsF16: false,
    accumulate: true,
    // Accumulation trades activations for one gradient buffer, so the batch must stay large
    // against the width; 4 layers halve the step instead (the ratio does not depend on depth).
    softwareDefaults: { hidden: 128, layers: 4, batch: 256 },
    // Same sum in another order: float32 rounding only.
    gradients: { tolerance: 1e-4 },
    unmeasurable: () => null,
  },
  'gradient-checkpointing': {
    id: 'gradient-checkpointing',
    // WebGPU: one graph per segment, since onnxruntime-web reuses freed buffers across runs but
    // barely within one. WASM: the single step graph, since tensors handed between runs leave
    // the WebAssembly heap (the only thing measurable there) and would hide the saving.
    before: {
      label: WORDS['gradient-checkpointing'].before,
      matches: (v, backend) => plain(v) && v.form === formFor(backend) && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: once,
      runtimeModelled: true,
    },
    after: {
      label: WORDS['gradient-checkpointing'].after,
      matches: (v, backend) =>
        plain(v) && v.form === formFor(backend) && v.activations.kind === 'recompute' && v.precision === 'fp32',
      microBatches: once,
      runtimeModelled: true,
    },
    needsF16: false,
    accumulate: false,
    // Recomputation repeats the same arithmetic: identical up to float32 rounding.
    gradients: { tolerance: 1e-5 },
    unmeasurable: (backend) => (backend === 'wasm' ? WORDS['gradient-checkpointing'].wasmUnmeasurable : null),
  },
  leak: {
    id: 'leak',
    before: {
      label: WORDS.leak.before,
      matches: (v) => plain(v) && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: once,
      loop: { retain: true },
      runtimeModelled: true,
    },
    after: {
      label: WORDS.leak.after,
      matches: (v) => plain(v) && v.form === 'single' && v.activations.kind === 'keep' && v.precision === 'fp32',
      microBatches: once,
      loop: { retain: false },
      runtimeModelled: true,
    },
    needsF16: false,
    accumulate: false,
    // Same steps, same data: the last step's gradients are identical.
    gradients: { tolerance: 1e-6 },
    unmeasurable: () => null,
    steps: LEAK_STEPS,
    // Small enough that ten steps take seconds on a software GPU, while each leaked set of
    // gradients (265,738 parameters × 4 B ≈ 1.06 MB at width 256 and 4 layers) dwarfs a step's
    // activations (64 × 256 × 4 B = 64 KiB a layer), so the staircase stands out.
    defaults: { hidden: 256, layers: 4, batch: 64 },
    // Width 128 keeps each leaked set of gradients (about 67,000 × 4 B ≈ 270 KB) eight times a layer's
    // activations (64 × 128 × 4 B = 32 KiB) at a quarter of the work.
    softwareDefaults: { hidden: 128 },
    needsWebGpu: WORDS.leak.needsWebGpu ?? undefined,
  },
  offload: {
    id: 'offload',
    // Both sides run the same per-layer graphs; only where the weights (and gradients) live differs.
    // Resident: everything on the GPU, gradients kept there until the step ends, as `.grad` is.
    // Streamed: weights in host memory, each graph's uploaded around its run with the next one
    // prefetched, and gradients read back to the host as they are made (ZeRO-Infinity, FSDP
    // `CPUOffloadPolicy`: parameters, gradients and optimizer state live on the CPU).
    before: { label: WORDS.offload.before, matches: layerwise, microBatches: once, gradients: 'gpu', runtimeModelled: true },
    after: {
      label: WORDS.offload.after,
      matches: layerwise,
      microBatches: once,
      weights: 'streamed',
      gradients: 'host',
      runtimeModelled: true,
    },
    needsF16: false,
    accumulate: false,
    // The same kernels on the same numbers; only the buffers they read differ.
    gradients: { tolerance: 1e-6 },
    unmeasurable: () => null,
    // Weights dominate at this size, as in the models offload is for: 8 layers of 512 × 512 fp32
    // weights are 8.4 MB, while a batch of 64 keeps 64 × 512 × 4 B = 128 KiB of activations a layer.
    defaults: { hidden: 512, layers: 8, batch: 64 },
    // Width 128 still has 0.53 MB of weights against 32 KiB of activations a layer, at a sixteenth of the work.
    softwareDefaults: { hidden: 128 },
    needsWebGpu: WORDS.offload.needsWebGpu ?? undefined,
  },
};

/** The model a side runs for the reader's width and depth; throws if the factory made none. */
export function findSingleModel(
  manifest: Manifest,
  side: SingleSideSpec,
  settings: LabSettings,
  backend: Backend,
): ManifestModel {
  const family = `mlp-h${settings.hidden}-l${settings.layers}`;
  const model = manifest.models.find((m) => m.family === family && side.matches(m.variant, backend));
  if (!model) throw new Error(`No ${side.label} model for ${family} in the manifest; run \`npm run models\`.`);
  return model as ManifestModel;
}

/**
 * The single run a side measures with `model` at the reader's settings for `steps` steps: what
 * single.worker.ts runs, and what "this runtime" replays (runtime-prediction.ts).
 */
export function sideRunSpec(side: SingleSideSpec, model: ManifestModel, settings: LabSettings, steps: number): SingleRunSpec {
  return {
    model,
    batch: settings.batch,
    microBatches: side.microBatches(settings),
    seed: LAB_SEED,
    steps,
    ...(side.loop ? { loop: side.loop } : {}),
    ...(side.weights ? { weights: side.weights } : {}),
    ...(side.gradients ? { gradients: side.gradients } : {}),
  };
}

/** The engine's prediction for one side of a single experiment at the reader's settings, run for `steps` steps. */
export function predictSideBytes(side: SingleSideSpec, model: ManifestModel, settings: LabSettings, steps: number): number {
  const shape = { batch: settings.batch, microBatches: side.microBatches(settings) };
  if (side.weights === 'streamed') return predictStreamedBytes(model, shape);
  return side.loop?.retain ? predictLeakyLoopBytes(model, shape, steps) : predictLabBytes(model, shape);
}

/**
 * The engine's prediction for one side of a single experiment as the page shows it on WebGPU, at its default settings
 * (the lab's, then the experiment's own) with `changed` applied:
 * what a lesson states about its experiment, computed when the site is built so an engine change updates the text.
 */
export function defaultSidePrediction(
  manifest: Manifest,
  id: SingleExperimentId,
  side: 'before' | 'after',
  changed: Partial<LabSettings> = {},
): number {
  const experiment = SINGLE_EXPERIMENTS[id];
  const spec = experiment[side];
  const settings = { ...DEFAULT_LAB_SETTINGS, ...experiment.defaults, ...changed };
  const model = findSingleModel(manifest, spec, settings, 'webgpu');
  return predictSideBytes(spec, model, settings, experiment.steps ?? measuredSteps('webgpu'));
}
