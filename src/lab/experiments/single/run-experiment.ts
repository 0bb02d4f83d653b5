import { chooseBackend } from '../../backend';
import { maxRelativeDifference } from '../../compare';
import { EXPERIMENTS, findModel, type ExperimentId } from './experiments';
import { loadManifest, MODELS_URL } from '../../manifest-loader';
import { predictSideBytes } from './predict';
import { LabRunError } from '../../lab-run-error';
import type { LabProgress } from '../../progress';
import { peakAbove } from '../../measure/measured-memory';
import type { VariantResult } from '../../measure/variant';
import type { Backend } from '../../protocol';
import { runVariants } from './run-variant';
import { loadRuntime } from '../../runtime';
import type { LabSettings } from '../../settings';
import { measuredSteps } from '../../measure/warm-up';

/**
 * The bytes a run added over its fresh runtime: peak minus baseline. On WebGPU the baseline is
 * the storage buffers before any session (usually none); on WASM, the heap onnxruntime-web
 * starts with, so what remains is the growth the model caused.
 */
export function measuredBytes(result: VariantResult): number {
  return peakAbove(result.memory);
}

/** One side's numbers: what ran, what it measured, what the engine predicted. */
export interface SideOutcome {
  readonly label: string;
  readonly modelId: string;
  readonly batch: number;
  readonly microBatches: number;
  readonly predictedBytes: number;
  readonly result: VariantResult;
}

/** A finished experiment. */
export interface ExperimentOutcome {
  readonly backend: Backend;
  readonly backendReason: string;
  readonly before: SideOutcome;
  readonly after: SideOutcome;
  /** Largest relative gradient difference, after vs before. */
  readonly gradientDifference: number;
  readonly gradientsPass: boolean;
  /** Why this backend cannot show the saving, or null when it can. */
  readonly unmeasurable: string | null;
}

/** Same weights and data on both sides. */
const SEED = 42;

/**
 * Runs an experiment end to end: picks the backend, downloads the runtime (once per page),
 * runs the "before" and then the "after" variant, each in its own fresh worker, and sets
 * them next to the memory engine's predictions.
 */
export async function runExperiment(
  id: ExperimentId,
  settings: LabSettings,
  onProgress: (progress: LabProgress) => void,
): Promise<ExperimentOutcome> {
  const experiment = EXPERIMENTS[id];
  const { backend, reason } = await chooseBackend({ needsF16: experiment.needsF16 });
  if (backend === 'wasm' && experiment.needsWebGpu)
    throw new LabRunError('needs-webgpu', `${experiment.needsWebGpu} (${reason})`);
  const runtime = await loadRuntime((download) => onProgress({ phase: 'runtime', download }));
  const manifest = await loadManifest();

  const steps = experiment.steps ?? measuredSteps(backend);
  const sides = [experiment.before, experiment.after].map((side) => {
    const model = findModel(manifest, side, settings, backend);
    const microBatches = side.microBatches(settings);
    const placement = {
      ...(side.loop ? { loop: side.loop } : {}),
      ...(side.weights ? { weights: side.weights } : {}),
      ...(side.gradients ? { gradients: side.gradients } : {}),
    };
    return { side, model, microBatches, spec: { model, batch: settings.batch, microBatches, seed: SEED, steps, ...placement } };
  });
  const run = (specs: (typeof sides)[number]['spec'][], labels: string[]) =>
    runVariants({ backend, runtime, modelsUrl: new URL(MODELS_URL, location.href).href, variants: specs }, (stage, sample) =>
      onProgress({
        phase: 'run',
        label: labels.join(', then '),
        stage,
        ...(sample ? { sample: { series: labels[sample.variant] ?? '', step: sample.step, bytes: sample.bytes } } : {}),
      }),
    );
  // WebGPU: both variants in one worker, one after the other with every session released in
  // between, so the second reuses compiled shaders (minutes saved on software adapters).
  // WASM: a worker each, because a WebAssembly heap never shrinks and would hide the second.
  const results =
    backend === 'webgpu'
      ? await run(
          sides.map((s) => s.spec),
          [experiment.before.label, experiment.after.label],
        )
      : [...(await run([sides[0]!.spec], [experiment.before.label])), ...(await run([sides[1]!.spec], [experiment.after.label]))];
  const [before, after] = sides.map(({ side, model, microBatches }, i): SideOutcome => ({
    label: side.label,
    modelId: model.id,
    batch: settings.batch,
    microBatches,
    predictedBytes: predictSideBytes(side, model, settings, steps),
    result: results[i]!,
  })) as [SideOutcome, SideOutcome];
  const gradientDifference = maxRelativeDifference(after.result.gradients, before.result.gradients);
  return {
    backend,
    backendReason: reason,
    before,
    after,
    gradientDifference,
    gradientsPass: gradientDifference <= experiment.gradients.tolerance,
    unmeasurable: experiment.unmeasurable(backend),
  };
}
