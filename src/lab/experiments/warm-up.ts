/**
 * The warm-up step. On WebGPU a kernel's first run compiles its shader (seconds each on a
 * software adapter), so every worker first runs one small step of the same graphs, releases
 * everything it made, and only then takes its baseline and measures: the measured step, its time
 * included, is warm. On WebAssembly there is none, because what a warm-up leaves in the heap
 * (which never shrinks) would hide the growth being measured; there the first of two steps warms
 * up and the second is timed.
 */
import type { Backend } from '../measure/executor';
import { LAB_BATCH_MIN } from './settings';

/** Whether workers run a warm-up step before measuring (single.worker.ts, cluster.worker.ts). */
export const warmsUp = (backend: Backend): boolean => backend === 'webgpu';

/** Steps measured when an experiment does not say: one after a warm-up, else two. */
export const measuredSteps = (backend: Backend): number => (warmsUp(backend) ? 1 : 2);

/** The warm-up's batch: the lab's smallest for each of `parts` (micro-batches or devices). */
export const warmUpBatch = (parts: number): number => LAB_BATCH_MIN * parts;

/**
 * Steps timed for a run's reported step time: its median and range (src/lab/measure/step-times.ts). Five keep a run
 * within seconds on a software adapter and give a range wide enough to show one step's noise.
 */
export const TIMED_STEPS = 5;
