/**
 * Runs a single experiment from the page: the same model without (before) and with (after) a
 * technique, each side measured on one device in a fresh worker, next to the memory engine's
 * predictions.
 */
import type { Backend } from '../../measure/executor';
import type { BackendChoice } from '../../page/choose-backend';
import { peakAbove } from '../../measure/measured-memory';
import type { SingleRunResult } from '../../measure/single-run';
import { loadManifest } from '../../page/manifest-loader';
import { loadGraphSchedule } from '../../page/schedule-loader';
import type { LabProgress, ProgressSide } from '../../page/progress';
import type { RunStage } from '../../measure/run-stage';
import { startRun } from '../../page/start-run';
import { maxRelativeDifference } from '../../results/compare';
import type { ItemisedGap } from '../../runtime-model/runtime-gap';
import { requestFromWorker } from '../../worker/channel';
import type { LabSettings } from '../settings';
import { measuredSteps, TIMED_STEPS } from '../warm-up';
import { SINGLE_EXPERIMENTS, findSingleModel, predictSideBytes, sideRunSpec, type SingleExperimentId } from './experiments';
import type { SingleRequest, StepSample } from './protocol';
import { itemiseSingleRunGap } from './runtime-prediction';

/**
 * The bytes a run added over its fresh runtime: peak minus baseline. On WebGPU the baseline is
 * the storage buffers before any session (usually none); on WASM, the heap onnxruntime-web
 * starts with, so what remains is the growth the model caused.
 */
export function measuredBytes(result: SingleRunResult): number {
  return peakAbove(result.memory);
}

/** One side's numbers: what ran, what it measured, what the engine and "this runtime" predicted. */
export interface SingleSideOutcome {
  readonly label: string;
  readonly modelId: string;
  readonly batch: number;
  readonly microBatches: number;
  /** The memory engine's peak: what PyTorch would hold on CUDA. */
  readonly predictedBytes: number;
  /**
   * "This runtime"'s prediction and its gap to the engine's, itemised; null where the side is
   * not modelled yet (not `runtimeModelled`, or not on WebGPU).
   */
  readonly runtime: ItemisedGap | null;
  /** Whether `runtime` is predicted without a recorded trace to check it (`runtimeUnchecked`). */
  readonly runtimeUnchecked: boolean;
  /** Whether the side's graph adds gradients out of place (`acc_out = acc_in + g`): two gradient sets at once. */
  readonly outOfPlaceGradients: boolean;
  readonly result: SingleRunResult;
}

/** A finished experiment. */
export interface SingleOutcome {
  readonly backend: Backend;
  /** Which backend ran and why, as data the page words. */
  readonly backendChoice: BackendChoice;
  readonly before: SingleSideOutcome;
  readonly after: SingleSideOutcome;
  /** Largest relative gradient difference, after vs before. */
  readonly gradientDifference: number;
  readonly gradientsPass: boolean;
  /** Why this backend cannot show the saving, or null when it can. */
  readonly unmeasurable: string | null;
}

/**
 * Runs the request's sides in a new worker and ends the worker afterwards, so the next request
 * starts from a fresh device and runtime.
 */
function runInWorker(
  request: SingleRequest,
  onStage: (stage: RunStage, sample?: StepSample) => void,
): Promise<readonly SingleRunResult[]> {
  return requestFromWorker(new Worker(new URL('./single.worker.ts', import.meta.url), { type: 'module' }), request, onStage);
}

/**
 * Runs an experiment end to end: picks the backend, downloads the runtime (once per page),
 * runs the "before" and then the "after" side in fresh workers, and sets
 * them next to the memory engine's predictions.
 */
export async function runSingleExperiment(
  id: SingleExperimentId,
  settings: LabSettings,
  onProgress: (progress: LabProgress) => void,
): Promise<SingleOutcome> {
  const experiment = SINGLE_EXPERIMENTS[id];
  const { backend, backendChoice, runtime, modelsUrl } = await startRun(experiment, onProgress);
  const manifest = await loadManifest();

  const steps = experiment.steps ?? measuredSteps(backend);
  const sides = [experiment.before, experiment.after].map((side) => {
    const model = findSingleModel(manifest, side, settings, backend);
    return { side, model, spec: sideRunSpec(side, model, settings, steps) };
  });
  // The workers also time extra steps after measuring memory; "this runtime" replays only the measured ones.
  const run = (specs: (typeof sides)[number]['spec'][], ids: ProgressSide[]) =>
    runInWorker(
      { backend, runtime, modelsUrl, sides: specs.map((spec) => ({ ...spec, timedSteps: TIMED_STEPS })) },
      (stage, sample) => {
        const side = sample && ids[sample.side];
        onProgress({
          phase: 'run',
          sides: ids,
          stage,
          ...(sample && side ? { sample: { side, step: sample.step, bytes: sample.bytes } } : {}),
        });
      },
    );
  // WebGPU: both sides in one worker, one after the other with every session released in
  // between, so the second reuses compiled shaders (minutes saved on software adapters).
  // WASM: a worker each, because a WebAssembly heap never shrinks and would hide the second.
  const results =
    backend === 'webgpu'
      ? await run(
          sides.map((s) => s.spec),
          ['before', 'after'],
        )
      : [...(await run([sides[0]!.spec], ['before'])), ...(await run([sides[1]!.spec], ['after']))];
  const [before, after] = (await Promise.all(
    sides.map(async ({ side, model, spec }, i): Promise<SingleSideOutcome> => {
      const predictedBytes = predictSideBytes(side, model, settings, steps);
      // The schedules are fetched only now, for the sides the runtime model covers.
      const runtime =
        backend === 'webgpu' && side.runtimeModelled ? await itemiseSingleRunGap(spec, loadGraphSchedule, predictedBytes) : null;
      return {
        label: side.label,
        modelId: model.id,
        batch: settings.batch,
        microBatches: spec.microBatches,
        predictedBytes,
        runtime,
        runtimeUnchecked: side.runtimeUnchecked === true,
        outOfPlaceGradients: model.variant.accumulate === true,
        result: results[i]!,
      };
    }),
  )) as [SingleSideOutcome, SingleSideOutcome];
  const gradientDifference = maxRelativeDifference(after.result.gradients, before.result.gradients);
  return {
    backend,
    backendChoice,
    before,
    after,
    gradientDifference,
    gradientsPass: gradientDifference <= experiment.gradients.tolerance,
    unmeasurable: experiment.unmeasurable(backend),
  };
}
