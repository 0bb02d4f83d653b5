/**
 * "This runtime" for one side of a single experiment: the lab's own single run
 * (`measureSingleRun`, measure/single-run.ts) played on the runtime model's executor
 * (runtime-model/runtime-executor.ts), so the prediction follows the same micro-batches,
 * placements, read-backs and kept results as the measurement. Pure: no WebGPU.
 */
import { peakAbove } from '../../measure/measured-memory';
import { measureSingleRun, type SingleRunSpec } from '../../measure/single-run';
import { createRuntimeExecutor, type ScheduleLoader } from '../../runtime-model/runtime-executor';
import { placedExamplesBytes } from '../../runtime-model/placed-examples-bytes';
import { itemiseGap, type ItemisedGap } from '../../runtime-model/runtime-gap';
import { ONNXRUNTIME_RULES, type RuntimeRules } from '../../runtime-model/runtime-rules';

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

/** "This runtime"'s prediction for `spec`'s side and its gap to the engine's peak `pytorchPeakBytes`, itemised. */
export function itemiseSingleRunGap(
  spec: SingleRunSpec,
  loadSchedule: ScheduleLoader,
  pytorchPeakBytes: number,
): Promise<ItemisedGap> {
  const examplesBytes = placedExamplesBytes(spec.model, spec.batch, spec.seed);
  return itemiseGap((rules) => predictSingleRun(spec, loadSchedule, rules), examplesBytes, pytorchPeakBytes);
}
