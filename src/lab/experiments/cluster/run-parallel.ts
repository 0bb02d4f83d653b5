import { chooseBackend } from '../../backend';
import { maxRelativeDifference } from '../../compare';
import { loadManifest, MODELS_URL } from '../../manifest-loader';
import type { LabProgress } from '../../progress';
import type { Backend } from '../../protocol';
import { loadRuntime } from '../../runtime';
import type { LabSettings } from '../../settings';
import { measuredSteps } from '../../measure/warm-up';
import { findClusterModel, PARALLEL_EXPERIMENTS, type ClusterSideSpec, type ParallelExperimentId } from './parallel-experiments';
import type { DeviceResult, TensorSet } from '../../measure/cluster-jobs';
import { peakAbove } from '../../measure/measured-memory';
import { runCluster } from './run-cluster';
import { LabRunError } from '../../lab-run-error';

/** One side's devices, what each measured, and the engine's per-device figure. */
export interface ClusterSide {
  readonly label: string;
  readonly modelId: string;
  readonly devices: readonly DeviceResult[];
  readonly predictedBytes: number;
}

export interface ParallelOutcome {
  readonly backend: Backend;
  readonly backendReason: string;
  readonly before: ClusterSide;
  readonly after: ClusterSide;
  /** Largest relative difference of the compared tensors, after vs before. */
  readonly difference: number;
  readonly equal: boolean;
}

/** What a device added over its fresh runtime at its peak. */
export function deviceBytes(result: DeviceResult): number {
  return peakAbove(result.memory);
}

/** A side's figure: its busiest device, since the job fits only if every device fits. */
export function sideBytes(side: ClusterSide): number {
  return Math.max(0, ...side.devices.map(deviceBytes));
}

/** Everything the devices of a side hold to compare: the union of their shards. */
function comparedTensors(devices: readonly DeviceResult[]): TensorSet {
  return Object.assign({}, ...devices.map((d) => d.tensors)) as TensorSet;
}

/**
 * Why the multi-device experiments do not fall back to WebAssembly: a virtual GPU's memory is
 * the WebGPU buffers its device allocates. On WASM each worker's tensors pass between graph runs
 * as JavaScript arrays, which no page can measure per worker, and the heap's high-water mark
 * stayed flat in our runs, so there would be nothing to compare.
 */
export const NEEDS_WEBGPU =
  'This experiment needs WebGPU: each virtual GPU is a WebGPU device in a worker of its own, and its memory is the GPU buffers that device allocates. Without WebGPU the tensors would live in ordinary JavaScript memory, which a page cannot measure per worker. Open the page in a browser with WebGPU (Chrome, Edge, or Safari 26 and newer).';

/** Same weights and data on both sides. */
const SEED = 42;

/**
 * Runs a multi-device experiment: the "before" side's devices, then the "after" side's, each
 * a fresh set of workers, and compares what they computed.
 */
export async function runParallelExperiment(
  id: ParallelExperimentId,
  settings: LabSettings,
  onProgress: (progress: LabProgress) => void,
): Promise<ParallelOutcome> {
  const experiment = PARALLEL_EXPERIMENTS[id];
  const { backend, reason } = await chooseBackend({ needsF16: false });
  if (backend === 'wasm') throw new LabRunError('needs-webgpu', `${NEEDS_WEBGPU} (${reason})`);
  const runtime = await loadRuntime((download) => onProgress({ phase: 'runtime', download }));
  const manifest = await loadManifest();
  const modelsUrl = new URL(MODELS_URL, location.href).href;

  const runSide = async (spec: ClusterSideSpec): Promise<ClusterSide> => {
    const model = findClusterModel(manifest, spec, settings);
    const devices = spec.devices(settings);
    const results = await runCluster(
      devices,
      { backend, runtime, modelsUrl, seed: SEED, steps: measuredSteps(backend), job: spec.job(model, settings, manifest) },
      (p) =>
        onProgress({
          phase: 'run',
          label: `${spec.label}, GPU ${p.rank}`,
          stage: p.stage,
          ...(p.sample ? { sample: { series: `${spec.label}: GPU ${p.rank}`, ...p.sample } } : {}),
        }),
    );
    return { label: spec.label, modelId: model.id, devices: results, predictedBytes: spec.predict(model, settings) };
  };
  const before = await runSide(experiment.before);
  const after = await runSide(experiment.after);
  const difference = maxRelativeDifference(comparedTensors(after.devices), comparedTensors(before.devices));
  return { backend, backendReason: reason, before, after, difference, equal: difference <= experiment.tolerance };
}
