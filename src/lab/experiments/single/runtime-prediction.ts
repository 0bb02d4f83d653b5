/**
 * "This runtime" for one side of a single experiment: the lab's own single run
 * (`measureSingleRun`, measure/single-run.ts) played on the runtime model's executor
 * (runtime-model/runtime-executor.ts), so the prediction follows the same micro-batches,
 * placements, read-backs and kept results as the measurement. Pure: no WebGPU.
 */
import type { ManifestGraph } from '../../../graphs/browser-safe';
import { batchSlice } from '../../measure/feeds';
import { peakAbove } from '../../measure/measured-memory';
import { measureSingleRun, type SingleRunSpec } from '../../measure/single-run';
import type { GraphSchedule } from '../../runtime-model/graph-schedule';
import { createRuntimeExecutor } from '../../runtime-model/runtime-executor';
import { itemiseGap, type ItemisedGap } from '../../runtime-model/runtime-gap';
import { ONNXRUNTIME_RULES, type RuntimeRules } from '../../runtime-model/runtime-rules';

/** Loads a graph's schedule (page/schedule-loader.ts on the page). */
export type ScheduleLoader = (graph: ManifestGraph) => Promise<GraphSchedule>;

/**
 * "This runtime"'s peak for the side `spec` describes, as the page reports a measured one: bytes
 * above the fresh runtime at the run's busiest moment (no warm-up: its buffers go with its sessions).
 */
export async function predictSingleRun(
  spec: SingleRunSpec,
  loadSchedule: ScheduleLoader,
  rules: RuntimeRules = ONNXRUNTIME_RULES,
): Promise<number> {
  const result = await measureSingleRun(createRuntimeExecutor({ loadSchedule, rules }), spec);
  return peakAbove(result.memory);
}

/** Bytes of the examples and labels `spec`'s run places on the device (float data; integer data stays on the host). */
export function placedExamplesBytes(spec: SingleRunSpec): number {
  return Object.values(batchSlice(spec.model, spec.batch, spec.seed, 0, spec.batch))
    .filter((feed) => feed.data instanceof Float32Array)
    .reduce((sum, feed) => sum + feed.data.byteLength, 0);
}

/** "This runtime"'s prediction for `spec`'s side and its gap to the engine's peak `pytorchPeakBytes`, itemised. */
export function itemiseSingleRunGap(
  spec: SingleRunSpec,
  loadSchedule: ScheduleLoader,
  pytorchPeakBytes: number,
): Promise<ItemisedGap> {
  return itemiseGap((rules) => predictSingleRun(spec, loadSchedule, rules), placedExamplesBytes(spec), pytorchPeakBytes);
}
