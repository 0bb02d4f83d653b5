/**
 * What one device of a cluster job runs with, and the helpers its step loops share:
 * placing the model's weights, running and timing its steps, and packaging what it measured and computed.
 */
import type { ManifestModel } from '../../graphs/browser-safe';
import type { DeviceResult } from './cluster-job';
import type { Comm } from './comm';
import type { Executor, Tensor } from './executor';
import { weightFeeds } from './feeds';
import type { MeasuredMemory } from './measured-memory';
import type { Measurement } from './meter';
import { summariseStepTimes, type StepTimes } from './step-times';

/** A device's executor, its link to the others, and the run's seed and step counts. */
export interface DeviceRun {
  readonly exec: Executor;
  readonly comm: Comm;
  /** Seed of the weights and the data, the same on every device and side. */
  readonly seed: number;
  /** Steps to run and measure. */
  readonly steps: number;
  /**
   * Steps to time in all (default: the measured steps alone). Steps beyond `steps` run after the memory measurement
   * has ended and the compared tensors were read, so they change neither. Every device of a run must get the same
   * count: each step joins collectives (or passes activations) that wait for every device.
   */
  readonly timedSteps?: number;
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

/**
 * Runs the run's measured steps (`step(index)` runs one), reporting the bytes held above the baseline after each;
 * returns each step's wall time in milliseconds. Every measured step is timed: the cluster experiments run only on
 * WebGPU, where each device has already run a warm-up step (experiments/warm-up.ts).
 */
export async function runMeasuredSteps(
  run: DeviceRun,
  measurement: Measurement,
  step: (index: number) => Promise<void>,
): Promise<number[]> {
  const { exec } = run;
  const stepMs: number[] = [];
  for (let index = 0; index < run.steps; index++) {
    exec.progress({ kind: 'step', step: index + 1, steps: run.steps });
    const stepStart = exec.now();
    await step(index);
    stepMs.push(exec.now() - stepStart);
    exec.progress({ kind: 'step', step: index + 1, steps: run.steps }, { step: index + 1, bytes: measurement.aboveBaseline() });
  }
  return stepMs;
}

/**
 * Runs and times the steps after the measured ones, up to `run.timedSteps` in all; call it once the measurement has
 * finished and the compared tensors were read. Returns the median and range of every timed step.
 */
export async function runTimedSteps(
  run: DeviceRun,
  measuredMs: readonly number[],
  step: (index: number) => Promise<void>,
): Promise<StepTimes> {
  const { exec } = run;
  const stepMs = [...measuredMs];
  const timedSteps = run.timedSteps ?? run.steps;
  for (let index = stepMs.length; index < timedSteps; index++) {
    exec.progress({ kind: 'timing', step: index + 1, steps: timedSteps });
    const stepStart = exec.now();
    await step(index);
    stepMs.push(exec.now() - stepStart);
  }
  return summariseStepTimes(stepMs);
}

/** The device's result: its memory figures and what its job computed; its step time is the median of the timed steps. */
export function deviceResult(
  run: DeviceRun,
  memory: MeasuredMemory,
  computed: Pick<DeviceResult, 'stepTimes' | 'loadMs' | 'loss' | 'tensors' | 'spans'>,
): DeviceResult {
  const { exec, comm } = run;
  return {
    rank: comm.rank,
    backend: exec.backend,
    adapter: exec.store.adapter,
    memory,
    stepMs: computed.stepTimes.medianMs,
    ...computed,
  };
}
