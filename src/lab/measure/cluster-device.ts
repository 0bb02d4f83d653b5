/**
 * What one device of a cluster job runs with, and the helpers its step loops share:
 * placing the model's weights, and packaging what it measured and computed.
 */
import type { ManifestModel } from '../../graphs/browser-safe';
import type { DeviceResult } from './cluster-job';
import type { Comm } from './comm';
import type { Executor, Tensor } from './executor';
import { weightFeeds } from './feeds';
import type { Measurement } from './meter';

/** A device's executor, its link to the others, and the run's seed and step count. */
export interface DeviceRun {
  readonly exec: Executor;
  readonly comm: Comm;
  /** Seed of the weights and the data, the same on every device and side. */
  readonly seed: number;
  readonly steps: number;
}

/** The model's initial weights (those `keep` selects), resident on this device. */
export function placeWeights(
  run: DeviceRun,
  model: ManifestModel,
  keep: (name: string) => boolean = () => true,
): Map<string, Tensor> {
  const weights = new Map<string, Tensor>();
  for (const [name, feed] of Object.entries(weightFeeds(model, run.seed)))
    if (keep(name)) weights.set(name, run.exec.store.place(feed));
  return weights;
}

/** Zeros of `length` floats, resident (optimizer moments start at zero). */
export function placeZeros(run: DeviceRun, length: number): Tensor {
  return run.exec.store.place({ data: new Float32Array(length), dims: [length] });
}

/** The number of scalars in a tensor of `shape`. */
export const elementCount = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** The device's result: its memory figures and what its job computed. */
export function deviceResult(
  run: DeviceRun,
  measurement: Measurement,
  bytes: { readonly atRestBytes: number; readonly heldBytes: number },
  computed: Pick<DeviceResult, 'stepMs' | 'loadMs' | 'loss' | 'tensors' | 'spans'>,
): DeviceResult {
  const { exec, comm } = run;
  return {
    rank: comm.rank,
    backend: exec.backend,
    adapter: exec.store.adapter,
    memory: measurement.finish(bytes.atRestBytes, bytes.heldBytes),
    ...computed,
  };
}
