/**
 * Runs a cluster experiment from the page: each side's job on its virtual GPUs (a fresh set of
 * device workers per side), the bytes each device held next to the engine's per-device figure,
 * and whether the devices together computed what one device computes.
 */
import type { DeviceResult, TensorSet } from '../../measure/cluster-job';
import type { Backend } from '../../measure/executor';
import type { BackendChoice } from '../../page/choose-backend';
import { peakAbove } from '../../measure/measured-memory';
import { loadManifest } from '../../page/manifest-loader';
import { loadGraphSchedule } from '../../page/schedule-loader';
import type { LabProgress } from '../../page/progress';
import { startRun } from '../../page/start-run';
import { maxRelativeDifference } from '../../results/compare';
import type { ItemisedGap } from '../../runtime-model/runtime-gap';
import { LAB_SEED, type LabSettings } from '../settings';
import { measuredSteps, TIMED_STEPS } from '../warm-up';
import { CLUSTER_EXPERIMENTS, findClusterModel, type ClusterExperimentId, type ClusterSideSpec } from './experiments';
import { runDevices } from './run-devices';
import { itemiseClusterGaps } from './runtime-prediction';
import { CLUSTER_EXPERIMENT_WORDS } from './words';

/** One side's devices, what each measured, and the engine's per-device figure. */
export interface ClusterSideOutcome {
  readonly label: string;
  readonly modelId: string;
  readonly devices: readonly DeviceResult[];
  readonly predictedBytes: number;
  /**
   * "This runtime"'s prediction for each device (by rank) and its gap to the engine's figure,
   * itemised; null without WebGPU, where the model does not apply.
   */
  readonly runtime: readonly ItemisedGap[] | null;
  /** Whether its devices add gradients out of place (the pipeline's accumulate graph): two gradient sets at once. */
  readonly outOfPlaceGradients: boolean;
}

/** A finished cluster experiment: both sides' devices and whether they computed the same thing. */
export interface ClusterOutcome {
  readonly backend: Backend;
  /** Which backend ran and why, as data the page words. */
  readonly backendChoice: BackendChoice;
  readonly before: ClusterSideOutcome;
  readonly after: ClusterSideOutcome;
  /** Largest relative difference of the compared tensors, after vs before. */
  readonly difference: number;
  readonly equal: boolean;
}

/** What a device added over its fresh runtime at its peak. */
export function deviceBytes(result: DeviceResult): number {
  return peakAbove(result.memory);
}

/** A side's figure: its busiest device, since the job fits only if every device fits. */
export function sideBytes(side: ClusterSideOutcome): number {
  return Math.max(0, ...side.devices.map(deviceBytes));
}

/** "This runtime"'s figure for a side, as `sideBytes` reports a measured one: its busiest device; null where not modelled. */
export function runtimeSideBytes(side: ClusterSideOutcome): number | null {
  return side.runtime ? Math.max(0, ...side.runtime.map((gap) => gap.runtime.peakBytes)) : null;
}

/** Everything the devices of a side hold to compare: the union of their shards. */
function comparedTensors(devices: readonly DeviceResult[]): TensorSet {
  return Object.assign({}, ...devices.map((d) => d.tensors)) as TensorSet;
}

/**
 * Why the cluster experiments do not fall back to WebAssembly: a virtual GPU's memory is
 * the WebGPU buffers its device allocates. On WASM each worker's tensors pass between graph runs
 * as JavaScript arrays, which no page can measure per worker, and the heap's high-water mark
 * stayed flat in our runs, so there would be nothing to compare.
 */
export const NEEDS_WEBGPU = CLUSTER_EXPERIMENT_WORDS.needsWebGpu;

/**
 * Runs a cluster experiment: the "before" side's devices, then the "after" side's, each
 * a fresh set of workers, and compares what they computed.
 */
export async function runClusterExperiment(
  id: ClusterExperimentId,
  settings: LabSettings,
  onProgress: (progress: LabProgress) => void,
): Promise<ClusterOutcome> {
  const experiment = CLUSTER_EXPERIMENTS[id];
  const { backend, backendChoice, runtime, modelsUrl } = await startRun(
    { needsF16: false, needsWebGpu: NEEDS_WEBGPU },
    onProgress,
  );
  const manifest = await loadManifest();

  const runSide = async (spec: ClusterSideSpec, side: 'before' | 'after'): Promise<ClusterSideOutcome> => {
    const model = findClusterModel(manifest, spec, settings);
    const devices = spec.devices(settings);
    const job = spec.job(model, settings, manifest);
    const steps = measuredSteps(backend);
    // The devices also time extra steps after measuring memory; "this runtime" replays only the measured ones.
    const start = { backend, runtime, modelsUrl, seed: LAB_SEED, steps, timedSteps: TIMED_STEPS, job };
    const results = await runDevices(devices, start, (p) =>
      onProgress({
        phase: 'run',
        sides: [side],
        rank: p.rank,
        stage: p.stage,
        ...(p.sample ? { sample: { side, rank: p.rank, ...p.sample } } : {}),
      }),
    );
    const predictedBytes = spec.predict(model, settings);
    // The schedules are fetched only now, after the devices ran.
    const modelled =
      backend === 'webgpu' ? await itemiseClusterGaps({ job, devices, steps }, loadGraphSchedule, predictedBytes) : null;
    return {
      label: spec.label,
      modelId: model.id,
      devices: results,
      predictedBytes,
      runtime: modelled,
      outOfPlaceGradients: job.kind === 'pipeline' && job.microBatches > 1,
    };
  };
  const before = await runSide(experiment.before, 'before');
  const after = await runSide(experiment.after, 'after');
  const difference = maxRelativeDifference(comparedTensors(after.devices), comparedTensors(before.devices));
  return { backend, backendChoice, before, after, difference, equal: difference <= experiment.tolerance };
}
